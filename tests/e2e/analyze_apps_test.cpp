// End to end: "record, analyze, check". Every example program of tests/apps is recorded with
// waitscope-run, analyzed with `mpiexec -n N waitscope-analyze` (one analysis rank per application
// rank), and the SQLite report is read back and compared with the wait states its
// tests/apps/<name>.expected.md states by construction: pattern (metric unique name), rank, call
// path (and call site, where one call path holds several constructed waits) and seconds.
//
// Tolerance. The programs busy-wait on MPI_Wtime and the suite runs 3-6 ranks on 2 oversubscribed
// cores, so every constructed wait is blurred by descheduling and epoch hand-over costs (a few ms
// per synchronizing call, see the "measured" columns of the expected.md files). A constructed wait
// is accepted within max(25 % of the expected value, 30 ms) (kRelTol, kAbsTol). A wait that must be
// zero is accepted below a noise bound: 30 ms plus 3 ms per synchronizing call on the call path
// (noiseBound()). The arguments use fewer iterations and longer delays than the defaults, so the
// constructed waits (mostly 0.1-0.7 s) are well above the noise and the suite takes ~20 s. The
// expected values are the expected.md formulas evaluated for these arguments. Lock competition in
// lock's staggered phase gets 10 ms per iteration more (lock.expected.md explains why).
//
// A busy machine (a build on the same cores) can push single waits far out of any tolerance; so a
// program whose checks miss is recorded and analyzed once more, and only misses of the second
// recording fail the test (both attempts are printed). A wrong analysis misses both times.
//
// Metric values are metric-inclusive (Wait at Fence includes Early Fence, Late Sender includes
// Messages in Wrong Order) and call-path exclusive, as report_queries.h defines them; occurrence
// metrics (pairwise synchronizations) are exact. Call paths are written as in expected.md
// ("main/MPI_Recv"); when the programs are not compiled with -finstrument-functions
// (WAITSCOPE_APPS_INSTRUMENT=OFF, the default) main is no region and "MPI_Recv" is matched.
//
// waitscope-run passes no mpiexec options; the osc/pt2pt variant of gats selects the component with
// OMPI_MCA_osc=pt2pt in the environment, which mpiexec forwards to the processes.
//
// Every analysis prints its wait-state rows and every check its measured and expected value
// (ctest --output-on-failure, or run the executable); WAITSCOPE_E2E_KEEP=DIR keeps the traces and
// reports. The measured values belong to an otherwise idle machine: the test runs alone
// (RUN_SERIAL), and a concurrent build on the same cores adds tens of ms to the waits.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "report/report.h"
#include "report/report_io.h"
#include "report/report_queries.h"
#include "test_support.h"

namespace fs = std::filesystem;
using namespace waitscope;
using test::run;

namespace {

constexpr double kRelTol = 0.25;
constexpr double kAbsTol = 0.030;

double tolerance(double expected) { return std::max(kRelTol * expected, kAbsTol); }

// A wait that must be zero: 30 ms plus 3 ms per synchronizing call (descheduling and hand-over
// of 3-6 ranks on 2 cores).
double noiseBound(int calls) { return 0.030 + 0.003 * calls; }

const std::string kRootEnv = "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1";

// `timeout 120 mpiexec -n RANKS`, runnable as root: nothing may hang the suite.
std::string mpiexec(int ranks) {
  return kRootEnv + " timeout 120 " + WAITSCOPE_MPIEXEC + " --oversubscribe -n " + std::to_string(ranks);
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
  std::map<int, std::uint32_t> locationOfRank;
  std::vector<std::string> paths;  // callPathString of every call path
  std::vector<std::string> source; // the program's source lines
  bool hasMain = false;            // main is a region (the program was compiled with -finstrument-functions)

  bool ok() const { return recorded.exitCode == 0 && analyzed.exitCode == 0 && readError.empty(); }

  std::string failure() const {
    if (recorded.exitCode != 0)
      return "recording failed (exit " + std::to_string(recorded.exitCode) + "): " + recorded.err + recorded.out;
    if (analyzed.exitCode != 0)
      return "analysis failed (exit " + std::to_string(analyzed.exitCode) + "): " + analyzed.err + analyzed.out;
    return "report unreadable: " + readError;
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
    double sum = 0.0;
    for (std::uint32_t c = 0; c < rep.callPaths.size(); ++c) {
      if (paths[c] != path) continue;
      if (line != 0 && rep.callPaths[c].callSiteLine != line) continue;
      sum += report::valuesByLocation(rep, m, c)[loc->second];
    }
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
        "mpi_rma_comm_lock_competition", "mpi_rma_pairsync_count", "mpi_rma_pairsync_unneeded_count"};
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

// The checks of one analysis. A timing check that misses is collected, not reported at once:
// runChecks() records and analyzes the program a second time before it fails the test.
class Checks {
 public:
  explicit Checks(const Analysis& analysis) : a(analysis) {}
  const Analysis& a;

  // The value at `w` is `expected` seconds within `tol` (default tolerance(expected)).
  void near(const Where& w, double expected, double tol = -1.0) {
    if (tol < 0) tol = tolerance(expected);
    const double v = a.value(w);
    std::printf("[%s] %-60s measured %7.4f  expected %7.4f +- %.3f\n", a.name.c_str(), describe(w).c_str(), v,
                expected, tol);
    if (!(std::fabs(v - expected) <= tol))
      fail(describe(w) + " is " + seconds(v) + ", expected " + seconds(expected) + " +- " + seconds(tol));
  }
  // The value at `w` is below `bound` seconds (a wait that is zero by construction).
  void below(const Where& w, double bound) {
    const double v = a.value(w);
    std::printf("[%s] %-60s measured %7.4f  expected ~0 (< %.3f)\n", a.name.c_str(), describe(w).c_str(), v, bound);
    if (!(v < bound)) fail(describe(w) + " is " + seconds(v) + ", expected ~0 (below " + seconds(bound) + ")");
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
  // A derived value (a sum over ranks or call paths) within `tol`.
  void sumNear(const std::string& what, double v, double expected, double tol) {
    std::printf("[%s] %-60s measured %7.4f  expected %7.4f +- %.3f\n", a.name.c_str(), what.c_str(), v, expected, tol);
    if (!(std::fabs(v - expected) <= tol))
      fail(what + " is " + seconds(v) + ", expected " + seconds(expected) + " +- " + seconds(tol));
  }
  void that(bool ok, const std::string& what) {
    if (!ok) fail(what);
  }
  const std::vector<std::string>& failures() const { return failures_; }

 private:
  static std::string seconds(double v) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.4f s", v);
    return buffer;
  }
  void fail(const std::string& what) { failures_.push_back(a.name + ": " + what); }
  std::vector<std::string> failures_;
};

// Records, analyzes and checks; when a check misses, records and analyzes once more and fails
// only on the second attempt's misses. A busy machine (a build on the same 2 cores) can push
// single waits of one run far out of any tolerance, while a wrong analysis fails both times.
void recordAnalyzeCheck(const std::function<const Analysis&(int attempt)>& analyze,
                        const std::function<void(Checks&)>& check) {
  for (int attempt = 1; attempt <= 2; ++attempt) {
    const Analysis& a = analyze(attempt);
    ASSERT_TRUE(a.ok()) << a.name << ": " << a.failure();
    Checks c(a);
    check(c);
    if (c.failures().empty()) return;
    if (attempt == 1) {
      std::printf("[%s] %zu check(s) missed; recording again:\n", a.name.c_str(), c.failures().size());
      for (const std::string& f : c.failures()) std::printf("  %s\n", f.c_str());
      std::fflush(stdout);
      continue;
    }
    for (const std::string& f : c.failures()) ADD_FAILURE() << f << " (also missed in the first recording)";
  }
}

// RECORD_ANALYZE_CHECK(key, ranks, program, args, env, check): recordAnalyzeCheck() with the
// fixture's analyze(); the second recording is kept under key + "_again".
#define RECORD_ANALYZE_CHECK(key, ranks, program, args, env, ...)                                   \
  recordAnalyzeCheck(                                                                               \
      [&](int attempt) -> const Analysis& {                                                         \
        return analyze(attempt == 1 ? std::string(key) : std::string(key) + "_again", ranks, program, args, env); \
      },                                                                                            \
      __VA_ARGS__)

// ---------------------------------------------------------------------------------------------
// fence: N x { fence; put to (r+1)%n; work(r*d) }; rank n-1 enters every fence but the first last.

// N = 5, d = 40 ms (defaults 20, 10 ms): the same waits in fewer, longer instances.
constexpr int kFenceN = 5;
constexpr double kFenceD = 0.040;
const std::string kFenceArgs = "5 0.040";

void checkFenceWaits(Checks& c) {
  const int n = 4;
  for (int r = 0; r < n; ++r) {
    const Where w{"mpi_rma_wait_at_fence", r, "main/MPI_Win_fence"};
    const double expected = kFenceN * (n - 1 - r) * kFenceD;  // 0.6, 0.4, 0.2, 0
    if (r < n - 1) c.near(w, expected);
    else c.below(w, noiseBound(kFenceN + 1));
  }
  // Each rank is the target of one origin out of 3 per epoch: 3N pairwise syncs, 2N unneeded.
  for (int r = 0; r < n; ++r) {
    c.count({"mpi_rma_pairsync_count", r}, 3 * kFenceN);
    c.count({"mpi_rma_pairsync_unneeded_count", r}, 2 * kFenceN);
    c.zero({"mpi_rma_sync_late_post", r});
    c.zero({"mpi_rma_early_wait", r});
  }
}

TEST_F(AnalyzeApps, Fence) {
  RECORD_ANALYZE_CHECK("fence", 4, "fence", kFenceArgs, "", [](Checks& c) {
    checkFenceWaits(c);
    // Each put ends right after the opening fence: no Early Fence anywhere.
    for (int r = 0; r < 4; ++r) c.below({"mpi_rma_early_fence", r}, noiseBound(kFenceN + 1));
  });
}

TEST_F(AnalyzeApps, FenceLatePut) {
  RECORD_ANALYZE_CHECK("fence_late_put", 4, "fence", kFenceArgs + " --late-put", "", [](Checks& c) {
    checkFenceWaits(c);
    // Rank 3's put to rank 0 ends 3d after rank 0 entered the fence.
    c.near({"mpi_rma_early_fence", 0, "main/MPI_Win_fence"}, kFenceN * 3 * kFenceD);
    for (int r = 1; r < 4; ++r) c.below({"mpi_rma_early_fence", r}, noiseBound(kFenceN + 1));
  });
}

// ---------------------------------------------------------------------------------------------
// gats: rank 0 target, 1..3 origins; phases late post (put), late post (get), late complete.

// N = 5, d = 40 ms (defaults 10, 20 ms): N*d = 0.2 s as with the defaults.
constexpr int kGatsN = 5;
constexpr double kGatsD = 0.040;
const std::string kGatsArgs = "5 0.040";

// `blocking` is the origin call that absorbs Late Post: MPI_Win_start (osc/rdma) or
// MPI_Win_complete (osc/pt2pt); `other` must then be ~0.
void checkGats(Checks& c, const std::string& blocking, const std::string& other) {
  const double nd = kGatsN * kGatsD;
  for (int r = 1; r <= 3; ++r) {
    c.near({"mpi_rma_sync_late_post", r, "main/" + blocking, "p1 " + blocking}, nd);
    c.near({"mpi_rma_sync_late_post", r, "main/" + blocking, "p2 " + blocking}, nd);
    c.below({"mpi_rma_sync_late_post", r, "main/" + other}, noiseBound(3 * kGatsN));
    c.below({"mpi_rma_early_transfer", r}, noiseBound(3 * kGatsN));
  }
  c.zero({"mpi_rma_sync_late_post", 0});
  // Phase 3: rank 1's complete comes d after its put, so rank 0 waits d per epoch in MPI_Win_wait.
  c.near({"mpi_rma_early_wait", 0, "main/MPI_Win_wait", "p3 MPI_Win_wait"}, nd);
  c.near({"mpi_rma_late_complete", 0, "main/MPI_Win_wait", "p3 MPI_Win_wait"}, nd);
  c.below({"mpi_rma_early_wait", 0, "main/MPI_Win_wait", "p1 MPI_Win_wait"}, noiseBound(kGatsN));
  c.below({"mpi_rma_early_wait", 0, "main/MPI_Win_wait", "p2 MPI_Win_wait"}, noiseBound(kGatsN));
  // ... and ranks 2 and 3 wait for rank 1 in the barrier that ends phase 3.
  for (int r = 2; r <= 3; ++r) c.near({"mpi_barrier_wait", r, "main/MPI_Barrier", "p3 MPI_Barrier"}, nd);
  for (int r = 0; r <= 1; ++r) c.below({"mpi_barrier_wait", r, "main/MPI_Barrier", "p3 MPI_Barrier"}, noiseBound(1));
  for (int r = 0; r <= 3; ++r) {
    c.below({"mpi_barrier_wait", r, "main/MPI_Barrier", "p1 MPI_Barrier"}, noiseBound(1));
    c.below({"mpi_barrier_wait", r, "main/MPI_Barrier", "p2 MPI_Barrier"}, noiseBound(1));
  }
  // Post groups of 3, 3 and 1 origins, every origin accesses the target: no unneeded syncs.
  c.count({"mpi_rma_pairsync_count", 0}, 7 * kGatsN);
  for (int r = 0; r <= 3; ++r) c.count({"mpi_rma_pairsync_unneeded_count", r}, 0);
}

TEST_F(AnalyzeApps, GatsOscRdma) {
  RECORD_ANALYZE_CHECK("gats", 4, "gats", kGatsArgs, "",
                       [](Checks& c) { checkGats(c, "MPI_Win_start", "MPI_Win_complete"); });
}

TEST_F(AnalyzeApps, GatsOscPt2pt) {
  RECORD_ANALYZE_CHECK("gats_pt2pt", 4, "gats", kGatsArgs, "OMPI_MCA_osc=pt2pt",
                       [](Checks& c) { checkGats(c, "MPI_Win_complete", "MPI_Win_start"); });
}

// ---------------------------------------------------------------------------------------------
// chain (3 ranks): foo on rank 0 -> Late Sender on rank 1 -> Late Post on rank 2.

TEST_F(AnalyzeApps, Chain) {
  const int n = 5;  // N = 5, d = 40 ms (defaults 10, 20 ms)
  const double d = 0.040;
  RECORD_ANALYZE_CHECK("chain", 3, "chain", "5 0.040", "", [&](Checks& c) {
    c.near({"mpi_latesender", 1, "main/MPI_Recv"}, n * d);
    c.near({"mpi_rma_sync_late_post", 2, "main/MPI_Win_start"}, n * d);
    // Rank 1's receive plus its epoch take N*d by construction; the epoch hand-over is Early Wait.
    const double ls = c.a.value({"mpi_latesender", 1, "main/MPI_Recv"});
    const double ew = c.a.value({"mpi_rma_early_wait", 1, "main/MPI_Win_wait"});
    std::printf("[chain] rank 1 Late Sender + Early Wait = %.4f (expected <= %.3f)\n", ls + ew, n * d);
    c.that(ls + ew <= n * d + kAbsTol, "rank 1 Late Sender + Early Wait exceeds N*d");
    c.below({"mpi_rma_early_wait", 1, "main/MPI_Win_wait"}, noiseBound(2 * n));
    c.zero({"mpi_latesender", 0});
    c.zero({"mpi_latesender", 2});
    c.zero({"mpi_rma_sync_late_post", 1});
    c.below({"mpi_rma_wait_at_create", 0}, noiseBound(1));
    c.count({"mpi_rma_pairsync_count", 1}, n);
    c.count({"mpi_rma_pairsync_unneeded_count", 1}, 0);
  });
}

// ---------------------------------------------------------------------------------------------
// lock: exclusive locks on rank 0's window, phase 1 staggered, phase 2 free for all.

TEST_F(AnalyzeApps, Lock) {
  const int n = 4, N = 3;  // N = 3, H = 80 ms (defaults 5, 20 ms)
  const double H = 0.080;
  RECORD_ANALYZE_CHECK("lock", 4, "lock", "3 0.080", "", [&](Checks& c) {
    const std::string lockPath = "main/MPI_Win_lock", barrierPath = "main/MPI_Barrier";
    // Phase 1: rank r requests while rank r-1 holds the lock, H/2 before it is released. Each
    // contended lock is off by up to ~10 ms on 2 cores (lock.expected.md: the ranks leave the
    // barrier up to 8 ms apart, busy waits overrun, hand-overs accumulate along 1 -> 2 -> 3): the
    // tolerance is tolerance(N*H/2) plus 10 ms per iteration.
    c.below({"mpi_rma_sync_lock_competition", 0, lockPath, "p1 MPI_Win_lock"}, noiseBound(N));
    double phase1 = 0.0;
    for (int r = 1; r < n; ++r) {
      const Where w{"mpi_rma_sync_lock_competition", r, lockPath, "p1 MPI_Win_lock"};
      c.near(w, N * H / 2, tolerance(N * H / 2) + N * 0.010);
      phase1 += c.a.value(w);
    }
    c.sumNear("phase 1 lock competition, ranks 1..3", phase1, (n - 1) * N * H / 2, tolerance((n - 1) * N * H / 2));
    for (int r = 0; r < n; ++r) {
      const Where w{"mpi_barrier_wait", r, barrierPath, "p1 MPI_Barrier"};
      if (r < n - 1) c.near(w, N * (n - 1 - r) * H);
      else c.below(w, noiseBound(N));
    }
    // Phase 2: per iteration the k-th holder waits k*H (over ranks N*6H); each rank's lock wait
    // plus barrier wait is (n-1)*H per iteration.
    double phase2 = 0.0;
    for (int r = 0; r < n; ++r) {
      const double lock = c.a.value({"mpi_rma_sync_lock_competition", r, lockPath, "p2 MPI_Win_lock"});
      const double barrier = c.a.value({"mpi_barrier_wait", r, barrierPath, "p2 MPI_Barrier"});
      c.sumNear("rank " + std::to_string(r) + " phase 2 lock competition + wait at barrier", lock + barrier,
                N * (n - 1) * H, tolerance(N * (n - 1) * H));
      phase2 += lock;
    }
    c.sumNear("phase 2 lock competition, all ranks", phase2, N * 6 * H, tolerance(N * 6 * H));
    // The final shared lock and the unlocks: no competition.
    for (int r = 0; r < n; ++r) {
      c.below({"mpi_rma_sync_lock_competition", r, lockPath, "MPI_Win_lock(MPI_LOCK_SHARED"}, noiseBound(1));
      c.zero({"mpi_rma_sync_lock_competition", r, "main/MPI_Win_unlock"});
    }
  });
}

// ---------------------------------------------------------------------------------------------
// sor: balanced red-black SOR; the waits are the cost of 4 ranks on 2 cores, spread over all ranks.

constexpr int kSorIters = 300;  // default 600
const std::string kSorArgs = "770 300";

// Sum of `metrics` per rank: present on every rank and not concentrated on one.
void checkSpread(Checks& c, const std::vector<Where>& perRank0, int ranks) {
  double total = 0.0, largest = 0.0;
  for (int r = 0; r < ranks; ++r) {
    double w = 0.0;
    for (Where where : perRank0) {
      where.rank = r;
      w += c.a.value(where);
    }
    std::printf("[%s] rank %d wait states %.4f\n", c.a.name.c_str(), r, w);
    total += w;
    largest = std::max(largest, w);
  }
  c.that(total > 0.0, "no wait states at all");
  c.that(largest < 0.75 * total, "the wait states are concentrated on one rank");
}

TEST_F(AnalyzeApps, SorGats) {
  RECORD_ANALYZE_CHECK("sor", 4, "sor", kSorArgs, "", [](Checks& c) {
    for (int r = 0; r < 4; ++r) {
      const int nbrs = r == 0 || r == 3 ? 1 : 2;
      // Each rank synchronizes only with its neighbours and puts to each of them.
      c.count({"mpi_rma_pairsync_count", r}, 2 * kSorIters * nbrs);
      c.count({"mpi_rma_pairsync_unneeded_count", r}, 0);
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
    checkSpread(c, {{"mpi_rma_sync_late_post", 0}, {"mpi_rma_early_wait", 0}, {"mpi_wait_nxn", 0}}, 4);
  });
}

TEST_F(AnalyzeApps, SorFence) {
  RECORD_ANALYZE_CHECK("sor_fence", 4, "sor", kSorArgs + " --fence", "", [](Checks& c) {
    for (int r = 0; r < 4; ++r) {
      const int nbrs = r == 0 || r == 3 ? 1 : 2;
      // The closing fence of every exchange synchronizes with all 3 other ranks; unneeded = 3 -
      // neighbours. The opening fences (all but the first) close the empty epoch of the sweep: 3
      // unneeded each (sor.expected.md).
      const std::string fence = "main/MPI_Win_fence";
      const std::string opening = "MPI_Win_fence(0, win)#1", closing = "MPI_Win_fence(0, win)#2";
      c.count({"mpi_rma_pairsync_count", r, fence, closing}, 2 * kSorIters * 3);
      c.count({"mpi_rma_pairsync_unneeded_count", r, fence, closing}, 2 * kSorIters * (3 - nbrs));
      c.count({"mpi_rma_pairsync_count", r, fence, opening}, 3 * (2 * kSorIters - 1));
      c.count({"mpi_rma_pairsync_unneeded_count", r, fence, opening}, 3 * (2 * kSorIters - 1));
      c.zero({"mpi_rma_sync_late_post", r});
      c.zero({"mpi_rma_early_wait", r});
    }
    checkSpread(c, {{"mpi_rma_wait_at_fence", 0}, {"mpi_wait_nxn", 0}}, 4);
  });
}

// ---------------------------------------------------------------------------------------------
// p2p_coll: the MPI-1 patterns, one segment each; R rounds, D = DELAY, d = D/2.

TEST_F(AnalyzeApps, P2pColl) {
  const int n = 4, R = 2;  // R = 2, D = 80 ms (defaults 3, 20 ms)
  const double D = 0.080, d = D / 2;
  RECORD_ANALYZE_CHECK("p2p_coll", 4, "p2p_coll", "2 0.080", "", [&](Checks& c) {
    const std::string recv = "main/MPI_Recv";
    const double RD = R * D;
    const double quiet = noiseBound(R);
    for (int r : {1, 3}) {
      // 1 Late Sender
      c.near({"mpi_latesender", r, recv, "1 MPI_Recv (Late Sender)"}, RD);
      c.below({"mpi_latesender_wo", r, recv, "1 MPI_Recv (Late Sender)"}, quiet);
      // 3 wrong order, same source: the first receive waits for the message sent second.
      c.near({"mpi_latesender", r, recv, "3 MPI_Recv (wrong order, same)"}, RD);
      c.near({"mpi_lswo_same", r, recv, "3 MPI_Recv (wrong order, same)"}, RD);
      c.below({"mpi_lswo_different", r, recv, "3 MPI_Recv (wrong order, same)"}, quiet);
    }
    // 4 wrong order, different source (rank 1 only).
    c.near({"mpi_latesender", 1, recv, "4 MPI_Recv (wrong order, different)"}, RD);
    c.near({"mpi_lswo_different", 1, recv, "4 MPI_Recv (wrong order, different)"}, RD);
    c.below({"mpi_lswo_same", 1, recv, "4 MPI_Recv (wrong order, different)"}, quiet);
    // 2 Late Receiver on the senders, who never receive.
    for (int r : {0, 2}) {
      c.near({"mpi_latereceiver", r, "main/MPI_Ssend"}, RD);
      c.zero({"mpi_latesender", r});
    }
    for (int r : {1, 3}) c.zero({"mpi_latereceiver", r});
    // 5, 6 Barrier and NxN: rank r works r*d before the barrier and allreduce, (n-1-r)*d before alltoall.
    for (int r = 0; r < n; ++r) {
      const double down = R * (n - 1 - r) * d, up = R * r * d;
      const Where barrier{"mpi_barrier_wait", r, "main/MPI_Barrier"};
      const Where allreduce{"mpi_wait_nxn", r, "main/MPI_Allreduce"};
      const Where alltoall{"mpi_wait_nxn", r, "main/MPI_Alltoall"};
      if (down > 0) {
        c.near(barrier, down);
        c.near(allreduce, down);
      } else {
        c.below(barrier, quiet);
        c.below(allreduce, quiet);
      }
      if (up > 0) c.near(alltoall, up);
      else c.below(alltoall, quiet);
    }
    // 7 Late Broadcast on the non-roots; 8 Early Reduce on the root.
    for (int r = 1; r < n; ++r) {
      c.near({"mpi_latebroadcast", r, "main/MPI_Bcast"}, RD);
      c.zero({"mpi_earlyreduce", r});
    }
    c.zero({"mpi_latebroadcast", 0});
    c.near({"mpi_earlyreduce", 0, "main/MPI_Reduce"}, RD);
  });
}

// ---------------------------------------------------------------------------------------------
// seed002 (6 ranks): (a) ring with a delay travelling one rank per iteration, (b) triples with
// messages in wrong order.

TEST_F(AnalyzeApps, Seed002) {
  const int p = 6, N = 6;  // N = 6, D = 40 ms (defaults 10, 20 ms); N >= p - 1: every rank waits
  const double D = 0.040;
  RECORD_ANALYZE_CHECK("seed002", p, "seed002", "6 0.040", "", [&](Checks& c) {
    const std::string recv = "main/MPI_Recv", barrier = "main/MPI_Barrier";
    c.below({"mpi_latesender", 0, recv, "a MPI_Recv"}, noiseBound(N));
    for (int k = 1; k < p; ++k) {
      // (a) rank k waits D in iterations k-1..N-1 ...
      c.near({"mpi_latesender", k, recv, "a MPI_Recv"}, (N - k + 1) * D);
      c.below({"mpi_latesender_wo", k, recv, "a MPI_Recv"}, noiseBound(N));
      // ... and (k-1)*D in the first barrier (rank 0 leaves the ring first).
      const Where first{"mpi_barrier_wait", k, barrier, "a MPI_Barrier"};
      if (k > 1) c.near(first, (k - 1) * D);
      else c.below(first, noiseBound(1));
    }
    for (int r = 0; r < p; ++r) c.below({"mpi_latesender", r, "main/MPI_Wait"}, noiseBound(N));
    // (b) r%3==1 waits for r-1 while r+1's message is there; r%3==2 waits in the second barrier.
    for (int r : {1, 4}) {
      c.near({"mpi_latesender", r, recv, "b MPI_Recv(r-1)"}, N * D);
      c.near({"mpi_lswo_different", r, recv, "b MPI_Recv(r-1)"}, N * D);
      c.below({"mpi_latesender", r, recv, "b MPI_Recv(r+1)"}, noiseBound(N));
    }
    for (int r : {2, 5}) c.near({"mpi_barrier_wait", r, barrier, "b MPI_Barrier"}, N * D);
  });
}

// ---------------------------------------------------------------------------------------------
// Errors: the analyzer refuses a wrong rank count and a truncated trace, with one line each.

TEST_F(AnalyzeApps, WrongRankCountIsRefused) {
  const Analysis& a = analyze("fence", 4, "fence", kFenceArgs);
  ASSERT_EQ(a.recorded.exitCode, 0) << a.recorded.err;
  const fs::path report = *dir / "wrong-count.waitscope";
  const auto r = run(mpiexec(3) + " " + test::tool("waitscope-analyze") + " " + a.anchor + " -o " + report.string());
  EXPECT_EQ(r.exitCode, 1) << r.err;
  const auto lines = messageLines(r.err);
  ASSERT_EQ(lines.size(), 1u) << r.err;
  EXPECT_EQ(lines[0].rfind("waitscope-analyze: ", 0), 0u) << lines[0];
  EXPECT_NE(lines[0].find("4 MPI ranks"), std::string::npos) << lines[0];
  EXPECT_NE(lines[0].find("runs on 3"), std::string::npos) << lines[0];
  EXPECT_FALSE(fs::exists(report));
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
