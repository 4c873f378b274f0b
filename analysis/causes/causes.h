#pragma once
// Root causes of wait states (Hermanns, Miklosch, Böhme, Wolf, EuroMPI 2013): after the forward pattern search, a
// backward replay on the same ranks classifies every wait state (direct or
// indirect, propagating or terminal), charges delay costs to the call paths
// that caused it, and finds the critical path.
#include <functional>

#include "analysis/replay/local_result.h"
#include "analysis/replay/replay_context.h"

namespace waitscope::causes {

// Collective over ctx.comms.world(). Adds critical_path and
// critical_path_imbalance, and this location's pieces of the path to result.
// Reads the location's events, not their payloads, and the wait-state instances the forward
// replay left in result.severities. Runs before analyzeDelays, whose largest memory
// comes after it has read the events for the last time.
void analyzeCriticalPath(replay::ReplayContext& ctx, replay::LocalResult& result);

// Collective over ctx.comms.world(). Reads the wait-state instances the forward
// replay left in result.severities; adds the delay_*, mpi_wait_* metrics. Calls
// `payloadsRead` (if set) once it has read the last of the location's payloads
// (ctx.events' message, collective and RMA records), and `eventsRead` once it has read the
// last of its events, each before its own memory peaks; it does not read them afterwards.
void analyzeDelays(replay::ReplayContext& ctx, replay::LocalResult& result,
                   const std::function<void()>& payloadsRead = {}, const std::function<void()>& eventsRead = {});

}  // namespace waitscope::causes
