#pragma once
// A small hand-made report shared by the report tests. Values are binary
// fractions, so every sum is exact whatever the order of addition and tests can
// compare with ==. The totals the tests expect are worked out in the comments.
#include "analysis/report/report.h"

namespace waitscope::test {

// Metrics (exclusive totals over call paths and locations in brackets):
//   0 time [4.9990234375]                       inclusive 8.4365234375
//     1 mpi [1.125]                             inclusive 3.4375
//       2 mpi_synchronization [0.0625]          inclusive 1.1875
//         3 mpi_rma_sync_late_post [1.125]
//       4 mpi_latesender [1.0]                  inclusive 1.125
//         5 mpi_latesender_wo [0.125]
//   6 visits [39] (occ)   7 bytes [12288] (bytes)   8 critical_path [2.0]
// Call paths: 0 main, 1 main/foo (main.c:20), 2 main/foo/MPI_Recv (foo.c:12),
//   3 main/MPI_Win_start (main.c:30), 4 main/compute,phase (no call site; region
//   in compute.c:7), 5 main/MPI_Recv (no call site, region without file).
inline report::Report sampleReport() {
  using namespace report;
  Report r;
  r.meta = {{"format_version", "1"},
            {"trace", "/data/run 1/traces.otf2"},
            {"command_line", "waitscope-analyze \"a, b\"\ttab"},
            {"waitscope_version", "0.1.0"}};
  r.metrics = {
      {"time", "Time", "Total time.", MetricUnit::Seconds, kNoId},
      {"mpi", "MPI", "Time in MPI.", MetricUnit::Seconds, 0},
      {"mpi_synchronization", "Synchronization", "", MetricUnit::Seconds, 1},
      {"mpi_rma_sync_late_post", "Late Post", "Waiting in MPI_Win_start.", MetricUnit::Seconds, 2},
      {"mpi_latesender", "Late Sender", "Receiver waits.", MetricUnit::Seconds, 1},
      {"mpi_latesender_wo", "Late Sender, wrong order", "", MetricUnit::Seconds, 4},
      {"visits", "Visits", "", MetricUnit::Occurrences, kNoId},
      {"bytes", "Bytes", "", MetricUnit::Bytes, kNoId},
      {"critical_path", "Critical path", "", MetricUnit::Seconds, kNoId},
  };
  r.regions = {
      {"main", "main.c", 10, 50, "user"},
      {"foo", "foo.c", 5, 20, "user"},
      {"MPI_Recv", "", 0, 0, "mpi"},
      {"MPI_Win_start", "", 0, 0, "mpi"},
      {"compute,phase", "compute.c", 7, 9, "user"},
  };
  r.callPaths = {
      {kNoId, 0, "", 0}, {0, 1, "main.c", 20}, {1, 2, "foo.c", 12}, {0, 3, "main.c", 30}, {0, 4, "", 0}, {0, 2, "", 0},
  };
  r.systemNodes = {{"cluster", "machine", kNoId}, {"n01", "node", 0}};
  r.locations = {{"MPI Rank 0", 0, 1}, {"MPI Rank 1", 1, 1}, {"MPI Rank 2", 2, 1}};
  r.severities = {
      {0, 0, {1.0, 1.0, 1.0}},
      {0, 1, {0.5, 0.5, 0.5}},
      {0, 4, {0.0, -0.0009765625, 0.5}},  // clock skew can make a value slightly negative
      {1, 2, {0.25, 0.25, 0.25}},
      {4, 2, {0.0, 0.5, 0.25}},
      {5, 2, {0.0, 0.125, 0.0}},
      {4, 5, {0.25, 0.0, 0.0}},
      {1, 3, {0.125, 0.125, 0.125}},
      {3, 3, {0.75, 0.0, 0.25}},
      {3, 4, {0.0, 0.0, 0.125}},
      {2, 3, {0.0625, 0.0, 0.0}},
      {8, 1, {1.5, 0.0, 0.0}},
      {6, 0, {1.0, 1.0, 1.0}},
      {6, 2, {10.0, 12.0, 14.0}},
      {7, 2, {4096.0, 0.0, 8192.0}},
      {8, 3, {0.0, 0.0, 0.5}},
  };
  r.instances = {
      {4, 1, 2, 1.25, 1.75, 0},
      {3, 0, 3, 0.5, 1.25, 2},
      {5, 1, 2, 2.0, 2.125, kNoId},
  };
  // One segment per visit of the path to a location, named by the call path at
  // its end; critical_path holds the time per call path on it.
  r.criticalPath = {{0, 1, 0.0, 1.5}, {2, 3, 1.5, 2.0}};
  return r;
}

}  // namespace waitscope::test
