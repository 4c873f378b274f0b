#pragma once
// Metrics every location computes from its own events, with no exchange: time
// per category of the metric tree (computation, and MPI by kind of call),
// visits, and the counts and bytes of synchronizations and communications.
#include <string_view>
#include <vector>

#include "analysis/metrics/metric_table.h"
#include "analysis/replay/replay_context.h"

namespace waitscope::patterns {

// The time category of a region: Comp for non-MPI code, else the MPI category
// its function belongs to (MpiPoint2Point for MPI_Recv, MpiRmaSyncActive for
// MPI_Win_fence, ...; Mpi for calls that fit no category).
metrics::Metric timeCategory(const trace::Region& region);

class TimeMetrics {
 public:
  explicit TimeMetrics(replay::ReplayContext& ctx) : ctx_(ctx) {}

  // Nothing to validate or exchange: every location reads only its own events.

  // Local: adds exclusive time per category, visits, syncs, comms and bytes. Returns,
  // per call path, the time it is the innermost active region summed stretch by
  // stretch between consecutive enter/leave events (the same time, added in the
  // order the critical path's imbalance needs it; 0 for paths never active).
  std::vector<double> detect();

 private:
  replay::ReplayContext& ctx_;
};

}  // namespace waitscope::patterns
