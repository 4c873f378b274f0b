#pragma once
// The time category of an MPI function: where its time goes in the metric tree
// (MPI_Recv: point-to-point, MPI_Win_fence: active-target synchronization, ...).
// Shared by the trace analysis and the wait-state profiler, so both reports put
// the same call into the same metric.
#include <string_view>

#include "analysis/metrics/metric_table.h"

namespace waitscope::metrics {

// The category of "MPI_Xxx"; Metric::Mpi for calls that fit no category (and
// for names without the "MPI_" prefix).
Metric mpiTimeCategory(std::string_view mpiFunctionName);

}  // namespace waitscope::metrics
