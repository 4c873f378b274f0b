// End to end: one RMA program in three synchronizations, as a user tunes it (tests/apps/rma_variants
// with --sync fence, mixed and gats; Hermanns et al., IJHPCA 2012, Table 2). Each variant is recorded
// with waitscope-run and analyzed with `mpiexec -n 4 waitscope-analyze`, and checked three ways:
//
// 1. Exactly, against its own trace: Wait at Fence (RecordedWaits) and Late Post, Early Wait and Late
//    Complete (RecordedGatsWaits) on every rank, MPI call and call site, computed from the enter and
//    leave times the program had, so the checks hold however busy the machine was.
// 2. By design (rma_variants.expected.md), only what load cannot change: a pattern whose calls a
//    variant does not make is exactly 0, the waits the imbalance builds are there, and the pairwise
//    synchronization counts are exact.
// 3. The comparison of the runs: `waitscope-report diff A B --json` gives, for every metric, A's and
//    B's totals as the two reports themselves have them and B-A; from fences to GATS, Wait at Fence
//    goes down and Late Post and Early Wait go up. `waitscope-report pop` tabulates the three runs.
//
// Every check prints what it compared (ctest --output-on-failure, or run the executable).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "analysis/report/report.h"
#include "analysis/report/report_io.h"
#include "analysis/report/report_queries.h"
#include "tests/e2e/recorded_gats_waits.h"
#include "tests/e2e/recorded_waits.h"
#include "tests/support/test_support.h"
#include "tests/unit/report/json_value.h"

namespace fs = std::filesystem;
using namespace waitscope;

namespace {

constexpr int kRanks = 4;
constexpr int kIters = 8;
const std::string kArgs = std::to_string(kIters) + " 0.020";

// Under Open MPI's osc pt2pt (ctest e2e_rma_variants_osc_pt2pt) MPI_Win_start returns at once and
// MPI_Win_complete waits for the posts: the Late Post is there, and the targets' MPI_Win_wait gets
// the completes right after their own post, so the design has no Early Wait.
bool completeWaitsForPost() {
  const char* osc = std::getenv("OMPI_MCA_osc");
  return osc && std::string(osc) == "pt2pt";
}

// One variant, recorded and analyzed.
struct Variant {
  std::string sync;
  std::string reportPath;
  report::Report rep;
  std::unique_ptr<test::RecordedWaits> fences;
  std::unique_ptr<test::RecordedGatsWaits> gats;
  std::string problem;  // why the run cannot be checked; empty when it can
};

// Where a value is: rank, the MPI call the report attributes it to, and that call's source line.
using Place = std::tuple<int, std::string, std::uint32_t>;

// The line of rma_variants.c that contains `snippet` (the first one).
std::uint32_t sourceLine(const std::string& snippet) {
  std::ifstream in(std::string(WAITSCOPE_SOURCE_DIR) + "/tests/apps/rma_variants.c");
  std::uint32_t number = 1;
  for (std::string line; std::getline(in, line); ++number)
    if (line.find(snippet) != std::string::npos) return number;
  return 0;
}

class RmaVariants : public ::testing::Test {
 protected:
  static std::unique_ptr<test::TempDir> dir;
  static std::map<std::string, Variant> runs;

  static void SetUpTestSuite() {
    dir = std::make_unique<test::TempDir>("waitscope-rma-variants");
    for (const std::string& sync : {std::string("fence"), std::string("mixed"), std::string("gats")}) {
      Variant& r = runs[sync];
      r.sync = sync;
      const fs::path out = *dir / sync;
      const std::string anchor = (out / "traces.otf2").string();
      r.reportPath = (*dir / (sync + ".waitscope")).string();
      const auto recorded = test::run("timeout 120 " + test::tool("waitscope-run") + " -n " + std::to_string(kRanks) +
                                      " -o " + out.string() + " -- " + WAITSCOPE_APPS_DIR + "/rma_variants " + kArgs +
                                      " --sync " + sync);
      if (recorded.exitCode != 0) {
        r.problem = "recording failed: " + recorded.err + recorded.out;
        continue;
      }
      const auto analyzed = test::run("OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout 120 " +
                                      std::string(WAITSCOPE_MPIEXEC) + " -n " + std::to_string(kRanks) +
                                      " " + test::tool("waitscope-analyze") + " --quiet " + anchor + " -o " + r.reportPath);
      if (analyzed.exitCode != 0) {
        r.problem = "analysis failed: " + analyzed.err + analyzed.out;
        continue;
      }
      try {
        r.rep = report::readReport(r.reportPath);
        r.fences = std::make_unique<test::RecordedWaits>(anchor);
        r.gats = std::make_unique<test::RecordedGatsWaits>(anchor);
      } catch (const std::exception& e) {
        r.problem = e.what();
      }
    }
  }
  static void TearDownTestSuite() {
    runs.clear();
    dir.reset();
  }

  static const Variant& get(const std::string& sync) {
    const Variant& r = runs.at(sync);
    if (!r.problem.empty()) ADD_FAILURE() << sync << ": " << r.problem;
    return r;
  }
};
std::unique_ptr<test::TempDir> RmaVariants::dir;
std::map<std::string, Variant> RmaVariants::runs;

std::uint32_t metricId(const report::Report& rep, const std::string& metric) {
  const std::uint32_t m = rep.findMetric(metric);
  if (m == report::kNoId) ADD_FAILURE() << "the report has no metric " << metric;
  return m;
}

// The report's value of `metric` per place (metric-inclusive, call-path exclusive), non-zero ones.
std::map<Place, double> reportPlaces(const report::Report& rep, const std::string& metric) {
  std::map<Place, double> out;
  const std::uint32_t m = metricId(rep, metric);
  if (m == report::kNoId) return out;
  for (std::uint32_t c = 0; c < rep.callPaths.size(); ++c) {
    const std::vector<double> values = report::valuesByLocation(rep, m, c);
    for (std::size_t l = 0; l < values.size(); ++l)
      if (values[l] != 0.0)
        out[{static_cast<int>(rep.locations[l].rank), rep.regions[rep.callPaths[c].region].name,
             rep.callPaths[c].callSiteLine}] += values[l];
  }
  return out;
}

// The report's value of `metric` on `rank`, at call `region` (empty: every call) and `line` (0: any).
double reportValue(const report::Report& rep, const std::string& metric, int rank, const std::string& region = "",
                   std::uint32_t line = 0) {
  double sum = 0.0;
  for (const auto& [place, value] : reportPlaces(rep, metric)) {
    const auto& [r, call, l] = place;
    if (r == rank && (region.empty() || call == region) && (line == 0 || l == line)) sum += value;
  }
  return sum;
}

double reportTotal(const report::Report& rep, const std::string& metric) {
  const std::uint32_t m = metricId(rep, metric);
  return m == report::kNoId ? std::nan("") : report::metricTotals(rep)[m];
}

// What the trace says at each place: seconds and the number of calls that took part.
struct Expected {
  double seconds = 0.0;
  std::size_t calls = 0;
};

// The report agrees with the trace at every place either of them has a value. Wait at Fence is
// max(synchronizing wait, Early Fence) per fence (docs/patterns/rma_active.md), so it lies between
// the trace's synchronizing wait and that plus the report's Early Fence.
void matchesTrace(const Variant& r, const std::string& metric, std::map<Place, Expected> expected) {
  const std::map<Place, double> got = reportPlaces(r.rep, metric);
  const std::map<Place, double> earlyFence =
      metric == "mpi_rma_wait_at_fence" ? reportPlaces(r.rep, "mpi_rma_early_fence") : std::map<Place, double>{};
  for (const auto& [place, value] : got) expected.try_emplace(place);
  for (const auto& [place, want] : expected) {
    const auto& [rank, call, line] = place;
    const auto at = got.find(place);
    const double v = at == got.end() ? 0.0 : at->second;
    const auto early = earlyFence.find(place);
    const double slack = early == earlyFence.end() ? 0.0 : early->second;
    // Times are seconds converted from ticks on both sides: a few ns per call for rounding.
    const double tol = 1e-9 * static_cast<double>(want.calls + 1);
    std::printf("[%s] rank %d %-24s %-16s line %3u: report %.9f, trace %.9f\n", r.sync.c_str(), rank, metric.c_str(),
                call.c_str(), line, v, want.seconds);
    EXPECT_TRUE(v >= want.seconds - tol && v <= want.seconds + slack + tol)
        << r.sync << ": rank " << rank << " " << metric << " at " << call << ":" << line << " is " << v
        << " s; the trace says " << want.seconds << " s" << (slack > 0.0 ? " (+ Early Fence)" : "");
  }
}

// Every GATS and fence wait of the report against what the run's trace says.
void matchesTrace(const Variant& r) {
  for (const std::string& metric : test::RecordedGatsWaits::metrics()) {
    std::map<Place, Expected> expected;
    for (const auto& cell : r.gats->cells(metric)) expected[{cell.rank, cell.region, cell.line}] = {cell.seconds, cell.calls};
    matchesTrace(r, metric, expected);
  }
  std::map<Place, Expected> fences;
  for (const auto& cell : r.fences->cells("mpi_rma_wait_at_fence")) {
    Expected& e = fences[{cell.rank, cell.path.substr(cell.path.rfind('/') + 1), cell.line}];
    e.seconds += cell.seconds;
    e.calls += r.fences->calls("mpi_rma_wait_at_fence", cell.rank, cell.path);
  }
  matchesTrace(r, "mpi_rma_wait_at_fence", fences);
}

// Pairwise synchronizations per rank, exactly (rma_variants.expected.md).
void pairSyncs(const Variant& r, double all, double unneeded) {
  for (int rank = 0; rank < kRanks; ++rank) {
    EXPECT_EQ(reportValue(r.rep, "rma_epoch_pairsync_count", rank), all) << r.sync << ": rank " << rank;
    EXPECT_EQ(reportValue(r.rep, "rma_epoch_pairsync_unneeded_count", rank), unneeded) << r.sync << ": rank " << rank;
  }
}

// The fence that closes each exchange (the opening fences before the loop are on other lines).
std::uint32_t exchangeFenceLine() { return sourceLine("MPI_Win_fence(0, win))"); }

TEST_F(RmaVariants, FencesOnlyWaitAtFence) {
  const Variant& r = get("fence");
  ASSERT_TRUE(r.problem.empty());
  matchesTrace(r);
  ASSERT_NE(exchangeFenceLine(), 0u);
  // Every rank is early at one of the two exchanges each iteration: rank r waits (3-r)d at x, r*d at y.
  for (int rank = 0; rank < kRanks; ++rank) {
    const double v = reportValue(r.rep, "mpi_rma_wait_at_fence", rank, "MPI_Win_fence", exchangeFenceLine());
    std::printf("[fence] rank %d Wait at Fence in the exchanges %.4f s (> 0)\n", rank, v);
    EXPECT_GT(v, 0.0) << "rank " << rank;
  }
  EXPECT_EQ(reportTotal(r.rep, "mpi_rma_sync_late_post"), 0.0);
  EXPECT_EQ(reportTotal(r.rep, "mpi_rma_early_wait"), 0.0);
  pairSyncs(r, 2 * kIters * 3, 2 * kIters);
}

TEST_F(RmaVariants, MixedWaitsAtFenceOnlyInTheFenceExchange) {
  const Variant& r = get("mixed");
  ASSERT_TRUE(r.problem.empty());
  matchesTrace(r);
  // y (fences): rank 0 comes last, rank r waits r*d. x (GATS): rank 0 starts 3d before rank 3 posts,
  // rank 1 waits in MPI_Win_wait for rank 0, which completes only after that.
  for (int rank = 1; rank < kRanks; ++rank) {
    const double v = reportValue(r.rep, "mpi_rma_wait_at_fence", rank, "MPI_Win_fence", exchangeFenceLine());
    std::printf("[mixed] rank %d Wait at Fence in the y exchange %.4f s (> 0)\n", rank, v);
    EXPECT_GT(v, 0.0) << "rank " << rank;
  }
  const double latePost = reportValue(r.rep, "mpi_rma_sync_late_post", 0);
  std::printf("[mixed] rank 0 Late Post %.4f s (> 0), Early Wait over all ranks %.4f s (> 0)\n", latePost,
              reportTotal(r.rep, "mpi_rma_early_wait"));
  EXPECT_GT(latePost, 0.0);
  if (!completeWaitsForPost()) {
    EXPECT_GT(reportTotal(r.rep, "mpi_rma_early_wait"), 0.0);
  }
  pairSyncs(r, kIters * 3 + kIters * 2, kIters);
}

TEST_F(RmaVariants, GatsOnlyHasNoWaitAtFence) {
  const Variant& r = get("gats");
  ASSERT_TRUE(r.problem.empty());
  matchesTrace(r);
  EXPECT_EQ(reportTotal(r.rep, "mpi_rma_wait_at_fence"), 0.0) << "no fence is called";
  EXPECT_TRUE(r.fences->cells("mpi_rma_wait_at_fence").empty()) << "the trace has fences";
  const double latePost = reportTotal(r.rep, "mpi_rma_sync_late_post");
  const double earlyWait = reportTotal(r.rep, "mpi_rma_early_wait");
  std::printf("[gats] Late Post %.4f s (> 0), Early Wait %.4f s (> 0)\n", latePost, earlyWait);
  EXPECT_GT(latePost, 0.0);
  if (!completeWaitsForPost()) {
    EXPECT_GT(earlyWait, 0.0);
  }
  pairSyncs(r, 2 * kIters * 2, 0);
}

// `waitscope-report diff A B --json`: every metric's A and B are the reports' own totals, B-A their
// difference; returns B-A by metric.
std::map<std::string, double> diff(const Variant& a, const Variant& b) {
  const auto result =
      test::run(test::tool("waitscope-report") + " diff " + a.reportPath + " " + b.reportPath + " --json");
  EXPECT_EQ(result.exitCode, 0) << result.err;
  std::map<std::string, double> out;
  test::Json json;
  try {
    json = test::parseJson(result.out);
    for (const test::Json& m : json["metrics"].array) {
      const std::string name = m["name"].string;
      const double totalA = reportTotal(a.rep, name), totalB = reportTotal(b.rep, name);
      const double tol = 1e-9 * (1.0 + std::fabs(totalA) + std::fabs(totalB));
      EXPECT_NEAR(m["a"].number, totalA, tol) << name << " in " << a.reportPath;
      EXPECT_NEAR(m["b"].number, totalB, tol) << name << " in " << b.reportPath;
      EXPECT_NEAR(m["difference"].number, totalB - totalA, tol) << name;
      out[name] = m["difference"].number;
    }
  } catch (const std::exception& e) {
    ADD_FAILURE() << "diff --json: " << e.what() << "\n" << result.out;
  }
  EXPECT_EQ(out.size(), a.rep.metrics.size()) << "diff lists every metric of the runs once";
  for (const char* metric : {"mpi_rma_wait_at_fence", "mpi_rma_sync_late_post", "mpi_rma_early_wait"})
    std::printf("[diff %s %s] B-A %-24s %+.4f s\n", a.sync.c_str(), b.sync.c_str(), metric, out[metric]);
  return out;
}

// From fences to GATS the waits move out of MPI_Win_fence into MPI_Win_start and MPI_Win_wait.
TEST_F(RmaVariants, DiffShowsTheWaitsMoving) {
  const Variant& fence = get("fence");
  ASSERT_TRUE(fence.problem.empty());
  std::map<std::string, std::map<std::string, double>> fromFence;
  for (const char* sync : {"mixed", "gats"}) {
    const Variant& to = get(sync);
    ASSERT_TRUE(to.problem.empty());
    const std::map<std::string, double> d = fromFence[sync] = diff(fence, to);
    // The fence run makes no GATS call at all.
    EXPECT_GT(d.at("mpi_rma_sync_late_post"), 0.0) << sync;
    if (!completeWaitsForPost()) {
      EXPECT_GT(d.at("mpi_rma_early_wait"), 0.0) << sync;
    }
  }
  // gats calls no fence; how much the y exchange's fences of mixed wait is left to its trace.
  EXPECT_LT(fromFence["gats"]["mpi_rma_wait_at_fence"], 0.0);
}

TEST_F(RmaVariants, PopTablesTheThreeRuns) {
  std::vector<const Variant*> series = {&get("fence"), &get("mixed"), &get("gats")};
  std::string args;
  for (const Variant* r : series) {
    ASSERT_TRUE(r->problem.empty());
    args += " " + r->reportPath;
  }
  const auto json = test::run(test::tool("waitscope-report") + " pop" + args + " --json");
  ASSERT_EQ(json.exitCode, 0) << json.err;
  const test::Json pop = test::parseJson(json.out);
  const std::vector<test::Json>& rows = pop["runs"].array;
  ASSERT_EQ(rows.size(), series.size()) << json.out;
  for (std::size_t i = 0; i < rows.size(); ++i) EXPECT_EQ(rows[i]["processes"].number, kRanks) << json.out;
  const auto table = test::run(test::tool("waitscope-report") + " pop" + args);
  ASSERT_EQ(table.exitCode, 0) << table.err;
  std::printf("%s", table.out.c_str());
  EXPECT_NE(table.out.find("POP efficiency metrics"), std::string::npos) << table.out;
  for (const char* sync : {"fence", "mixed", "gats"})
    EXPECT_NE(table.out.find(std::string(sync) + ".waitscope"), std::string::npos) << table.out;
}

}  // namespace
