#pragma once
// A small report with hand-computable values, shared by the view tests.
//
// metrics: time > mpi > latesender; visits        call tree: main > MPI_Recv
// system:  machine > node A (ranks 0, 1), node B (rank 2)            main > foo > MPI_Recv
//
// exclusive severities (rank 0, 1, 2):
//   time       main [1 1 1]   foo [2 0 1]
//   mpi        main/MPI_Recv [0.5 0.5 0]   main/foo/MPI_Recv [0 1 0]
//   latesender main/MPI_Recv [0.25 0 0]    main/foo/MPI_Recv [0 0.5 0]
//   visits     main [1 1 1]   main/MPI_Recv [2 2 2]
// so time = 8.75 inclusive (6 exclusive), mpi = 2.75 (2 exclusive), latesender = 0.75, visits = 9.
#include "analysis/report/report.h"

namespace waitscope::test {

enum SampleMetric : std::uint32_t { kTime = 0, kMpi = 1, kLateSender = 2, kVisits = 3 };
enum SampleCallPath : std::uint32_t { kMain = 0, kMainRecv = 1, kFoo = 2, kFooRecv = 3 };
enum SampleSystemNode : std::uint32_t { kMachine = 0, kNodeA = 1, kNodeB = 2, kRank0 = 3, kRank1 = 4, kRank2 = 5 };

inline report::Report sampleReport() {
  using report::kNoId;
  report::Report r;
  r.meta = {{"format_version", "1"}, {"complete", "1"}};
  r.metrics = {{"time", "Time", "Total time", report::MetricUnit::Seconds, kNoId},
               {"mpi", "MPI", "Time in MPI", report::MetricUnit::Seconds, 0},
               {"mpi_latesender", "Late Sender", "Waiting for a late sender", report::MetricUnit::Seconds, 1},
               {"visits", "Visits", "Number of visits", report::MetricUnit::Occurrences, kNoId}};
  r.regions = {{"main", "app.c", 10, 40, "user"}, {"MPI_Recv", "", 0, 0, "mpi"}, {"foo", "app.c", 50, 60, "user"}};
  r.callPaths = {{kNoId, 0, "", 0}, {0, 1, "app.c", 20}, {0, 2, "app.c", 30}, {2, 1, "app.c", 55}};
  r.systemNodes = {{"cluster", "machine", kNoId}, {"node A", "node", 0}, {"node B", "node", 0}};
  r.locations = {{"MPI Rank 0", 0, 1}, {"MPI Rank 1", 1, 1}, {"MPI Rank 2", 2, 2}};
  r.severities = {{kTime, kMain, {1, 1, 1}},          {kTime, kFoo, {2, 0, 1}},
                  {kMpi, kMainRecv, {0.5, 0.5, 0}},   {kMpi, kFooRecv, {0, 1, 0}},
                  {kLateSender, kMainRecv, {0.25, 0, 0}}, {kLateSender, kFooRecv, {0, 0.5, 0}},
                  {kVisits, kMain, {1, 1, 1}},        {kVisits, kMainRecv, {2, 2, 2}}};
  return r;
}

}  // namespace waitscope::test
