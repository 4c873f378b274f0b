#pragma once
// A report shaped like tests/apps/fence: main calls MPI_Win_fence on two lines of fence.c
// (42 and 50) and MPI_Barrier once; the fence at line 50 is the costly one.
//
// call paths: 0 main, 1 main/MPI_Win_fence (fence.c:42), 2 main/MPI_Win_fence (fence.c:50),
//             3 main/MPI_Barrier (fence.c:60)
// time (one rank): main 1, fence@42 0.25, fence@50 2, barrier 0.5
#include "analysis/report/report.h"

namespace waitscope::test {

enum FenceCallPath : std::uint32_t { kFenceMain = 0, kFence42 = 1, kFence50 = 2, kFenceBarrier = 3 };

inline report::Report fenceSitesReport() {
  using report::kNoId;
  report::Report r;
  r.meta = {{"format_version", "1"}, {"complete", "1"}};
  r.metrics = {{"time", "Time", "Total time", report::MetricUnit::Seconds, kNoId}};
  r.regions = {{"main", "/home/u/src/fence.c", 10, 70, "user"},
               {"MPI_Win_fence", "", 0, 0, "mpi"},
               {"MPI_Barrier", "", 0, 0, "mpi"}};
  r.callPaths = {{kNoId, 0, "", 0},
                 {kFenceMain, 1, "/home/u/src/fence.c", 42},
                 {kFenceMain, 1, "/home/u/src/fence.c", 50},
                 {kFenceMain, 2, "/home/u/src/fence.c", 60}};
  r.systemNodes = {{"cluster", "machine", kNoId}, {"node", "node", 0}};
  r.locations = {{"MPI Rank 0", 0, 1}};
  r.severities = {{0, kFenceMain, {1}}, {0, kFence42, {0.25}}, {0, kFence50, {2}}, {0, kFenceBarrier, {0.5}}};
  return r;
}

}  // namespace waitscope::test
