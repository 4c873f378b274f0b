// Calls whose communication a trace cannot hold are said at record time, not found by the analysis
// later (docs/recording.md, "What is recorded"): recorded with waitscope-run, the run's stderr names
// the call at the first one and sums them at MPI_Finalize; what the analysis then does is what the
// warning announced.
#include <gtest/gtest.h>

#include <string>

#include "tests/support/test_support.h"

using namespace waitscope;
using test::run;

namespace {

const std::string kRootEnv = "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1";

struct Recorded {
  test::CommandResult record, analyze;
};

Recorded recordAndAnalyze(const test::TempDir& dir, const std::string& mode) {
  const std::string out = (dir / mode.substr(2)).string();
  Recorded r;
  r.record = run("timeout 120 " + test::tool("waitscope-run") + " -n 2 -o " + out + " -- " + WAITSCOPE_UNRECORDABLE +
                 " " + mode);
  r.analyze = run(kRootEnv + " timeout 120 " + std::string(WAITSCOPE_MPIEXEC) + " -n 2 " +
                  test::tool("waitscope-analyze") + " --quiet " + out + "/traces.otf2 -o " + out + ".waitscope");
  return r;
}

std::size_t countOf(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

// The recording succeeded and said `atCall` and `summary` once each.
void expectWarned(const Recorded& r, const std::string& atCall, const std::string& summary) {
  ASSERT_EQ(r.record.exitCode, 0) << r.record.err;
  EXPECT_EQ(countOf(r.record.err, atCall), 1u) << r.record.err;
  EXPECT_EQ(countOf(r.record.err, summary), 1u) << r.record.err;
}

// MPI_Request_free of a receive in progress: warned at the call and in the summary; the analysis
// then rejects the trace, as the warning says it will.
TEST(UnrecordedCalls, AFreedReceiveIsWarnedAboutAtRecordTime) {
  test::TempDir dir("waitscope-unrecorded");
  const Recorded r = recordAndAnalyze(dir, "--freed-receive");
  expectWarned(r, "waitscope: warning: rank 1: MPI_Request_free of a receive in progress: its message cannot be recorded",
               "waitscope: warning: 1 MPI call (the first: MPI_Request_free) could not be recorded in full");
  EXPECT_NE(r.analyze.exitCode, 0);
  EXPECT_NE(r.analyze.err.find("no matching"), std::string::npos) << r.analyze.err;
}

// A communicator from MPI_Comm_connect/_accept: said at both calls, its message left out, said at
// each end and counted (a send and a receive); the trace stays analyzable.
TEST(UnrecordedCalls, AConnectedCommunicatorIsWarnedAboutAndLeftOut) {
  test::TempDir dir("waitscope-unrecorded");
  const Recorded r = recordAndAnalyze(dir, "--connect");
  if (r.record.err.find("unrecordable: this MPI cannot open a port") != std::string::npos)
    GTEST_SKIP() << "this MPI implementation cannot open a port (MPI_Open_port): " << r.record.err;
  expectWarned(r, "waitscope: warning: MPI_Comm_accept: its communicator can reach processes outside this job's",
               "waitscope: warning: 2 MPI calls (the first: ");
  EXPECT_EQ(countOf(r.record.err, "waitscope: warning: MPI_Comm_connect: its communicator can reach"), 1u);
  EXPECT_EQ(countOf(r.record.err, "on a communicator the trace does not define (from MPI_Comm_spawn, _connect, "
                                  "_accept, _join or _get_parent) is recorded as a region only"),
            2u)
      << r.record.err;
  EXPECT_EQ(r.analyze.exitCode, 0) << r.analyze.err;
  const auto print = run("otf2-print " + (dir / "connect" / "traces.otf2").string());
  ASSERT_EQ(print.exitCode, 0) << print.err;
  EXPECT_EQ(countOf(print.out, "MPI_SEND "), 1u) << "only the port name's message";
  EXPECT_EQ(countOf(print.out, "MPI_RECV "), 1u);
}

// MPI calls of a second thread: said at the first, counted in the summary; the analysis rejects the
// trace (its receive has no send), as the warning says it may.
TEST(UnrecordedCalls, CallsOfAnotherThreadAreWarnedAbout) {
  test::TempDir dir("waitscope-unrecorded");
  const Recorded r = recordAndAnalyze(dir, "--thread");
  expectWarned(r, "waitscope: warning: rank 0: MPI_Send from a thread other than the one that called MPI_Init is not "
                  "recorded",
               "waitscope: warning: 1 MPI call (the first: MPI_Send) could not be recorded in full");
  EXPECT_NE(r.analyze.exitCode, 0);
  EXPECT_NE(r.analyze.err.find("has no matching send"), std::string::npos) << r.analyze.err;
}

}  // namespace
