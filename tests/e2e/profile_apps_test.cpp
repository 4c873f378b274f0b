// End to end, the wait-state profiler against the trace analysis (Mao et al., EuroMPI/ASIA 2014,
// section 4.1): every
// example program of tests/apps is recorded twice, once traced (waitscope-run, then
// `mpiexec -n N waitscope-analyze`) and once profiled (waitscope-run --profile
// --waitall-test), and the two reports are compared as `waitscope-report compare` does.
// Every comparison table is printed (ctest --output-on-failure, or run the executable).
//
// Checked, as the paper found: where the method's premise holds -- the constructed waits
// dominate and some visits of each function are wait-free -- the Late Sender estimate of
// blocking receives (MPI_Recv) and the Wait at NxN estimate of all-to-all collectives are
// within 2 percentage points of the trace analysis' wait ratio: p2p_coll and ring_triples. Every
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

#include "analysis/report/report.h"
#include "analysis/report/profile_comparison.h"
#include "analysis/report/report_io.h"
#include "analysis/report/report_queries.h"
#include "tests/support/test_support.h"

namespace fs = std::filesystem;
using namespace waitscope;

namespace {

constexpr double kMaxPoints = 2.0;   // the paper's accuracy for MPI_Recv and all-to-all
constexpr double kMinPercent = 0.5;  // the paper's threshold for call paths

std::string mpiexec(int ranks) {
  return std::string("OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout 120 ") + WAITSCOPE_MPIEXEC +
         " -n " + std::to_string(ranks);
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
    const auto rows = report::compareReports(profile, trace, kMinPercent);
    std::printf("[%s, attempt %d]\n", app.program.c_str(), round);
    report::printComparison(rows, kMinPercent, profileReport, traceReport, std::cout);
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
TEST_F(profile_apps, RingTriples) { check({"ring_triples", 6, "6 0.200", {{"mpi_latesender", "MPI_Recv"}}}); }
// Reported only (see the top of the file): persistent imbalance, noise-dominated collectives,
// MPI_Waitall, RMA.
TEST_F(profile_apps, Chain) { check({"chain", 3, "5 0.040", {}}); }
TEST_F(profile_apps, Halo) { check({"halo", 4, "40 0.010", {}, {"MPI_Waitall"}}); }
TEST_F(profile_apps, Sor) { check({"sor", 4, "770 300", {}}); }
TEST_F(profile_apps, Fence) { check({"fence", 4, "5 0.040", {}}); }
TEST_F(profile_apps, Gats) { check({"gats", 4, "5 0.040", {}}); }
TEST_F(profile_apps, Lock) { check({"lock", 4, "3 0.080", {}}); }

// The profile of p2p_coll, exactly: what the profiler counts does not depend on timing.
TEST_F(profile_apps, CountsAreExact) {
  const std::string out = (*dir / "counts.waitscope").string();
  const auto r = test::run("timeout 120 " + test::tool("waitscope-run") + " --profile -n 4 -o " + out + " -- " +
                           WAITSCOPE_APPS_DIR + "/p2p_coll 2 0.020");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const report::Report rep = report::readReport(out);
  EXPECT_EQ(rep.metaValue("kind"), "profile");
  EXPECT_EQ(rep.metaValue("waitall_test_exclusion"), "off");
  EXPECT_EQ(rep.metaValue("locations"), "4");
  EXPECT_EQ(rep.findMetric("mpi_latesender_tested_estimate"), report::kNoId);
  ASSERT_EQ(rep.locations.size(), 4u);
  const std::uint32_t visits = rep.findMetric("visits");
  ASSERT_NE(visits, report::kNoId);
  auto count = [&](const std::string& path, int rank) {
    double sum = 0.0;
    for (std::uint32_t c = 0; c < rep.callPaths.size(); ++c)
      if (report::callPathString(rep, c) == path) sum += report::valuesByLocation(rep, visits, c)[rank];
    return sum;
  };
  // p2p_coll.expected.md, R = 2: receivers 1 and 3 receive 6R and 4R messages, senders send 4R
  // and R synchronously; every rank calls each collective R times.
  const double R = 2;
  EXPECT_EQ(count("main", 0), 1.0);
  for (int rank = 0; rank < 4; ++rank) {
    EXPECT_EQ(count("main/MPI_Init", rank), 1.0);
    EXPECT_EQ(count("main/MPI_Finalize", rank), 1.0);
    for (const char* coll : {"main/MPI_Barrier", "main/MPI_Allreduce", "main/MPI_Alltoall", "main/MPI_Bcast",
                             "main/MPI_Reduce"})
      EXPECT_EQ(count(coll, rank), R) << coll << " on rank " << rank;
  }
  EXPECT_EQ(count("main/MPI_Recv", 1), 6 * R);
  EXPECT_EQ(count("main/MPI_Recv", 3), 4 * R);
  EXPECT_EQ(count("main/MPI_Recv", 0), 0.0);
  EXPECT_EQ(count("main/MPI_Send", 0), 4 * R);
  EXPECT_EQ(count("main/MPI_Ssend", 2), R);
  // Every call path of an MPI function has its call site.
  for (std::uint32_t c = 0; c < rep.callPaths.size(); ++c) {
    if (rep.regions[rep.callPaths[c].region].paradigm == "mpi") {
      EXPECT_TRUE(rep.callPaths[c].callSiteFile.ends_with("p2p_coll.c")) << report::callPathString(rep, c);
    }
  }
}

TEST_F(profile_apps, RunRefusesWrongOptions) {
  const std::string run = test::tool("waitscope-run");
  const std::string app = std::string(WAITSCOPE_APPS_DIR) + "/p2p_coll";
  const auto noProfile = test::run(run + " --waitall-test -n 4 -- " + app);
  EXPECT_EQ(noProfile.exitCode, 2);
  EXPECT_EQ(noProfile.err, "waitscope-run: --waitall-test needs --profile\n");
  const auto directory = test::run(run + " --profile -n 4 -o " + dir->path().string() + " -- " + app);
  EXPECT_EQ(directory.exitCode, 2);
  EXPECT_EQ(directory.err, "waitscope-run: the profile report " + dir->path().string() +
                               " is a directory; name a file with -o\n");
}

}  // namespace
