#include "tests/unit/timeline/time_window_scenario.h"

#include <vector>

#include "tests/unit/timeline/timeline_scenarios.h"

namespace waitscope::test {

report::Report timeWindowReport(const trace::Trace& trace) {
  report::Report r = reportSkeleton(trace);
  using U = report::MetricUnit;
  const auto none = report::kNoId;
  r.metrics = {{"time", "Time", "", U::Seconds, none},
               {"execution", "Execution", "", U::Seconds, kTwTime},
               {"comp", "Computation", "", U::Seconds, kTwExecution},
               {"mpi", "MPI", "", U::Seconds, kTwExecution},
               {"mpi_communication", "Communication", "", U::Seconds, kTwMpi},
               {"mpi_point2point", "Point-to-point", "", U::Seconds, kTwComm},
               {"mpi_latesender", "Late Sender", "", U::Seconds, kTwP2p},
               {"visits", "Visits", "", U::Occurrences, none},
               {"bytes", "Bytes", "", U::Bytes, none},
               {"critical_path", "Critical Path", "", U::Seconds, none},
               {"critical_path_imbalance", "Imbalance", "", U::Seconds, kTwPath}};
  const std::uint32_t main = callPathOf(r, "main"), foo = callPathOf(r, "main/foo"), bar = callPathOf(r, "main/bar");
  const std::uint32_t send = callPathOf(r, "main/MPI_Send"), recv = callPathOf(r, "main/MPI_Recv");
  const auto row = [&](std::uint32_t metric, std::uint32_t callPath, std::vector<double> values) {
    r.severities.push_back({metric, callPath, std::move(values)});
  };
  const double ls = 1.0 / 128;
  row(kTwComp, main, {5.625, 7.875});
  row(kTwComp, foo, {1, 0});
  row(kTwComp, bar, {1, 0});
  row(kTwP2p, send, {0.375, 0});
  row(kTwP2p, recv, {0, 0.125 - ls});
  row(kTwLateSender, recv, {0, ls});
  row(kTwVisits, main, {1, 1});
  row(kTwVisits, foo, {1, 0});
  row(kTwVisits, bar, {1, 0});
  row(kTwVisits, send, {8, 0});
  row(kTwVisits, recv, {0, 8});
  row(kTwBytes, send, {8192, 0});
  row(kTwBytes, recv, {0, 8192});
  // On the path: rank 0 main 2.625, foo 1, MPI_Send 0.375, bar 0.5; rank 1 main 3.5. Imbalance
  // over 2 locations: foo 1 - 1/2, MPI_Send 0.375 - 0.375/2; main and bar none.
  row(kTwPath, main, {2.625, 3.5});
  row(kTwPath, foo, {0.5, 0});
  row(kTwPath, send, {0.1875, 0});
  row(kTwPath, bar, {0.5, 0});
  row(kTwImbalance, foo, {0.5, 0});
  row(kTwImbalance, send, {0.1875, 0});
  r.instances.push_back({kTwLateSender, 1, recv, 2.0 + 1.0 / 64, 2.0 + 1.0 / 64 + ls, 0});
  r.criticalPath = {{0, bar, 0.0, 4.5}, {1, main, 4.5, 8.0}};
  return r;
}

}  // namespace waitscope::test
