#pragma once
// Root causes of wait states (Hermanns, Miklosch, Böhme, Wolf, EuroMPI 2013): after the forward pattern search, a
// backward replay on the same ranks classifies every wait state (direct or
// indirect, propagating or terminal), charges delay costs to the call paths
// that caused it, and finds the critical path.
#include "analysis/replay/local_result.h"
#include "analysis/replay/replay_context.h"

namespace waitscope::causes {

// Collective over ctx.comms.world(). Reads the wait-state instances the forward
// replay left in result.severities; adds the delay_*, mpi_wait_* metrics.
void analyzeDelays(replay::ReplayContext& ctx, replay::LocalResult& result);

// Collective over ctx.comms.world(). Adds critical_path and
// critical_path_imbalance, and this location's pieces of the path to result.
void analyzeCriticalPath(replay::ReplayContext& ctx, replay::LocalResult& result);

}  // namespace waitscope::causes
