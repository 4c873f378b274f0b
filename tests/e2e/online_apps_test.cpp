// End to end, the online analysis (issue "online", seed 002): `waitscope-run --online` on the
// example programs, against the trace analysis of the same programs, and the memory behaviour
// of seed 002's Fig. 2 programs under each channel selection and with the application pause.
//
// The memory checks use the paper's event-by-event channels (--batch 1 --channel-capacity 1) and
// zero delay, so the tool, not the program's busy work, sets the pace:
//  * triples (seed002 PATTERNS=2): with round-robin the matching table grows with the iteration
//    count (two senders per receiver: about one unmatched send per triple and round); the
//    memory-preferring heuristic (alpha 10, beta 1, as in the paper's study) keeps it bounded;
//  * ring (PATTERNS=1) under app|intra-root: the cross-place sends wait in the intralayer channel
//    while application events keep coming, so receives pile up; a small sigma pauses the
//    application and the peak stays within 5% of sigma.
// Online and trace runs are two runs of a busy-waiting program on 2 oversubscribed cores: a
// comparison that misses is run once more and only the second attempt's misses fail.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <utility>

#include "report/report.h"
#include "report/report_io.h"
#include "report/report_queries.h"
#include "test_support.h"

namespace fs = std::filesystem;
using namespace waitscope;

namespace {

std::unique_ptr<test::TempDir> gDir;

std::string app(const std::string& name) { return std::string(WAITSCOPE_APPS_DIR) + "/" + name; }

std::string run(int ranks) { return "timeout 300 " + test::tool("waitscope-run") + " -n " + std::to_string(ranks); }

double total(const report::Report& r, const std::string& metric) {
  const std::uint32_t m = r.findMetric(metric);
  return m == report::kNoId ? 0.0 : report::metricTotals(r)[m];
}

long meta(const report::Report& r, const std::string& key) { return std::stol(r.metaValue(key, "-1")); }

struct Online {
  test::CommandResult result;
  report::Report report;
};

Online online(const std::string& name, int ranks, const std::string& options, const std::string& program) {
  const std::string out = (*gDir / (name + ".waitscope")).string();
  Online o;
  o.result = test::run(run(ranks) + " --online " + options + " -o " + out + " -- " + program);
  EXPECT_EQ(o.result.exitCode, 0) << name << ": " << o.result.err;
  if (o.result.exitCode == 0) o.report = report::readReport(out);
  return o;
}

std::string readFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

class OnlineApps : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { gDir = std::make_unique<test::TempDir>("waitscope-online-e2e"); }
  static void TearDownTestSuite() { gDir.reset(); }
};

// Late Sender and Wait at NxN of one program, online and from a trace; misses (empty: agreed).
// With `constructed` > 0 the two runs' Late Sender is checked against that value, by
// construction, within 25% each instead of against each other (see the test below).
std::vector<std::string> compareWithTrace(const std::string& name, int ranks, const std::string& args, int attempt,
                                          double constructed) {
  const std::string key = name + "-" + std::to_string(attempt);
  const fs::path traceDir = *gDir / (key + "-trace");
  const std::string traceReport = (*gDir / (key + ".trace.waitscope")).string();
  const auto traced = test::run(run(ranks) + " -o " + traceDir.string() + " -- " + app(name) + " " + args);
  if (traced.exitCode != 0) return {"tracing failed: " + traced.err};
  const auto analyzed = test::run("OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout 300 " +
                                  std::string(WAITSCOPE_MPIEXEC) + " --oversubscribe -n " + std::to_string(ranks) + " " +
                                  test::tool("waitscope-analyze") + " " + (traceDir / "traces.otf2").string() +
                                  " -o " + traceReport);
  if (analyzed.exitCode != 0) return {"analysis failed: " + analyzed.err};
  const Online o = online(key, ranks, "--fan-in 2", app(name) + " " + args);
  if (o.result.exitCode != 0) return {"online run failed: " + o.result.err};
  const report::Report trace = report::readReport(traceReport);
  std::vector<std::string> misses;
  for (const char* metric : {"mpi_latesender", "mpi_wait_nxn"}) {
    const double t = total(trace, metric), on = total(o.report, metric);
    std::printf("[%s attempt %d] %s: trace %.4f s, online %.4f s (%+.1f%%)\n", name.c_str(), attempt, metric, t, on,
                t > 0 ? 100.0 * (on - t) / t : 0.0);
    if (t < 0.05) continue;  // nothing constructed here
    if (constructed > 0.0 && std::string(metric) == "mpi_latesender") {
      for (const auto& [what, v] : {std::pair{"online", on}, std::pair{"trace", t}})
        if (!(std::fabs(v - constructed) <= 0.25 * constructed))
          misses.push_back(std::string(metric) + ": " + what + " " + std::to_string(v) + " s, constructed " +
                           std::to_string(constructed) + " s");
      continue;
    }
    if (!(std::fabs(on - t) <= 0.05 * t))
      misses.push_back(std::string(metric) + ": online " + std::to_string(on) + " s, trace " + std::to_string(t) + " s");
  }
  return misses;
}

}  // namespace

// p2p_coll: online within 5% of the trace analysis. seed002 on 6 ranks plus the places on 2
// cores: its Late Sender travels through the ring (indirect waits), so one rank losing its core
// changes it for all; two traced runs differed by 17% in CI. There both runs must find the
// constructed Late Sender (seed002.expected.md, N = 10, D = 0.1: ring N*D + (N-1+...+N-4)*D =
// 4.0 s, triples 2*N*D = 2.0 s) within 25%.
TEST_F(OnlineApps, LateSenderAndWaitAtNxNAgreeWithTheTraceAnalysis) {
  struct Case {
    std::string name, args;
    int ranks;
    double constructedLateSender;  // 0: compare with the trace analysis
  };
  for (const Case& c : {Case{"p2p_coll", "2 0.2", 4, 0.0}, Case{"seed002", "10 0.1", 6, 6.0}}) {
    std::vector<std::string> misses = compareWithTrace(c.name, c.ranks, c.args, 1, c.constructedLateSender);
    if (misses.empty()) continue;
    for (const auto& m : misses) std::printf("[%s] attempt 1 missed: %s\n", c.name.c_str(), m.c_str());
    for (const auto& m : compareWithTrace(c.name, c.ranks, c.args, 2, c.constructedLateSender))
      ADD_FAILURE() << c.name << ": " << m;
  }
}

// Peak matching tables of the triples at 500 and 2000 iterations; misses (empty: as expected).
static std::vector<std::string> triples(int ranks, int attempt) {
  const std::string channels = "--fan-in 3 --batch 1 --channel-capacity 1 ";
  long rr[2] = {0, 0}, heuristic[2] = {0, 0};
  const int iterations[2] = {500, 2000};
  for (int k = 0; k < 2; ++k) {
    const std::string program = app("seed002") + " " + std::to_string(iterations[k]) + " 0 2";
    const std::string tag = std::to_string(ranks) + "-" + std::to_string(iterations[k]) + "-" + std::to_string(attempt);
    rr[k] = meta(online("rr-" + tag, ranks, channels + "--selection round-robin", program).report, "online_peak_matching");
    heuristic[k] = meta(online("h-" + tag, ranks, channels + "--selection heuristic --alpha 10 --beta 1", program).report,
                        "online_peak_matching");
    std::printf("[%d ranks, %d iterations, attempt %d] peak matching table: round-robin %ld, heuristic %ld\n", ranks,
                iterations[k], attempt, rr[k], heuristic[k]);
  }
  std::vector<std::string> misses;
  // round-robin: about one unmatched send per triple and iteration, growing with the iterations
  if (!(rr[1] >= 1.5 * static_cast<double>(rr[0]) && rr[1] >= iterations[1] / 2))
    misses.push_back("round-robin did not grow: " + std::to_string(rr[0]) + " -> " + std::to_string(rr[1]));
  // the heuristic: bounded, far below
  if (!(heuristic[1] < iterations[1] / 4 && 4 * heuristic[1] < rr[1]))
    misses.push_back("the heuristic's table was not bounded: " + std::to_string(heuristic[1]));
  return misses;
}

TEST_F(OnlineApps, TheHeuristicBoundsTheTriplesMatchingTableRoundRobinDoesNot) {
  for (const int ranks : {6, 12}) {
    // the heuristic follows past behaviour: a rank descheduled for long on a busy machine leaves
    // its channel empty and the senders' events are taken instead; so a second attempt
    if (triples(ranks, 1).empty()) continue;
    for (const auto& m : triples(ranks, 2)) ADD_FAILURE() << ranks << " ranks: " << m;
  }
}

TEST_F(OnlineApps, ThePauseKeepsThePeakNearSigma) {
  const std::string options = "--fan-in 3 --batch 1 --channel-capacity 1 --selection app-intra-root ";
  const std::string program = app("seed002") + " 8000 0 1";
  const long sigma = 500;
  // without a pause the ring's receives pile up far beyond sigma ...
  const Online free = online("ring-nopause", 6, options, program);
  EXPECT_GT(meta(free.report, "online_peak_queue"), 3 * sigma);
  EXPECT_EQ(meta(free.report, "online_pauses"), 0);
  // ... with one the run finishes and the peak stays within a few percent of sigma
  for (const int ranks : {6, 12}) {
    const std::string out = (*gDir / ("ring-pause-" + std::to_string(ranks) + ".waitscope")).string();
    const Online o = online("ring-pause-" + std::to_string(ranks), ranks, options + "--sigma " + std::to_string(sigma),
                            program);
    const long peak = meta(o.report, "online_peak_queue"), pauses = meta(o.report, "online_pauses");
    std::printf("[ring, %d ranks, sigma %ld] pauses %ld, peak queue %ld\n", ranks, sigma, pauses, peak);
    EXPECT_GE(pauses, 1);
    EXPECT_LE(peak, sigma * 105 / 100);
    EXPECT_EQ(o.report.metaValue("online_state"), "finished");
    EXPECT_NE(o.result.out.find("seed002: " + std::to_string(ranks) + " ranks"), std::string::npos) << o.result.out;
  }
}

TEST_F(OnlineApps, TheApplicationKeepsItsOwnWorld) {
  // 6 application ranks and 3 tool places: the program sees 6 ranks, its messages (checked by
  // the program, which fails on a wrong one) reach its own ranks, and it exits normally.
  const Online o = online("world", 6, "--fan-in 3", app("seed002") + " 20 0");
  EXPECT_NE(o.result.out.find("seed002: 6 ranks, 20 iterations per pattern"), std::string::npos) << o.result.out;
  EXPECT_NE(o.result.out.find("6 application ranks, 3 tool places in 2 layers (fan-in 3)"), std::string::npos) << o.result.out;
  EXPECT_EQ(o.report.locations.size(), 6u);
  EXPECT_EQ(o.report.metaValue("kind"), "online");
  const Online p = online("world-p2p", 4, "--tool-ranks 1", app("p2p_coll") + " 1 0.01");
  EXPECT_EQ(p.report.locations.size(), 4u);
  EXPECT_EQ(p.report.metaValue("online_tree"), "4 application ranks, 1 tool place in 1 layer (fan-in 4)");
}

TEST_F(OnlineApps, TheRootRewritesTheReportWhileTheProgramRuns) {
  const std::string out = (*gDir / "live.waitscope").string();
  const Online o = online("live", 4, "--snapshot-interval 0.2", app("p2p_coll") + " 2 0.05");
  EXPECT_GE(meta(o.report, "online_snapshot"), 3);  // a run of about 2 s, a snapshot every 0.2 s
  const std::string live = readFile(out + ".live");
  EXPECT_NE(live.find("\"state\": \"finished\""), std::string::npos) << live;
  EXPECT_NE(live.find("\"snapshot\": " + o.report.metaValue("online_snapshot")), std::string::npos) << live;
  EXPECT_GT(total(o.report, "mpi_latesender"), 0.1);
}

TEST_F(OnlineApps, BadOptionsSayWhatToDo) {
  const auto wrongPlaces = test::run(run(6) + " --online --tool-ranks 5 -- " + app("seed002"));
  EXPECT_NE(wrongPlaces.exitCode, 0);
  EXPECT_NE(wrongPlaces.err.find("no tree of 5 tool places fits 6 application ranks"), std::string::npos)
      << wrongPlaces.err;
  const auto both = test::run(run(2) + " --online --profile -- " + app("seed002"));
  EXPECT_NE(both.err.find("--online and --profile exclude each other"), std::string::npos) << both.err;
  const auto selection = test::run(run(2) + " --online --selection fastest -- " + app("seed002"));
  EXPECT_NE(selection.err.find("use heuristic, round-robin, intra-root-app or app|intra-root"), std::string::npos)
      << selection.err;
  const auto sigma = test::run(run(2) + " --online --sigma 10 --sigma-resume 20 -- " + app("seed002"));
  EXPECT_NE(sigma.err.find("--sigma-resume must be below --sigma"), std::string::npos) << sigma.err;
}
