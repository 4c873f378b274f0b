// End to end: "record, analyze, check". Every example program of tests/apps is recorded with
// waitscope-run, analyzed with `mpiexec -n N waitscope-analyze` (one analysis rank per application
// rank), and the SQLite report is read back and checked twice:
//
// 1. Exactly, against the same trace: RecordedWaits evaluates the MPI-1 and fence rules on the
//    enter and leave times the program actually had, and every value of those metrics in the
//    report (per rank, call path and call site) must equal it to a few ns. These checks hold on
//    any machine, however busy: a descheduled rank changes the trace and the expected value alike.
// 2. By design, against tests/apps/<name>.expected.md, with only what load cannot break: each
//    constructed wait appears on the expected rank and call path (call site, where one call path
//    holds several) and holds most of its pattern there; patterns that cannot occur are exactly
//    zero; occurrence counts (pairwise synchronizations) are exact. The nominal seconds of the
//    expected.md files are not checked: on 2 oversubscribed cores, and more so on a loaded machine,
//    a busy-waiting program does not keep them.
//
// Metric values are metric-inclusive (Wait at Fence includes Early Fence, Late Sender includes
// Messages in Wrong Order) and call-path exclusive, as report_queries.h defines them. Call paths
// are written as in expected.md ("main/MPI_Recv"); when the programs are not compiled with
// -finstrument-functions (WAITSCOPE_APPS_INSTRUMENT=OFF, the default) main is no region and
// "MPI_Recv" is matched.
//
// waitscope-run passes no mpiexec options; the osc/pt2pt variant of gats selects the component with
// OMPI_MCA_osc=pt2pt in the environment, which mpiexec forwards to the processes.
//
// Every analysis prints its wait-state rows and every check what it compared (ctest
// --output-on-failure, or run the executable); WAITSCOPE_E2E_KEEP=DIR keeps the traces and reports.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <memory>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "analysis/report/report.h"
#include "analysis/report/report_io.h"
#include "analysis/report/report_queries.h"
#include "tests/e2e/recorded_waits.h"
#include "tests/support/report_invariants.h"
#include "tests/support/test_support.h"

namespace fs = std::filesystem;
using namespace waitscope;
using test::run;

namespace {

const std::string kRootEnv = "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1";

// `timeout 120 mpiexec -n RANKS`, runnable as root: nothing may hang the suite.
std::string mpiexec(int ranks) {
  return kRootEnv + " timeout 120 " + WAITSCOPE_MPIEXEC + " -n " + std::to_string(ranks);
}

// Lines of `err` that are not progress lines and not inside mpiexec's "-----" boxes.
std::vector<std::string> messageLines(const std::string& err) {
  std::vector<std::string> out;
  std::istringstream in(err);
  bool inBox = false;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("-----", 0) == 0) {
      inBox = !inBox;
      continue;
    }
    if (inBox || line.empty() || line.rfind("progress ", 0) == 0) continue;
    out.push_back(line);
  }
  return out;
}

// Where a value is read: metric, rank, call path ("main/MPI_Recv") and, optionally, the call site
// as a snippet of the program's source that occurs on exactly one line ("p1 MPI_Win_start").
struct Where {
  Where(std::string m, int r, std::string p = "", std::string s = "")
      : metric(std::move(m)), rank(r), path(std::move(p)), site(std::move(s)) {}
  std::string metric;
  int rank = 0;
  std::string path;  // empty: all call paths
  std::string site;  // empty: all call sites of the path
};

std::string describe(const Where& w) {
  std::string s = "rank " + std::to_string(w.rank) + " " + w.metric;
  if (!w.path.empty()) s += " at " + w.path;
  if (!w.site.empty()) s += " [" + w.site + "]";
  return s;
}

struct Analysis {
  std::string name;       // the key: program and variant
  std::string program;    // tests/apps program name
  test::CommandResult recorded;
  test::CommandResult analyzed;
  std::string anchor;
  std::string reportPath;
  report::Report rep;
  std::string readError;  // empty when the report was read
  std::string traceError; // empty when the trace was read
  std::map<int, std::uint32_t> locationOfRank;
  std::vector<std::string> paths;  // callPathString of every call path
  std::vector<std::string> source; // the program's source lines
  bool hasMain = false;            // main is a region (the program was compiled with -finstrument-functions)
  std::unique_ptr<test::RecordedWaits> traceSays;  // what the trace itself says about its waits

  bool ok() const { return recorded.exitCode == 0 && analyzed.exitCode == 0 && readError.empty() && traceSays; }

  std::string failure() const {
    if (recorded.exitCode != 0)
      return "recording failed (exit " + std::to_string(recorded.exitCode) + "): " + recorded.err + recorded.out;
    if (analyzed.exitCode != 0)
      return "analysis failed (exit " + std::to_string(analyzed.exitCode) + "): " + analyzed.err + analyzed.out;
    if (!readError.empty()) return "report unreadable: " + readError;
    return "trace unreadable: " + traceError;
  }

  // Source line (1-based) of the unique line containing `snippet`, or with "snippet#k" of the
  // k-th such line; 0 when there is no such line or the snippet is not unique.
  std::uint32_t siteLine(const std::string& site) const {
    std::string snippet = site;
    std::size_t nth = 0;
    if (const auto hash = site.rfind('#'); hash != std::string::npos) {
      snippet = site.substr(0, hash);
      nth = std::stoul(site.substr(hash + 1));
    }
    std::vector<std::uint32_t> lines;
    for (std::size_t i = 0; i < source.size(); ++i)
      if (source[i].find(snippet) != std::string::npos) lines.push_back(static_cast<std::uint32_t>(i + 1));
    if (nth == 0) return lines.size() == 1 ? lines[0] : 0;
    return nth <= lines.size() ? lines[nth - 1] : 0;
  }

  // The value at `w`; NaN (with a failure) when the metric, rank or call site is unknown. A call
  // path missing from the report has value 0 (all-zero rows are omitted).
  double value(const Where& w) const {
    const std::uint32_t m = rep.findMetric(w.metric);
    if (m == report::kNoId) {
      ADD_FAILURE() << name << ": the report has no metric " << w.metric;
      return std::nan("");
    }
    auto loc = locationOfRank.find(w.rank);
    if (loc == locationOfRank.end()) {
      ADD_FAILURE() << name << ": the report has no location for rank " << w.rank;
      return std::nan("");
    }
    std::uint32_t line = 0;
    if (!w.site.empty()) {
      line = siteLine(w.site);
      if (line == 0) {
        ADD_FAILURE() << name << ": '" << w.site << "' names no single line of " << program << ".c";
        return std::nan("");
      }
    }
    if (w.path.empty()) return report::valuesByLocation(rep, m)[loc->second];
    // Without -finstrument-functions (WAITSCOPE_APPS_INSTRUMENT=OFF) main is no region: the MPI
    // calls of main are roots.
    std::string path = w.path;
    if (!hasMain && path.rfind("main/", 0) == 0) path = path.substr(5);
    return valueAt(m, w.rank, path, line);
  }

  // The value of metric `m` on `rank` at the call path written `path` and call-site line `line`
  // (0: every call site).
  double valueAt(std::uint32_t m, int rank, const std::string& path, std::uint32_t line) const {
    auto loc = locationOfRank.find(rank);
    if (m == report::kNoId || loc == locationOfRank.end()) return 0.0;
    double sum = 0.0;
    for (std::uint32_t c = 0; c < rep.callPaths.size(); ++c)
      if (paths[c] == path && (line == 0 || rep.callPaths[c].callSiteLine == line))
        sum += report::valuesByLocation(rep, m, c)[loc->second];
    return sum;
  }

  // Printed before the checks: every wait-state row of the report (exclusive values per rank).
  void dump() const {
    static const char* const kWaitMetrics[] = {
        "mpi_finalize_wait", "mpi_rma_wait_at_create", "mpi_rma_wait_at_free", "mpi_barrier_wait",
        "mpi_rma_sync_late_post", "mpi_rma_early_wait", "mpi_rma_late_complete", "mpi_rma_wait_at_fence",
        "mpi_rma_early_fence", "mpi_rma_sync_lock_competition", "mpi_rma_sync_wait_for_progress",
        "mpi_latesender", "mpi_latesender_wo", "mpi_lswo_different", "mpi_lswo_same", "mpi_latereceiver",
        "mpi_earlyreduce", "mpi_earlyscan", "mpi_latebroadcast", "mpi_wait_nxn", "mpi_rma_early_transfer",
        "mpi_rma_comm_lock_competition", "mpi_rma_pairsync_count", "mpi_rma_pairsync_unneeded_count",
        "rma_epoch_pairsync_count", "rma_epoch_pairsync_unneeded_count"};
    std::printf("[%s] wait states in the report (exclusive; per rank 0..%zu):\n", name.c_str(),
                rep.locations.empty() ? std::size_t{0} : rep.locations.size() - 1);
    for (const char* metric : kWaitMetrics) {
      const std::uint32_t m = rep.findMetric(metric);
      if (m == report::kNoId) continue;
      for (const report::SeverityRow& row : rep.severities) {
        if (row.metric != m) continue;
        const report::CallPath& cp = rep.callPaths[row.callPath];
        std::printf("  %-32s %-28s line %4u:", metric, paths[row.callPath].c_str(), cp.callSiteLine);
        std::vector<double> byRank(rep.locations.size());
        for (std::size_t l = 0; l < rep.locations.size(); ++l)
          if (rep.locations[l].rank < byRank.size()) byRank[rep.locations[l].rank] = row.values[l];
        for (double v : byRank) std::printf(" %8.4f", v);
        std::printf("\n");
      }
    }
    std::fflush(stdout);
  }
};

class AnalyzeApps : public ::testing::Test {
 protected:
  static std::unique_ptr<test::TempDir> dir;
  static std::map<std::string, std::unique_ptr<Analysis>> cache;

  static void SetUpTestSuite() { dir = std::make_unique<test::TempDir>("waitscope-e2e"); }
  static void TearDownTestSuite() {
    cache.clear();
    dir.reset();
  }

  // Records `program args` with `ranks` ranks into a fresh directory, analyzes it and reads the
  // report; once per key. `env` is prepended to the recording command only.
  static const Analysis& analyze(const std::string& key, int ranks, const std::string& program,
                                 const std::string& args, const std::string& env = "") {
    auto it = cache.find(key);
    if (it != cache.end()) return *it->second;
    auto a = std::make_unique<Analysis>();
    a->name = key;
    a->program = program;
    const fs::path out = *dir / key;
    a->anchor = (out / "traces.otf2").string();
    a->reportPath = (*dir / (key + ".waitscope")).string();
    a->recorded = run(env + " timeout 120 " + test::tool("waitscope-run") + " -n " + std::to_string(ranks) + " -o " +
                      out.string() + " -- " + WAITSCOPE_APPS_DIR + "/" + program + " " + args);
    if (a->recorded.exitCode == 0) {
      a->analyzed = run(mpiexec(ranks) + " " + test::tool("waitscope-analyze") + " " + a->anchor +
                        " -o " + a->reportPath);
      if (a->analyzed.exitCode == 0) {
        try {
          a->rep = report::readReport(a->reportPath);
        } catch (const std::exception& e) {
          a->readError = e.what();
        }
        try {
          a->traceSays = std::make_unique<test::RecordedWaits>(a->anchor);
        } catch (const std::exception& e) {
          a->traceError = e.what();
        }
      }
    }
    // WAITSCOPE_E2E_KEEP=DIR keeps every trace and report (DIR/<key>, DIR/<key>.waitscope) for a look.
    if (const char* keep = std::getenv("WAITSCOPE_E2E_KEEP"); keep && *keep) {
      std::error_code ec;
      fs::create_directories(keep, ec);
      fs::remove_all(fs::path(keep) / key, ec);
      fs::copy(out, fs::path(keep) / key, fs::copy_options::recursive | fs::copy_options::overwrite_existing, ec);
      fs::copy_file(a->reportPath, fs::path(keep) / (key + ".waitscope"), fs::copy_options::overwrite_existing, ec);
    }
    if (a->ok()) {
      for (std::uint32_t l = 0; l < a->rep.locations.size(); ++l)
        a->locationOfRank[static_cast<int>(a->rep.locations[l].rank)] = l;
      for (std::uint32_t c = 0; c < a->rep.callPaths.size(); ++c)
        a->paths.push_back(report::callPathString(a->rep, c));
      for (const report::Region& region : a->rep.regions) a->hasMain = a->hasMain || region.name == "main";
      std::ifstream in(std::string(WAITSCOPE_SOURCE_DIR) + "/tests/apps/" + program + ".c");
      for (std::string line; std::getline(in, line);) a->source.push_back(line);
      a->dump();
    }
    return *cache.emplace(key, std::move(a)).first->second;
  }
};
std::unique_ptr<test::TempDir> AnalyzeApps::dir;
std::map<std::string, std::unique_ptr<Analysis>> AnalyzeApps::cache;

// The checks of one analysis; every check prints what it compared, failures are collected.
class Checks {
 public:
  explicit Checks(const Analysis& analysis) : a(analysis) {}
  const Analysis& a;

  // The report agrees with what the recorded trace says (RecordedWaits) for every metric the
  // trace rules cover, on every rank, call path and call site where either has a value: the
  // analysis of this very trace, whatever the machine's load did to the program's timing.
  // Wait at Fence is max(synchronizing wait, Early Fence) per fence, so it lies between the
  // trace's synchronizing wait and that plus the report's Early Fence.
  void matchesTrace() {
    std::size_t compared = 0;
    for (const std::string& metric : test::RecordedWaits::metrics()) {
      const std::uint32_t m = a.rep.findMetric(metric);
      if (m == report::kNoId) {
        fail("the report has no metric " + metric);
        continue;
      }
      std::set<std::tuple<int, std::string, std::uint32_t>> cells;
      for (const auto& cell : a.traceSays->cells(metric)) cells.insert({cell.rank, cell.path, cell.line});
      for (std::uint32_t c = 0; c < a.rep.callPaths.size(); ++c) {
        const std::vector<double> values = report::valuesByLocation(a.rep, m, c);
        for (std::uint32_t l = 0; l < values.size() && l < a.rep.locations.size(); ++l)
          if (values[l] != 0.0)
            cells.insert({static_cast<int>(a.rep.locations[l].rank), a.paths[c], a.rep.callPaths[c].callSiteLine});
      }
      for (const auto& [rank, path, line] : cells) {
        const double expected = a.traceSays->value(metric, rank, path, line);
        const double v = a.valueAt(m, rank, path, line);
        // Times are seconds converted from ticks on both sides: a few ns per call for rounding.
        const double tol = 1e-9 * static_cast<double>(a.traceSays->calls(metric, rank, path) + 1);
        ++compared;
        if (metric == "mpi_rma_wait_at_fence") {
          const double early = a.valueAt(a.rep.findMetric("mpi_rma_early_fence"), rank, path, line);
          if (v >= expected - tol && v <= expected + early + tol) continue;
          fail("rank " + std::to_string(rank) + " " + metric + " at " + path + ":" + std::to_string(line) + " is " +
               seconds(v) + "; the trace says " + seconds(expected) + " (+ Early Fence " + seconds(early) + ")");
          continue;
        }
        if (std::fabs(v - expected) <= tol) continue;
        fail("rank " + std::to_string(rank) + " " + metric + " at " + path + ":" + std::to_string(line) + " is " +
             seconds(v) + "; the trace says " + seconds(expected));
      }
    }
    std::printf("[%s] %zu values of the report compared with what the trace says\n", a.name.c_str(), compared);
    that(compared > 0, "nothing compared with the trace");
  }

  // By design, `metric` waits at the `expected` places: each of them has some of it, and
  // together they hold more than half of the metric's total over the whole run. Load moves the
  // values, and adds small waits elsewhere, but does not move the wait the program builds.
  // `alsoThere`: places the program builds it too, where load may decide which rank waits.
  void holds(const std::string& metric, const std::vector<Where>& expected, const std::vector<Where>& alsoThere = {}) {
    const std::uint32_t m = a.rep.findMetric(metric);
    if (m == report::kNoId) return fail("the report has no metric " + metric);
    double total = 0.0;
    for (double v : report::valuesByLocation(a.rep, m)) total += v;
    double there = 0.0;
    for (const Where& w : expected) {
      const double v = a.value(w);
      std::printf("[%s] %-60s measured %7.4f  (> 0)\n", a.name.c_str(), describe(w).c_str(), v);
      if (!(v > 0.0)) fail(describe(w) + " is " + seconds(v) + ", expected a wait there");
      there += v;
    }
    for (const Where& w : alsoThere) there += a.value(w);
    std::printf("[%s] %-60s %7.4f of %7.4f s at the places it is built (> half)\n", a.name.c_str(), metric.c_str(),
                there, total);
    if (!(there > 0.5 * total))
      fail(metric + ": only " + seconds(there) + " of " + seconds(total) + " at the places the program builds it");
  }
  // The value at `w` is exactly zero (the pattern cannot occur there).
  void zero(const Where& w) {
    const double v = a.value(w);
    std::printf("[%s] %-60s measured %7.4f  expected 0\n", a.name.c_str(), describe(w).c_str(), v);
    if (!(v == 0.0)) fail(describe(w) + " is " + seconds(v) + ", expected 0");
  }
  // An occurrence count is exactly `expected`.
  void count(const Where& w, double expected) {
    const double v = a.value(w);
    std::printf("[%s] %-60s measured %7.0f  expected %7.0f\n", a.name.c_str(), describe(w).c_str(), v, expected);
    if (!(v == expected)) fail(describe(w) + " is " + std::to_string(v) + ", expected " + std::to_string(expected));
  }
  void that(bool ok, const std::string& what) {
    if (!ok) fail(what);
  }
  const std::vector<std::string>& failures() const { return failures_; }

 private:
  static std::string seconds(double v) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.9f s", v);
    return buffer;
  }
  void fail(const std::string& what) { failures_.push_back(a.name + ": " + what); }
  std::vector<std::string> failures_;
};

// Records, analyzes, compares the report with the trace and checks the program's design.
void recordAnalyzeCheck(const Analysis& a, const std::function<void(Checks&)>& check) {
  ASSERT_TRUE(a.ok()) << a.name << ": " << a.failure();
  Checks c(a);
  c.matchesTrace();
  check(c);
  for (const std::string& f : c.failures()) ADD_FAILURE() << f;
  for (const std::string& broken : test::invariantViolations(a.rep)) ADD_FAILURE() << a.name << ": " << broken;
}

// ---------------------------------------------------------------------------------------------
// fence: N x { fence; put to (r+1)%n; work(r*d) }; rank n-1 enters every fence but the first last.

constexpr int kFenceN = 5;
const std::string kFenceArgs = "5 0.040";

void checkFenceDesign(Checks& c) {
  const int n = 4;
  c.holds("mpi_rma_wait_at_fence", {{"mpi_rma_wait_at_fence", 0, "main/MPI_Win_fence"},
                                    {"mpi_rma_wait_at_fence", 1, "main/MPI_Win_fence"},
                                    {"mpi_rma_wait_at_fence", 2, "main/MPI_Win_fence"}});
  // Each rank is the target of one origin out of 3 per epoch: 3N pairwise syncs, 2N unneeded.
  for (int r = 0; r < n; ++r) {
    c.count({"rma_epoch_pairsync_count", r}, 3 * kFenceN);
    c.count({"rma_epoch_pairsync_unneeded_count", r}, 2 * kFenceN);
    c.zero({"mpi_rma_sync_late_post", r});
    c.zero({"mpi_rma_early_wait", r});
  }
}

TEST_F(AnalyzeApps, Fence) {
  recordAnalyzeCheck(analyze("fence", 4, "fence", kFenceArgs), checkFenceDesign);
}

TEST_F(AnalyzeApps, FenceLatePut) {
  recordAnalyzeCheck(analyze("fence_late_put", 4, "fence", kFenceArgs + " --late-put"), [](Checks& c) {
    checkFenceDesign(c);
    // Rank 3's put to rank 0 ends 3d after rank 0 entered the fence.
    c.holds("mpi_rma_early_fence", {{"mpi_rma_early_fence", 0, "main/MPI_Win_fence"}});
  });
}

// ---------------------------------------------------------------------------------------------
// gats: rank 0 target, 1..3 origins; phases late post (put), late post (get), late complete.

constexpr int kGatsN = 5;
const std::string kGatsArgs = "5 0.040";

// `blocking` is the origin call that absorbs Late Post: MPI_Win_start (osc/rdma) or
// MPI_Win_complete (osc/pt2pt).
void checkGats(Checks& c, const std::string& blocking) {
  std::vector<Where> latePost;
  for (int r = 1; r <= 3; ++r)
    for (const char* phase : {"p1 ", "p2 "})
      latePost.push_back({"mpi_rma_sync_late_post", r, "main/" + blocking, phase + blocking});
  c.holds("mpi_rma_sync_late_post", latePost);
  c.zero({"mpi_rma_sync_late_post", 0});
  // Phase 3: rank 1's complete comes d after its put, so rank 0 waits in MPI_Win_wait ...
  c.holds("mpi_rma_early_wait", {{"mpi_rma_early_wait", 0, "main/MPI_Win_wait", "p3 MPI_Win_wait"}});
  c.holds("mpi_rma_late_complete", {{"mpi_rma_late_complete", 0, "main/MPI_Win_wait", "p3 MPI_Win_wait"}});
  // ... and ranks 2 and 3 wait for rank 1 in the barrier that ends phase 3.
  c.holds("mpi_barrier_wait", {{"mpi_barrier_wait", 2, "main/MPI_Barrier", "p3 MPI_Barrier"},
                               {"mpi_barrier_wait", 3, "main/MPI_Barrier", "p3 MPI_Barrier"}});
  // Post groups of 3, 3 and 1 origins, every origin accesses the target: no unneeded syncs.
  c.count({"rma_epoch_pairsync_count", 0}, 7 * kGatsN);
  for (int r = 0; r <= 3; ++r) c.count({"rma_epoch_pairsync_unneeded_count", r}, 0);
}

TEST_F(AnalyzeApps, GatsOscRdma) {
  recordAnalyzeCheck(analyze("gats", 4, "gats", kGatsArgs), [](Checks& c) { checkGats(c, "MPI_Win_start"); });
}

TEST_F(AnalyzeApps, GatsOscPt2pt) {
  if (!WAITSCOPE_OPEN_MPI) GTEST_SKIP() << "forces Open MPI's osc/pt2pt component; this MPI has none";
  recordAnalyzeCheck(analyze("gats_pt2pt", 4, "gats", kGatsArgs, "OMPI_MCA_osc=pt2pt"),
                     [](Checks& c) { checkGats(c, "MPI_Win_complete"); });
}

// ---------------------------------------------------------------------------------------------
// chain (3 ranks): foo on rank 0 -> Late Sender on rank 1 -> Late Post on rank 2.

TEST_F(AnalyzeApps, Chain) {
  const int n = 5;
  recordAnalyzeCheck(analyze("chain", 3, "chain", "5 0.040"), [&](Checks& c) {
    c.holds("mpi_latesender", {{"mpi_latesender", 1, "main/MPI_Recv"}});
    c.holds("mpi_rma_sync_late_post", {{"mpi_rma_sync_late_post", 2, "main/MPI_Win_start"}});
    c.zero({"mpi_latesender", 0});
    c.zero({"mpi_latesender", 2});
    c.zero({"mpi_rma_sync_late_post", 1});
    c.count({"rma_epoch_pairsync_count", 1}, n);
    c.count({"rma_epoch_pairsync_unneeded_count", 1}, 0);
  });
}

// ---------------------------------------------------------------------------------------------
// lock: exclusive locks on rank 0's window, phase 1 staggered, phase 2 free for all.

TEST_F(AnalyzeApps, Lock) {
  const int n = 4;
  recordAnalyzeCheck(analyze("lock", 4, "lock", "3 0.080"), [&](Checks& c) {
    const std::string lockPath = "main/MPI_Win_lock", barrierPath = "main/MPI_Barrier";
    // Phase 1: rank r requests while rank r-1 holds the lock, so ranks 1..3 wait; phase 2: all
    // request at once, and which rank waits how long is the lock's choice.
    std::vector<Where> phase1, phase2;
    for (int r = 1; r < n; ++r) phase1.push_back({"mpi_rma_sync_lock_competition", r, lockPath, "p1 MPI_Win_lock"});
    for (int r = 0; r < n; ++r) phase2.push_back({"mpi_rma_sync_lock_competition", r, lockPath, "p2 MPI_Win_lock"});
    c.holds("mpi_rma_sync_lock_competition", phase1, phase2);
    double phase2Total = 0.0;
    for (const Where& w : phase2) phase2Total += c.a.value(w);
    std::printf("[lock] phase 2 lock competition, all ranks: %.4f s (> 0)\n", phase2Total);
    c.that(phase2Total > 0.0, "no lock competition in phase 2");
    // Phase 1's barrier: rank r holds the lock after ranks 0..r-1, so the lower ranks wait; in
    // phase 2 each rank's lock wait and barrier wait add up to the same, so who waits where is
    // the lock's choice.
    std::vector<Where> barrier2;
    for (int r = 0; r < n; ++r) barrier2.push_back({"mpi_barrier_wait", r, barrierPath, "p2 MPI_Barrier"});
    c.holds("mpi_barrier_wait",
            {{"mpi_barrier_wait", 0, barrierPath, "p1 MPI_Barrier"},
             {"mpi_barrier_wait", 1, barrierPath, "p1 MPI_Barrier"},
             {"mpi_barrier_wait", 2, barrierPath, "p1 MPI_Barrier"}},
            barrier2);
    for (int r = 0; r < n; ++r) c.zero({"mpi_rma_sync_lock_competition", r, "main/MPI_Win_unlock"});
  });
}

// The same program under Open MPI's osc pt2pt, which acquires a lock lazily: MPI_Win_lock returns
// at once, the hold_lock computations of all ranks run side by side, and each epoch gets the lock
// only in its MPI_Win_unlock, where the competition then sits (docs/patterns/rma_passive.md).
TEST_F(AnalyzeApps, LockOscPt2pt) {
  if (!WAITSCOPE_OPEN_MPI) GTEST_SKIP() << "forces Open MPI's osc/pt2pt component; this MPI has none";
  const int n = 4;
  recordAnalyzeCheck(analyze("lock_pt2pt", 4, "lock", "3 0.080", "OMPI_MCA_osc=pt2pt"), [&](Checks& c) {
    std::vector<Where> unlocks;
    for (int r = 0; r < n; ++r)
      for (const char* site : {"p1 MPI_Win_unlock", "p2 MPI_Win_unlock"})
        unlocks.push_back({"mpi_rma_sync_lock_competition", r, "main/MPI_Win_unlock", site});
    c.holds("mpi_rma_sync_lock_competition", {}, unlocks);
    double phase2 = 0.0;
    for (int r = 0; r < n; ++r)
      phase2 += c.a.value({"mpi_rma_sync_lock_competition", r, "main/MPI_Win_unlock", "p2 MPI_Win_unlock"});
    std::printf("[lock_pt2pt] phase 2 lock competition in MPI_Win_unlock, all ranks: %.4f s (> 0)\n", phase2);
    c.that(phase2 > 0.0, "no lock competition in phase 2's MPI_Win_unlock");
  });
}

// ---------------------------------------------------------------------------------------------
// sor: balanced red-black SOR; the waits are the cost of 4 ranks on 2 cores, spread over all ranks.

constexpr int kSorIters = 300;  // default 600
const std::string kSorArgs = "770 300";

TEST_F(AnalyzeApps, SorGats) {
  recordAnalyzeCheck(analyze("sor", 4, "sor", kSorArgs), [](Checks& c) {
    for (int r = 0; r < 4; ++r) {
      const int nbrs = r == 0 || r == 3 ? 1 : 2;
      // Each rank synchronizes only with its neighbours and puts to each of them.
      c.count({"rma_epoch_pairsync_count", r}, 2 * kSorIters * nbrs);
      c.count({"rma_epoch_pairsync_unneeded_count", r}, 0);
      c.zero({"mpi_rma_wait_at_fence", r});
      // Late Post only in MPI_Win_start or _complete, Early Wait only in MPI_Win_wait.
      const double latePost = c.a.value({"mpi_rma_sync_late_post", r});
      const double inCalls = c.a.value({"mpi_rma_sync_late_post", r, "main/MPI_Win_start"}) +
                             c.a.value({"mpi_rma_sync_late_post", r, "main/MPI_Win_complete"});
      c.that(std::fabs(latePost - inCalls) < 1e-9, "Late Post outside MPI_Win_start/_complete");
      c.that(std::fabs(c.a.value({"mpi_rma_early_wait", r}) -
                       c.a.value({"mpi_rma_early_wait", r, "main/MPI_Win_wait"})) < 1e-9,
             "Early Wait outside MPI_Win_wait");
    }
  });
}

TEST_F(AnalyzeApps, SorFence) {
  recordAnalyzeCheck(analyze("sor_fence", 4, "sor", kSorArgs + " --fence"), [](Checks& c) {
    for (int r = 0; r < 4; ++r) {
      const int nbrs = r == 0 || r == 3 ? 1 : 2;
      // The closing fence of every exchange synchronizes with all 3 other ranks; unneeded = 3 -
      // neighbours. The opening fences (all but the first) close the empty epoch of the sweep: 3
      // unneeded each (sor.expected.md).
      const std::string fence = "main/MPI_Win_fence";
      const std::string opening = "MPI_Win_fence(0, win)#1", closing = "MPI_Win_fence(0, win)#2";
      c.count({"rma_epoch_pairsync_count", r, fence, closing}, 2 * kSorIters * 3);
      c.count({"rma_epoch_pairsync_unneeded_count", r, fence, closing}, 2 * kSorIters * (3 - nbrs));
      c.count({"rma_epoch_pairsync_count", r, fence, opening}, 3 * (2 * kSorIters - 1));
      c.count({"rma_epoch_pairsync_unneeded_count", r, fence, opening}, 3 * (2 * kSorIters - 1));
      c.zero({"mpi_rma_sync_late_post", r});
      c.zero({"mpi_rma_early_wait", r});
    }
  });
}

// ---------------------------------------------------------------------------------------------
// p2p_coll: the MPI-1 patterns, one segment each; R rounds, D = DELAY, d = D/2.

TEST_F(AnalyzeApps, P2pColl) {
  const int n = 4;
  recordAnalyzeCheck(analyze("p2p_coll", 4, "p2p_coll", "2 0.080"), [&](Checks& c) {
    const std::string recv = "main/MPI_Recv";
    // 1 Late Sender; 3 wrong order, same source (ranks 1 and 3); 4 wrong order, different source (rank 1).
    c.holds("mpi_latesender", {{"mpi_latesender", 1, recv, "1 MPI_Recv (Late Sender)"},
                               {"mpi_latesender", 3, recv, "1 MPI_Recv (Late Sender)"},
                               {"mpi_latesender", 1, recv, "3 MPI_Recv (wrong order, same)"},
                               {"mpi_latesender", 3, recv, "3 MPI_Recv (wrong order, same)"},
                               {"mpi_latesender", 1, recv, "4 MPI_Recv (wrong order, different)"}});
    c.holds("mpi_lswo_same", {{"mpi_lswo_same", 1, recv, "3 MPI_Recv (wrong order, same)"},
                              {"mpi_lswo_same", 3, recv, "3 MPI_Recv (wrong order, same)"}});
    c.holds("mpi_lswo_different", {{"mpi_lswo_different", 1, recv, "4 MPI_Recv (wrong order, different)"}});
    // 2 Late Receiver on the senders, who never receive.
    c.holds("mpi_latereceiver", {{"mpi_latereceiver", 0, "main/MPI_Ssend"}, {"mpi_latereceiver", 2, "main/MPI_Ssend"}});
    for (int r : {0, 2}) c.zero({"mpi_latesender", r});
    for (int r : {1, 3}) c.zero({"mpi_latereceiver", r});
    // 5, 6 Barrier and NxN: rank r works r*d before the barrier and allreduce, (n-1-r)*d before alltoall.
    std::vector<Where> barrier, allreduce, alltoall;
    for (int r = 0; r < n - 1; ++r) {
      barrier.push_back({"mpi_barrier_wait", r, "main/MPI_Barrier"});
      allreduce.push_back({"mpi_wait_nxn", r, "main/MPI_Allreduce"});
      alltoall.push_back({"mpi_wait_nxn", r + 1, "main/MPI_Alltoall"});
    }
    c.holds("mpi_barrier_wait", barrier);
    allreduce.insert(allreduce.end(), alltoall.begin(), alltoall.end());
    c.holds("mpi_wait_nxn", allreduce);
    // 7 Late Broadcast on the non-roots; 8 Early Reduce on the root.
    c.holds("mpi_latebroadcast", {{"mpi_latebroadcast", 1, "main/MPI_Bcast"},
                                  {"mpi_latebroadcast", 2, "main/MPI_Bcast"},
                                  {"mpi_latebroadcast", 3, "main/MPI_Bcast"}});
    c.zero({"mpi_latebroadcast", 0});
    c.holds("mpi_earlyreduce", {{"mpi_earlyreduce", 0, "main/MPI_Reduce"}});
    for (int r = 1; r < n; ++r) c.zero({"mpi_earlyreduce", r});
  });
}

// ---------------------------------------------------------------------------------------------
// ring_triples (6 ranks): (a) ring with a delay travelling one rank per iteration, (b) triples with
// messages in wrong order.

TEST_F(AnalyzeApps, RingTriples) {
  const int p = 6;
  recordAnalyzeCheck(analyze("ring_triples", p, "ring_triples", "6 0.040"), [&](Checks& c) {
    const std::string recv = "main/MPI_Recv", barrier = "main/MPI_Barrier";
    // (a) rank k waits in the ring's receives, then (k-1) delays in the first barrier; (b) r%3==1
    // waits for r-1 while r+1's message is there; r%3==2 waits in the second barrier.
    std::vector<Where> lateSender, barrierWait;
    for (int k = 1; k < p; ++k) lateSender.push_back({"mpi_latesender", k, recv, "a MPI_Recv"});
    for (int k = 2; k < p; ++k) barrierWait.push_back({"mpi_barrier_wait", k, barrier, "a MPI_Barrier"});
    for (int r : {1, 4}) lateSender.push_back({"mpi_latesender", r, recv, "b MPI_Recv(r-1)"});
    for (int r : {2, 5}) barrierWait.push_back({"mpi_barrier_wait", r, barrier, "b MPI_Barrier"});
    c.holds("mpi_latesender", lateSender);
    c.holds("mpi_barrier_wait", barrierWait);
    c.holds("mpi_lswo_different", {{"mpi_lswo_different", 1, recv, "b MPI_Recv(r-1)"},
                                   {"mpi_lswo_different", 4, recv, "b MPI_Recv(r-1)"}});
  });
}

// ---------------------------------------------------------------------------------------------
// Errors: the analyzer refuses more processes than ranks and a truncated trace, with one line each.

TEST_F(AnalyzeApps, MoreProcessesThanRanksAreRefused) {
  const Analysis& a = analyze("fence", 4, "fence", kFenceArgs);
  ASSERT_EQ(a.recorded.exitCode, 0) << a.recorded.err;
  const fs::path report = *dir / "wrong-count.waitscope";
  const auto r = run(mpiexec(5) + " " + test::tool("waitscope-analyze") + " " + a.anchor + " -o " + report.string());
  EXPECT_EQ(r.exitCode, 1) << r.err;
  const auto lines = messageLines(r.err);
  ASSERT_EQ(lines.size(), 1u) << r.err;
  EXPECT_EQ(lines[0].rfind("waitscope-analyze: ", 0), 0u) << lines[0];
  EXPECT_NE(lines[0].find("4 MPI ranks"), std::string::npos) << lines[0];
  EXPECT_NE(lines[0].find("runs on 5 processes"), std::string::npos) << lines[0];
  EXPECT_NE(lines[0].find("from 1 to 4"), std::string::npos) << lines[0];
  EXPECT_FALSE(fs::exists(report));
}

// Fewer processes than ranks: each analyzes a block of them, and says so in its closing line
// (tests/e2e/fewer_processes_test.sh compares the reports).
TEST_F(AnalyzeApps, FewerProcessesThanRanksAnalyze) {
  const Analysis& a = analyze("fence", 4, "fence", kFenceArgs);
  ASSERT_EQ(a.recorded.exitCode, 0) << a.recorded.err;
  const fs::path report = *dir / "fewer.waitscope";
  const auto r = run(mpiexec(3) + " " + test::tool("waitscope-analyze") + " " + a.anchor + " -o " + report.string());
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("(4 ranks on 3 processes)"), std::string::npos) << r.out;
  EXPECT_TRUE(fs::exists(report));
}

TEST_F(AnalyzeApps, TruncatedTraceIsRefused) {
  const Analysis& a = analyze("fence", 4, "fence", kFenceArgs);
  ASSERT_EQ(a.recorded.exitCode, 0) << a.recorded.err;
  const fs::path copy = *dir / "truncated";
  fs::create_directories(copy);
  const std::string anchor = test::copyArchive(a.anchor, copy);
  const fs::path evt = fs::path(anchor).parent_path() / "traces" / "2.evt";
  ASSERT_TRUE(fs::exists(evt));
  fs::resize_file(evt, fs::file_size(evt) / 2);
  const fs::path report = copy / "report.waitscope";
  const auto r = run(mpiexec(4) + " " + test::tool("waitscope-analyze") + " " + anchor + " -o " + report.string());
  EXPECT_NE(r.exitCode, 124) << "the analyzer hangs on a truncated trace";
  EXPECT_EQ(r.exitCode, 1) << r.err;
  const auto lines = messageLines(r.err);
  ASSERT_EQ(lines.size(), 1u) << r.err;
  EXPECT_EQ(lines[0].rfind("waitscope-analyze: ", 0), 0u) << lines[0];
  EXPECT_NE(lines[0].find(evt.string()), std::string::npos) << lines[0];
  EXPECT_FALSE(fs::exists(report));
}

}  // namespace
