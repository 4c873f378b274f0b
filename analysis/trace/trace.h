#pragma once
// A loaded trace: definitions, call tree and the events of the locations this
// process loaded (all MPI locations in serial mode, its own in parallel mode).
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/trace/call_tree.h"
#include "analysis/trace/definitions.h"
#include "analysis/trace/events.h"
#include "analysis/trace/shared_definitions.h"

namespace waitscope::trace {

struct Trace {
  std::string anchorPath;
  SharedDefinitions defs;  // shared only with the other ranks of one read (readTraceRanksEach)
  CallTree callTree;
  std::vector<LocationEvents> locations;  // loaded locations, in world-rank order
  // The other locations of the loaded ranks' processes (OpenMP and POSIX threads, accelerator
  // streams, metric locations), by process rank, then in definition order. Never replayed for
  // wait states: they get the time metrics only, and the timeline shows them.
  std::vector<LocationEvents> threadLocations;
  // Parallel to `locations`: each rank's RMA records on windows of other paradigms (Score-P's
  // CUDA and Xeon Phi memory copies written on the host thread), kept out of the replay; the
  // timeline draws them as transfers.
  std::vector<LocationEvents> otherParadigmRecords;
  std::uint64_t ignoredEvents = 0;        // records of kinds the model does not keep (metrics, OpenMP, ...)
  std::vector<std::string> warnings;      // one line each, already shown to the user
  // Non-empty for the trace of a run that ended abnormally (its events stop mid-run): why,
  // from the anchor's WAITSCOPE::INCOMPLETE property (libwaitscope-measure, docs/recording.md).
  std::string incomplete;

  // Events per kind, summed over the loaded locations.
  std::array<std::uint64_t, kEventKindCount> countByKind() const;
  std::uint64_t eventCount() const;
  std::size_t memoryBytes() const;
};

}  // namespace waitscope::trace
