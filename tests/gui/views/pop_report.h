#pragma once
// Reports whose POP efficiencies are known by construction, shared by the
// assessment and scaling-series tests. Per rank p, exclusive severities:
//   comp at main = useful[p]; mpi_point2point at main/MPI_Recv = transfer[p] and
//   mpi_latesender there = lateSender[p]; mpi_rma_sync_active at main/MPI_Win_fence =
//   sync[p] and mpi_rma_wait_at_fence there = fence[p].
// So T_p = useful + transfer + lateSender + sync + fence and W_p = lateSender + fence.
// withComp = false leaves out "comp" (a report the POP metrics cannot use).
#include <vector>

#include "analysis/report/report.h"

namespace waitscope::test {

enum PopMetric : std::uint32_t {
  kPopTime, kPopExecution, kPopComp, kPopMpi, kPopCommunication, kPopPoint2Point, kPopLateSender,
  kPopSynchronization, kPopRmaSynchronization, kPopRmaActive, kPopWaitAtFence, kPopVisits
};

struct PopRanks {
  std::vector<double> useful, transfer, lateSender, sync, fence;
};

inline report::Report popReport(const PopRanks& ranks, bool withComp = true) {
  using report::kNoId;
  using report::MetricUnit;
  report::Report r;
  r.meta = {{"format_version", "1"}, {"complete", "1"}};
  r.metrics = {{"time", "Time", "", MetricUnit::Seconds, kNoId},
               {"execution", "Execution", "", MetricUnit::Seconds, kPopTime},
               {withComp ? "comp" : "user_code", "Computation", "", MetricUnit::Seconds, kPopExecution},
               {"mpi", "MPI", "", MetricUnit::Seconds, kPopExecution},
               {"mpi_communication", "Communication", "", MetricUnit::Seconds, kPopMpi},
               {"mpi_point2point", "Point-to-point", "", MetricUnit::Seconds, kPopCommunication},
               {"mpi_latesender", "Late Sender", "", MetricUnit::Seconds, kPopPoint2Point},
               {"mpi_synchronization", "Synchronization", "", MetricUnit::Seconds, kPopMpi},
               {"mpi_rma_synchronization", "RMA Synchronization", "", MetricUnit::Seconds, kPopSynchronization},
               {"mpi_rma_sync_active", "Active Target", "", MetricUnit::Seconds, kPopRmaSynchronization},
               {"mpi_rma_wait_at_fence", "Wait at Fence", "", MetricUnit::Seconds, kPopRmaActive},
               {"visits", "Visits", "", MetricUnit::Occurrences, kNoId}};
  r.regions = {{"main", "app.c", 1, 50, "user"}, {"MPI_Recv", "", 0, 0, "mpi"}, {"MPI_Win_fence", "", 0, 0, "mpi"}};
  r.callPaths = {{kNoId, 0, "", 0}, {0, 1, "app.c", 10}, {0, 2, "app.c", 20}};
  r.systemNodes = {{"cluster", "machine", kNoId}, {"node", "node", 0}};
  const std::size_t n = ranks.useful.size();
  for (std::size_t p = 0; p < n; ++p)
    r.locations.push_back({"MPI Rank " + std::to_string(p), static_cast<std::uint32_t>(p), 1});
  r.severities = {{kPopComp, 0, ranks.useful},        {kPopPoint2Point, 1, ranks.transfer},
                  {kPopLateSender, 1, ranks.lateSender}, {kPopRmaActive, 2, ranks.sync},
                  {kPopWaitAtFence, 2, ranks.fence},   {kPopVisits, 0, std::vector<double>(n, 1.0)}};
  return r;
}

// Four ranks: useful [8 10 6 8], T_p = 12.5 each, waits [2 0.5 4 2] (Late Sender 5 s in all,
// Wait at Fence 3.5 s). LB = 8/10, CommE = 10/12.5, T_ideal = 12, SerE = 10/12, TrE = 12/12.5.
inline PopRanks fourRanks() {
  return {{8, 10, 6, 8}, {1, 1, 1, 1}, {1.5, 0, 3, 0.5}, {1.5, 1, 1.5, 1.5}, {0.5, 0.5, 1, 1.5}};
}

// Two ranks: useful [12 12] (sum 24), T_p = 13, waits [0.5 0.5].
inline PopRanks twoRanks() { return {{12, 12}, {0.25, 0.25}, {0, 0}, {0.25, 0.25}, {0.5, 0.5}}; }

// Eight ranks: useful 3.5 each (sum 28), T_p = 5, waits 0.75 each.
inline PopRanks eightRanks() {
  const std::vector<double> v(8, 0.0);
  PopRanks r{v, v, v, v, v};
  for (std::size_t p = 0; p < 8; ++p) r.useful[p] = 3.5, r.transfer[p] = 0.5, r.lateSender[p] = 0.5,
                                       r.sync[p] = 0.25, r.fence[p] = 0.25;
  return r;
}

}  // namespace waitscope::test
