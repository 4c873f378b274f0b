// Runs that end abnormally leave a readable, partial trace: the probe program records a known
// number of calls, then rank 0 ends the run (MPI_Abort, SIGSEGV, abort(), SIGTERM, SIGINT) or
// the whole job is killed (SIGTERM to waitscope-run, passed on by mpiexec). Each trace must be
// accepted by otf2-print and our reader with exactly the events up to the end, its open regions
// closed, marked incomplete with the reason; waitscope-analyze refuses it with one line.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "analysis/trace/otf2_reader.h"
#include "tests/support/test_support.h"

namespace fs = std::filesystem;
using namespace waitscope;
using test::run;

namespace {

constexpr int kCalls = 1000;
constexpr int kRanks = 3;
const std::string kRootEnv = "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1";

class AbortedRun : public ::testing::Test {
 protected:
  static std::unique_ptr<test::TempDir> dir;
  static void SetUpTestSuite() { dir = std::make_unique<test::TempDir>("waitscope-abort"); }
  static void TearDownTestSuite() { dir.reset(); }

  static test::CommandResult record(const std::string& key, const std::string& probeArgs) {
    return run("timeout 180 " + test::tool("waitscope-run") + " -n " + std::to_string(kRanks) + " -o " +
               (*dir / key).string() + " -- " + WAITSCOPE_PROBE + " --calls " + std::to_string(kCalls) + " " +
               probeArgs);
  }
  static std::string anchor(const std::string& key) { return (*dir / key / "traces.otf2").string(); }
};
std::unique_ptr<test::TempDir> AbortedRun::dir;

struct Counts {
  std::map<std::string, int> enters;
  int leaves = 0, allEnters = 0;
  int enter(const std::string& r) const {
    auto it = enters.find(r);
    return it == enters.end() ? 0 : it->second;
  }
};

// Checks what every partial trace must satisfy and returns per-rank counts.
std::vector<Counts> checkPartialTrace(const test::CommandResult& recorded, const std::string& anchorPath,
                                      const std::string& reason) {
  EXPECT_NE(recorded.exitCode, 0) << recorded.err;
  EXPECT_NE(recorded.err.find("is incomplete"), std::string::npos) << recorded.err;
  EXPECT_NE(recorded.out.find("incomplete trace written to"), std::string::npos) << recorded.out;
  const auto print = run(std::string(OTF2_PRINT) + " " + anchorPath + " > /dev/null");
  EXPECT_EQ(print.exitCode, 0) << print.err;
  trace::ReadOptions quiet;
  quiet.warn = [](const std::string&) {};
  const trace::Trace t = trace::readTrace(anchorPath, quiet);
  EXPECT_NE(t.incomplete.find(reason), std::string::npos) << t.incomplete;
  // Every tool that reads it (timeline, report) warns: the reader says so.
  EXPECT_TRUE(!t.warnings.empty() && t.warnings.front().find("the trace is incomplete") != std::string::npos)
      << (t.warnings.empty() ? std::string("no warning") : t.warnings.front());
  std::uint64_t announced = 0;
  for (const auto& loc : t.defs->locations) announced += loc.eventCount;
  EXPECT_EQ(announced, t.eventCount() + t.ignoredEvents);
  std::vector<Counts> out(t.locations.size());
  EXPECT_EQ(out.size(), static_cast<std::size_t>(kRanks));
  for (std::size_t r = 0; r < t.locations.size(); ++r) {
    for (const trace::Event& e : t.locations[r].events) {
      if (e.kind == trace::EventKind::Enter) {
        ++out[r].allEnters;
        ++out[r].enters[t.defs->regions[t.callTree[e.ref].region].name];
      } else if (e.kind == trace::EventKind::Leave) {
        ++out[r].leaves;
      }
    }
    EXPECT_EQ(out[r].allEnters, out[r].leaves) << "rank " << r << ": open regions are closed at the end";
    // Everything before the end: the calls, the derived communicators, the requests, the window.
    EXPECT_EQ(out[r].enter("MPI_Comm_rank"), kCalls + 2) << r;
    EXPECT_EQ(out[r].enter("MPI_Comm_split"), 1) << r;
    EXPECT_EQ(out[r].enter("MPI_Waitall"), 5) << r;
    EXPECT_EQ(out[r].enter("MPI_Win_free"), 1) << r;
    EXPECT_EQ(out[r].enter("main"), 1) << r;
    EXPECT_EQ(out[r].enter("MPI_Finalize"), 0) << r;
  }
  // The communicators and the window defined before the end are in the definitions.
  std::map<std::string, int> comms;
  for (const auto& comm : t.defs->comms) ++comms[comm.name];
  EXPECT_EQ(comms["MPI_Comm_split"], 2);
  EXPECT_EQ(comms["MPI_Comm_dup"], 1);
  EXPECT_EQ(t.defs->windows.size(), 1u);
  return out;
}

// waitscope-analyze refuses a partial trace with one line (no hang: timeout 120).
void checkAnalyzeRefuses(const std::string& anchorPath) {
  const auto r = run(kRootEnv + " timeout 120 " + std::string(WAITSCOPE_MPIEXEC) + " -n " +
                     std::to_string(kRanks) + " " + test::tool("waitscope-analyze") + " " + anchorPath + " -o " +
                     anchorPath + ".waitscope");
  EXPECT_EQ(r.exitCode, 1) << r.err;
  int lines = 0;
  for (std::size_t pos = 0; (pos = r.err.find("waitscope-analyze: ", pos)) != std::string::npos; ++pos) ++lines;
  EXPECT_EQ(lines, 1) << r.err;
  EXPECT_NE(r.err.find("the trace is incomplete"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(anchorPath + ".waitscope"));
}

// Rank 0 ends the run after its second barrier; the others wait in their third (or are still
// on their way to it when they are killed).
void checkRankZeroEnded(const std::vector<Counts>& c) {
  ASSERT_EQ(c.size(), static_cast<std::size_t>(kRanks));
  EXPECT_EQ(c[0].enter("MPI_Barrier"), 2);
  for (int r = 1; r < kRanks; ++r) {
    EXPECT_GE(c[r].enter("MPI_Barrier"), 2) << r;
    EXPECT_LE(c[r].enter("MPI_Barrier"), 3) << r;
  }
}

TEST_F(AbortedRun, MpiAbort) {
  const auto rec = record("abort", "--crash abort");
  const auto c = checkPartialTrace(rec, anchor("abort"), "rank 0: MPI_Abort");
  checkRankZeroEnded(c);
  EXPECT_EQ(c[0].enter("MPI_Abort"), 1);
  checkAnalyzeRefuses(anchor("abort"));
}

TEST_F(AbortedRun, Segfault) {
  const auto c = checkPartialTrace(record("segv", "--crash segv"), anchor("segv"), "rank 0: SIGSEGV");
  checkRankZeroEnded(c);
  checkAnalyzeRefuses(anchor("segv"));
}

TEST_F(AbortedRun, AbortSignal) {
  checkRankZeroEnded(checkPartialTrace(record("abrt", "--crash abrt"), anchor("abrt"), "rank 0: SIGABRT"));
}

TEST_F(AbortedRun, Terminated) {
  checkRankZeroEnded(checkPartialTrace(record("term", "--crash term"), anchor("term"), "SIGTERM"));
}

TEST_F(AbortedRun, Interrupted) {
  checkRankZeroEnded(checkPartialTrace(record("int", "--crash int"), anchor("int"), "rank 0: SIGINT"));
}

// The job killed from outside: SIGTERM to waitscope-run, which passes it on to mpiexec; every
// rank waits in MPI_Recv by then.
TEST_F(AbortedRun, JobKilled) {
  const fs::path ready = *dir / "hang.ready";
  // --foreground: timeout must not signal the whole process group itself
  const std::string cmd = "timeout --foreground 180 " + test::tool("waitscope-run") + " -n " + std::to_string(kRanks) + " -o " +
                          (*dir / "killed").string() + " -- " + WAITSCOPE_PROBE + " --calls " +
                          std::to_string(kCalls) + " --hang " + ready.string();
  const auto rec = run("( " + cmd + " & p=$!; i=0; while [ ! -e " + ready.string() +
                       " ] && [ $i -lt 1200 ]; do sleep 0.1; i=$((i+1)); done; sleep 0.5; kill -TERM $p; wait $p )");
  const auto c = checkPartialTrace(rec, anchor("killed"), "ranks 0,1,2: SIGTERM");
  for (int r = 0; r < kRanks; ++r) {
    EXPECT_EQ(c[r].enter("MPI_Recv"), 1) << r;
    EXPECT_EQ(c[r].enter("MPI_Barrier"), 2) << r;
  }
  checkAnalyzeRefuses(anchor("killed"));
}

// One rank killed with SIGKILL (no handler runs): its buffered events are lost, it appears
// with none, the others (ended by mpiexec with SIGTERM) keep theirs, and the reason says so.
TEST_F(AbortedRun, RankKilledWithSigkill) {
  const fs::path ready = *dir / "sigkill.ready";
  const std::string probe = WAITSCOPE_PROBE;
  const std::string cmd = "timeout --foreground 180 " + test::tool("waitscope-run") + " -n " +
                          std::to_string(kRanks) + " -o " + (*dir / "sigkill").string() + " -- " + probe +
                          " --calls " + std::to_string(kCalls) + " --hang " + ready.string();
  // The ranks' command lines start with the probe's path (mpiexec's and waitscope-run's do not).
  const auto rec = run("( " + cmd + " & p=$!; i=0; while [ ! -e " + ready.string() +
                       " ] && [ $i -lt 1200 ]; do sleep 0.1; i=$((i+1)); done; sleep 0.5; "
                       "kill -KILL $(pgrep -f '^" + probe + " --calls' | head -1); wait $p )");
  EXPECT_NE(rec.exitCode, 0);
  EXPECT_NE(rec.err.find("1 rank(s) killed before flushing"), std::string::npos) << rec.err;
  const std::string a = anchor("sigkill");
  EXPECT_EQ(run(std::string(OTF2_PRINT) + " " + a + " > /dev/null").exitCode, 0);
  trace::ReadOptions quiet;
  quiet.warn = [](const std::string&) {};
  const trace::Trace t = trace::readTrace(a, quiet);
  ASSERT_EQ(t.locations.size(), static_cast<std::size_t>(kRanks));
  int empty = 0;
  for (const auto& loc : t.locations) {
    if (loc.events.empty()) {
      ++empty;
      continue;
    }
    int rank = 0;
    for (const trace::Event& e : loc.events)
      rank += e.kind == trace::EventKind::Enter && t.defs->regions[t.callTree[e.ref].region].name == "MPI_Comm_rank";
    EXPECT_EQ(rank, kCalls + 2);
  }
  EXPECT_EQ(empty, 1);
  checkAnalyzeRefuses(a);
}

// A program linked with the library and run without waitscope-run: --complete finishes it.
TEST_F(AbortedRun, CompleteByHand) {
  const fs::path out = *dir / "by-hand";
  const auto rec = run(kRootEnv + " OMPI_MCA_odls_base_sigkill_timeout=3 WAITSCOPE_QUIET=1 WAITSCOPE_TRACE_DIR=" + out.string() + " timeout 180 " +
                       std::string(WAITSCOPE_MPIEXEC) + " -n " + std::to_string(kRanks) + " " +
                       WAITSCOPE_PROBE + " --calls " + std::to_string(kCalls) + " --crash abort");
  EXPECT_NE(rec.exitCode, 0);
  EXPECT_FALSE(fs::exists(out / "traces.otf2"));
  auto done = run(test::tool("waitscope-run") + " --complete " + out.string());
  EXPECT_EQ(done.exitCode, 0) << done.err;
  done.exitCode = 1;  // checkPartialTrace expects the failed run's result
  done.out = "incomplete trace written to";
  checkRankZeroEnded(checkPartialTrace(done, (out / "traces.otf2").string(), "rank 0: MPI_Abort"));
  EXPECT_NE(run(test::tool("waitscope-run") + " --complete " + out.string()).exitCode, 0);  // nothing left to do
}

}  // namespace
