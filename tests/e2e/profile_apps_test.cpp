// End to end, the wait-state profiler against the trace analysis (seed 004, 4.1): every
// example program of tests/apps is recorded twice, once traced (waitscope-run, then
// `mpiexec -n N waitscope-analyze`) and once profiled (waitscope-run --profile
// --waitall-test), and the two reports are compared as `waitscope-report compare` does.
// Every comparison table is printed (ctest --output-on-failure, or run the executable).
//
// Checked, as the paper found: where the method's premise holds -- the constructed waits
// dominate and some visits of each function are wait-free -- the Late Sender estimate of
// blocking receives (MPI_Recv) and the Wait at NxN estimate of all-to-all collectives are
// within 2 percentage points of the trace analysis' wait ratio: p2p_coll and seed002. Every
// checked row must exist (at >= 0.5%), so the checks cannot pass empty.
//
// Reported, not checked (docs/profiling.md, "Accuracy" has the measured figures):
//  * MPI_Waitall (halo) and MPI_Wait, with and without the test-based exclusion: the paper's
//    known overestimate;
//  * chain: rank 1 waits in every MPI_Recv (a persistent imbalance), so no visit is wait-free
//    and the minimum is itself a wait: the estimate is far too low (the paper's 145.lGemsFDTD);
//  * sor, halo: balanced or nearly so; their MPI_Allreduce time above the minimum is mostly
//    descheduling of 4 busy ranks on 2 cores after the last one entered, which the trace
//    analysis calls N x N Completion and the minimum method cannot tell from waiting;
//  * Late Receiver, Late Broadcast, Early Reduce, barriers and RMA synchronization.
// Also checked: the profile run writes nothing but its report.
//
// The two recordings are two runs of a busy-waiting program on 2 oversubscribed cores, so a
// busy machine can move single waits by tens of ms: a program whose checks miss is recorded
// both ways once more, and only misses of the second attempt fail (both are printed).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "report/report.h"
#include "report/report_io.h"
#include "report_compare.h"
#include "test_support.h"

namespace fs = std::filesystem;
using namespace waitscope;

namespace {

constexpr double kMaxPoints = 2.0;   // the paper's accuracy for MPI_Recv and all-to-all
constexpr double kMinPercent = 0.5;  // the paper's threshold for call paths

std::string mpiexec(int ranks) {
  return std::string("OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout 120 ") + WAITSCOPE_MPIEXEC +
         " --oversubscribe -n " + std::to_string(ranks);
}

struct App {
  std::string program;
  int ranks;
  std::string args;
  // (metric, last region of the call path): rows that must exist and be within 2 pp.
  std::vector<std::pair<std::string, std::string>> checked;
  // Late Sender rows of these functions must exist and carry the test-based number too.
  std::vector<std::string> reportedWithTest = {};
};

bool endsWith(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

class ProfileApps : public ::testing::Test {
 protected:
  static std::unique_ptr<test::TempDir> dir;
  static void SetUpTestSuite() { dir = std::make_unique<test::TempDir>("waitscope-profile-e2e"); }
  static void TearDownTestSuite() { dir.reset(); }

  // One attempt: both recordings and the comparison; returns the misses (empty: passed).
  static std::vector<std::string> attempt(const App& app, int round) {
    const std::string key = app.program + "-" + std::to_string(round);
    const fs::path traceDir = *dir / (key + "-trace");
    const std::string traceReport = (*dir / (key + ".trace.waitscope")).string();
    const std::string profileReport = (*dir / (key + ".profile.waitscope")).string();
    const std::string program = std::string(WAITSCOPE_APPS_DIR) + "/" + app.program + " " + app.args;
    const std::string run = "timeout 120 " + test::tool("waitscope-run") + " -n " + std::to_string(app.ranks);

    const auto traced = test::run(run + " -o " + traceDir.string() + " -- " + program);
    if (traced.exitCode != 0) return {"tracing failed: " + traced.err};
    const auto analyzed = test::run(mpiexec(app.ranks) + " " + test::tool("waitscope-analyze") + " " +
                                    (traceDir / "traces.otf2").string() + " -o " + traceReport);
    if (analyzed.exitCode != 0) return {"analysis failed: " + analyzed.err};
    const fs::path profileDir = *dir / (key + "-profile");
    fs::create_directories(profileDir);
    const auto profiled = test::run("cd " + profileDir.string() + " && " + run + " --profile --waitall-test -o " +
                                    profileReport + " -- " + program);
    if (profiled.exitCode != 0) return {"profiling failed: " + profiled.err};
    std::vector<std::string> misses;
    // No trace: nothing but the report was written.
    if (!fs::is_empty(profileDir)) misses.push_back("the profile run wrote files in its directory");
    if (profiled.out.find("profile written to " + profileReport) == std::string::npos)
      misses.push_back("waitscope-run did not say where the profile is: " + profiled.out);

    const report::Report profile = report::readReport(profileReport);
    const report::Report trace = report::readReport(traceReport);
    const auto rows = tools::compareReports(profile, trace, kMinPercent);
    std::printf("[%s, attempt %d]\n", app.program.c_str(), round);
    tools::printComparison(rows, kMinPercent, profileReport, traceReport, std::cout);
    std::cout.flush();

    for (const auto& [metric, region] : app.checked) {
      bool found = false;
      for (const auto& r : rows) found = found || (r.metric == metric && endsWith(r.callPath, "/" + region));
      if (!found) misses.push_back("no " + metric + " row for " + region + " at >= 0.5%");
    }
    for (const std::string& region : app.reportedWithTest) {
      bool found = false;
      for (const auto& r : rows)
        found = found || (r.metric == "mpi_latesender" && endsWith(r.callPath, "/" + region) && r.hasTested);
      if (!found) misses.push_back("no Late Sender row with the test-based estimate for " + region);
    }
    for (const auto& r : rows) {
      bool checked = false;
      for (const auto& [metric, region] : app.checked)
        checked = checked || (r.metric == metric && endsWith(r.callPath, "/" + region));
      char line[256];
      std::snprintf(line, sizeof line, "%s %s [%s]: profile %.2f%%, trace %.2f%%, %+.2f pp", r.pattern.c_str(),
                    r.callPath.c_str(), r.callSite.c_str(), r.profileRatio, r.traceRatio, r.differencePoints());
      if (checked && !(std::fabs(r.differencePoints()) <= kMaxPoints))
        misses.push_back(std::string(line) + " (more than 2 pp apart)");
      if (r.hasTested)
        std::printf("[%s] MPI_Wait(all) deviation reported: %s; with the test-based exclusion %.2f%%, %+.2f pp\n",
                    app.program.c_str(), line, r.testedRatio, r.testedRatio - r.traceRatio);
    }
    return misses;
  }

  static void check(const App& app) {
    std::vector<std::string> misses = attempt(app, 1);
    if (misses.empty()) return;
    for (const auto& m : misses) std::printf("[%s] attempt 1 missed: %s\n", app.program.c_str(), m.c_str());
    misses = attempt(app, 2);
    for (const auto& m : misses) ADD_FAILURE() << app.program << ": " << m;
  }
};
std::unique_ptr<test::TempDir> ProfileApps::dir;
using profile_apps = ProfileApps;

TEST_F(profile_apps, P2pColl) {
  check({"p2p_coll", 4, "2 0.150",
         {{"mpi_latesender", "MPI_Recv"}, {"mpi_wait_nxn", "MPI_Allreduce"}, {"mpi_wait_nxn", "MPI_Alltoall"}}});
}
TEST_F(profile_apps, Seed002) { check({"seed002", 6, "6 0.100", {{"mpi_latesender", "MPI_Recv"}}}); }
// Reported only (see the top of the file): persistent imbalance, noise-dominated collectives,
// MPI_Waitall, RMA.
TEST_F(profile_apps, Chain) { check({"chain", 3, "5 0.040", {}}); }
TEST_F(profile_apps, Halo) { check({"halo", 4, "40 0.010", {}, {"MPI_Waitall"}}); }
TEST_F(profile_apps, Sor) { check({"sor", 4, "770 300", {}}); }
TEST_F(profile_apps, Fence) { check({"fence", 4, "5 0.040", {}}); }
TEST_F(profile_apps, Gats) { check({"gats", 4, "5 0.040", {}}); }
TEST_F(profile_apps, Lock) { check({"lock", 4, "3 0.080", {}}); }

}  // namespace
