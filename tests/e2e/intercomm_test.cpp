// End to end: tests/apps/intercomm (MPI_Intercomm_create, point-to-point over the inter-communicator,
// a barrier on it, MPI_Intercomm_merge, collectives on the merged communicator, MPI_Comm_idup) is
// recorded with waitscope-run and analyzed with `mpiexec -n 4 waitscope-analyze`, and checked:
//
// 1. The recording: no warning about calls the trace could not hold, and the definitions are an
//    OTF2 InterComm with both halves plus the merged and the idup'ed intra-communicators.
// 2. Exactly, against the same trace: Late Sender, Late Receiver, Wait at Barrier and Wait at NxN
//    as RecordedWaits evaluates them on the enter and leave times the program had (the peer of a
//    message on the inter-communicator is a rank of the other half), at every rank, MPI call and
//    call site; the barrier on the inter-communicator is not analyzed (0, and the analysis says so).
// 3. By design (intercomm.expected.md), what load cannot change: the constructed waits are there.
//
// Every check prints what it compared (ctest --output-on-failure, or run the executable).
#include <gtest/gtest.h>

#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <tuple>

#include "analysis/report/report.h"
#include "analysis/report/report_io.h"
#include "analysis/report/report_queries.h"
#include "tests/e2e/recorded_waits.h"
#include "tests/support/test_support.h"

namespace fs = std::filesystem;
using namespace waitscope;

namespace {

constexpr int kRanks = 4;

// The line of intercomm.c that contains `snippet` (the first one).
std::uint32_t sourceLine(const std::string& snippet) {
  std::ifstream in(std::string(WAITSCOPE_SOURCE_DIR) + "/tests/apps/intercomm.c");
  std::uint32_t number = 1;
  for (std::string line; std::getline(in, line); ++number)
    if (line.find(snippet) != std::string::npos) return number;
  ADD_FAILURE() << "intercomm.c has no line with " << snippet;
  return 0;
}

// Rank, MPI call, call-site line.
using Place = std::tuple<int, std::string, std::uint32_t>;

class InterComm : public ::testing::Test {
 protected:
  static std::unique_ptr<test::TempDir> dir;
  static std::string anchor, recordErr, analyzeErr, problem;
  static report::Report rep;
  static std::unique_ptr<test::RecordedWaits> trace;

  static void SetUpTestSuite() {
    dir = std::make_unique<test::TempDir>("waitscope-intercomm");
    const fs::path out = *dir / "trace";
    anchor = (out / "traces.otf2").string();
    const std::string reportPath = (*dir / "intercomm.waitscope").string();
    const auto recorded = test::run("timeout 120 " + test::tool("waitscope-run") + " -n " + std::to_string(kRanks) +
                                    " -o " + out.string() + " -- " + WAITSCOPE_APPS_DIR + "/intercomm 3 0.020");
    recordErr = recorded.err;
    if (recorded.exitCode != 0) {
      problem = "recording failed: " + recorded.err + recorded.out;
      return;
    }
    const auto analyzed = test::run("OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout 120 " +
                                    std::string(WAITSCOPE_MPIEXEC) + " -n " + std::to_string(kRanks) +
                                    " " + test::tool("waitscope-analyze") + " --quiet " + anchor + " -o " + reportPath);
    analyzeErr = analyzed.err;
    if (analyzed.exitCode != 0) {
      problem = "analysis failed: " + analyzed.err + analyzed.out;
      return;
    }
    try {
      rep = report::readReport(reportPath);
      trace = std::make_unique<test::RecordedWaits>(anchor);
    } catch (const std::exception& e) {
      problem = e.what();
    }
  }
  static void TearDownTestSuite() {
    trace.reset();
    dir.reset();
  }
  void SetUp() override { ASSERT_TRUE(problem.empty()) << problem; }
};
std::unique_ptr<test::TempDir> InterComm::dir;
std::string InterComm::anchor, InterComm::recordErr, InterComm::analyzeErr, InterComm::problem;
report::Report InterComm::rep;
std::unique_ptr<test::RecordedWaits> InterComm::trace;

// The report's value of `metric` per place (metric-inclusive, call-path exclusive), non-zero ones.
std::map<Place, double> reportPlaces(const report::Report& r, const std::string& metric) {
  std::map<Place, double> out;
  const std::uint32_t m = r.findMetric(metric);
  EXPECT_NE(m, report::kNoId) << metric;
  if (m == report::kNoId) return out;
  for (std::uint32_t c = 0; c < r.callPaths.size(); ++c) {
    const std::vector<double> values = report::valuesByLocation(r, m, c);
    for (std::size_t l = 0; l < values.size(); ++l)
      if (values[l] != 0.0)
        out[{static_cast<int>(r.locations[l].rank), r.regions[r.callPaths[c].region].name, r.callPaths[c].callSiteLine}] +=
            values[l];
  }
  return out;
}

TEST_F(InterComm, RecordsEveryCallAndDefinesTheInterCommunicator) {
  EXPECT_EQ(recordErr.find("waitscope: warning"), std::string::npos) << recordErr;
  const auto defs = test::run("otf2-print -G " + anchor);
  ASSERT_EQ(defs.exitCode, 0) << defs.err;
  EXPECT_NE(defs.out.find("INTER_COMM"), std::string::npos) << defs.out;
  for (const char* name : {"\"MPI_Intercomm_create\"", "\"MPI_Intercomm_merge\"", "\"MPI_Comm_idup\""})
    EXPECT_NE(defs.out.find(name), std::string::npos) << name;
  EXPECT_NE(analyzeErr.find("1 inter-communicator: messages over inter-communicators are analyzed, collective "
                            "operations on them are not"),
            std::string::npos)
      << analyzeErr;
}

// Every value of the MPI-1 patterns in the report equals what the trace says, and the other way round.
TEST_F(InterComm, WaitStatesMatchTheRecordedTrace) {
  for (const char* metric : {"mpi_latesender", "mpi_latereceiver", "mpi_barrier_wait", "mpi_wait_nxn"}) {
    std::map<Place, std::pair<double, std::size_t>> expected;
    for (const auto& cell : trace->cells(metric)) {
      auto& e = expected[{cell.rank, cell.path.substr(cell.path.rfind('/') + 1), cell.line}];
      e.first += cell.seconds;
      e.second += trace->calls(metric, cell.rank, cell.path);
    }
    const std::map<Place, double> got = reportPlaces(rep, metric);
    for (const auto& [place, value] : got) expected.try_emplace(place);
    for (const auto& [place, want] : expected) {
      const auto& [rank, call, line] = place;
      const auto at = got.find(place);
      const double v = at == got.end() ? 0.0 : at->second;
      std::printf("rank %d %-18s %-14s line %3u: report %.9f, trace %.9f\n", rank, metric, call.c_str(), line, v,
                  want.first);
      EXPECT_NEAR(v, want.first, 1e-9 * static_cast<double>(want.second + 1))
          << "rank " << rank << " " << metric << " at " << call << ":" << line;
    }
  }
}

// The constructed waits are where intercomm.expected.md puts them.
TEST_F(InterComm, ConstructedWaitsAreThere) {
  const auto at = [](const std::string& metric, int rank, const std::string& call, std::uint32_t line) {
    const auto places = reportPlaces(rep, metric);
    const auto it = places.find({rank, call, line});
    return it == places.end() ? 0.0 : it->second;
  };
  const std::uint32_t ping = sourceLine("MPI_Recv(&a, 1, MPI_INT, peer, 1, inter");
  const std::uint32_t ssend = sourceLine("MPI_Ssend(&b, 1, MPI_INT, peer, 3, inter)");
  const std::uint32_t waitall = sourceLine("MPI_Waitall(2, requests");
  const std::uint32_t interBarrier = sourceLine("MPI_Barrier(inter)");
  const std::uint32_t mergedBarrier = sourceLine("MPI_Barrier(merged)");
  const std::uint32_t idupRecv = sourceLine("MPI_Recv(&got, 1, MPI_INT, 0, 9, copy");
  for (int rank : {2, 3}) {  // the high half
    EXPECT_GT(at("mpi_latesender", rank, "MPI_Recv", ping), 0.0) << rank;
    EXPECT_GT(at("mpi_latereceiver", rank, "MPI_Ssend", ssend), 0.0) << rank;
    EXPECT_GT(at("mpi_latesender", rank, "MPI_Waitall", waitall), 0.0) << rank;
  }
  for (int rank = 0; rank < kRanks; ++rank) {
    EXPECT_EQ(at("mpi_barrier_wait", rank, "MPI_Barrier", interBarrier), 0.0) << rank;  // not analyzed
    EXPECT_EQ(trace->value("mpi_barrier_wait", rank, "main/MPI_Barrier", interBarrier), 0.0) << rank;
  }
  // Every rank but the last to enter waits at the merged barrier. barrier_work(r * d) makes the
  // last rank that one, but d is 10 ms, which a loaded machine can outweigh (rank 2 once entered
  // after rank 3 under stress-ng): count the ranks, whichever came last.
  int waiting = 0;
  for (int rank = 0; rank < kRanks; ++rank) waiting += at("mpi_barrier_wait", rank, "MPI_Barrier", mergedBarrier) > 0.0;
  EXPECT_GE(waiting, kRanks - 1);
  EXPECT_GT(at("mpi_latesender", kRanks - 1, "MPI_Recv", idupRecv), 0.0);
}

}  // namespace
