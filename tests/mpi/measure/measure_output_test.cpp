// Where recording and analysis write must not cost the user anything or pass a failed write off
// as a written one: a trace that does not fit on the disk is never called written (one line,
// non-zero exit, nothing left that reads as a trace); a read-only directory is called read-only;
// waitscope-analyze never writes its report over a file of its trace or over any file that is
// not a Waitscope report. Full and read-only file systems are small tmpfs mounts in a private
// mount namespace (`unshare -rm`).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/test_support.h"
#include "tests/support/trace_builder.h"

namespace fs = std::filesystem;
using namespace waitscope;
using test::run;

namespace {

const std::string kRootEnv = "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1";

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

class RecordingOutput : public ::testing::Test {
 protected:
  static std::unique_ptr<test::TempDir> dir;
  static void SetUpTestSuite() {
    dir = std::make_unique<test::TempDir>("waitscope-output");
    const auto r = run(record((*dir / "trace").string(), 2));
    ASSERT_EQ(r.exitCode, 0) << r.err;
  }
  static void TearDownTestSuite() { dir.reset(); }

  static std::string record(const std::string& out, int ranks, const std::string& env = "") {
    return env + " timeout 180 " + test::tool("waitscope-run") + " -n " + std::to_string(ranks) + " -o " + out +
           " -- " + WAITSCOPE_PROBE + " --calls 2000";
  }
  static test::CommandResult analyze(const std::string& arguments) {
    return run(kRootEnv + " timeout 120 " + std::string(WAITSCOPE_MPIEXEC) + " -n 2 " +
               test::tool("waitscope-analyze") + " --quiet " + arguments);
  }
  static std::string anchor() { return (*dir / "trace" / "traces.otf2").string(); }

  // Runs `commands` (sh) with a tmpfs of `options` mounted at `mount`, in a private mount namespace.
  static test::CommandResult withTmpfs(const fs::path& mount, const std::string& options, const std::string& commands) {
    fs::create_directories(mount);
    return run("unshare -rm sh -c 'mount -t tmpfs -o " + options + " tmpfs " + mount.string() + " && " + commands +
               "'");
  }
  static bool tmpfsAllowed() { return run("unshare -rm true").exitCode == 0; }
};
std::unique_ptr<test::TempDir> RecordingOutput::dir;

// The whole waitscope-analyze stderr: exactly one line of its own, naming `path` and saying `phrase`.
void expectOneAnalyzerLine(const test::CommandResult& r, const std::string& path, const std::string& phrase) {
  EXPECT_EQ(r.exitCode, 1) << r.err;
  int own = 0;
  for (const std::string& line : lines(r.err))
    if (line.rfind("waitscope-analyze: ", 0) == 0) {
      ++own;
      EXPECT_NE(line.find(path), std::string::npos) << line;
      EXPECT_NE(line.find(phrase), std::string::npos) << line;
    }
  EXPECT_EQ(own, 1) << r.err;
}

// --quiet leaves out progress and the result line, never a warning: a trace whose receive
// completes before its send started still says so.
// A skewed run with clock-condition violations of every paradigm (docs/patterns.md): rank 0
// receives a message before it was sent (1 point-to-point), leaves a barrier before rank 1 entered it
// (1 collective), and rank 1's GATS epoch, with its put, ends before rank 0 posts (2 RMA: the put
// and MPI_Win_complete). The warning counts them per paradigm, --quiet or not.
TEST_F(RecordingOutput, QuietAnalysisStillWarns) {
  trace::TraceBuilder b(2);
  for (trace::Rank r = 0; r < 2; ++r) b.rank(r).init(0.0, 0.1).enter(0.1, "main");
  b.rank(1).send(2.0, 2.01, 0, 8, 0);
  b.rank(0).recv(1.0, 1.5, 1, 8, 0);
  b.rank(0).barrier(2.5, 2.55);
  b.rank(1).barrier(2.6, 2.7);
  const trace::WinId win = b.createWindow(b.world(), {2.8, 2.8}, {2.9, 2.9});
  b.rank(0).post(4.0, 4.01, win, {1}).wait(4.5, 4.6, win);
  b.rank(1).start(3.0, 3.01, win, {0}).put(3.1, 3.2, win, 0, 8).complete(3.3, 3.4, win);
  b.freeWindow(win, {4.8, 4.8}, {4.9, 4.9});
  for (trace::Rank r = 0; r < 2; ++r) b.rank(r).leave(5.0, "main").finalize(5.0, 5.1);
  const std::string skewed = b.write((*dir / "skewed").string());
  // The analyzer's own lines on stderr of a --quiet run.
  const auto ownLines = [&](const std::string& options) {
    const auto r = analyze(skewed + " -o " + (*dir / "skewed.waitscope").string() + options);
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.out, "");
    std::vector<std::string> own;
    for (const std::string& line : lines(r.err))
      if (line.rfind("waitscope-analyze: ", 0) == 0 || line.rfind("progress ", 0) == 0) own.push_back(line);
    return own;
  };
  // By default the violations are corrected, and that is said; with the recorded times kept,
  // they are warned about.
  const std::vector<std::string> corrected = ownLines("");
  ASSERT_EQ(corrected.size(), 1U);
  EXPECT_EQ(corrected[0].rfind("waitscope-analyze: corrected 4 clock condition violations with the controlled "
                               "logical clock: ",
                               0),
            0U)
      << corrected[0];
  const std::vector<std::string> kept = ownLines(" --no-time-correct");
  ASSERT_EQ(kept.size(), 1U);
  EXPECT_EQ(kept[0],
            "waitscope-analyze: warning: clock condition violations: 1 point-to-point, 1 collective, 2 RMA; wait "
            "states near them are unreliable");
}

TEST_F(RecordingOutput, AnalyzerNeverWritesOverAFileOfItsTrace) {
  const fs::path traceDir = *dir / "trace";
  const std::string defs = slurp(traceDir / "traces.def"), events = slurp(traceDir / "traces" / "0.evt");
  const std::string anchorBytes = slurp(anchor());
  ASSERT_FALSE(defs.empty());
  for (const auto& [output, phrase] : std::vector<std::pair<std::string, std::string>>{
           {anchor(), "the trace's anchor file"},
           {(traceDir / "traces.def").string(), "the trace's global definition file"},
           {(traceDir / "traces" / "0.evt").string(), "the trace's directory of per-process files"},
           {(traceDir / "traces").string(), "the trace's directory of per-process files"},
           {(traceDir / "." / ".." / "trace" / "traces.def").string(), "the trace's global definition file"}}) {
    expectOneAnalyzerLine(analyze(anchor() + " -o " + output + " --force"), output, phrase);
  }
  fs::create_symlink(traceDir / "traces.def", *dir / "link.waitscope");
  expectOneAnalyzerLine(analyze(anchor() + " -o " + (*dir / "link.waitscope").string()),
                        (*dir / "link.waitscope").string(), "the trace's global definition file");
  EXPECT_EQ(slurp(traceDir / "traces.def"), defs);
  EXPECT_EQ(slurp(traceDir / "traces" / "0.evt"), events);
  EXPECT_EQ(slurp(anchor()), anchorBytes);
}

TEST_F(RecordingOutput, AnalyzerReplacesOnlyReports) {
  const std::string notes = (*dir / "notes.txt").string();
  std::ofstream(notes) << "my notes\n";
  expectOneAnalyzerLine(analyze(anchor() + " -o " + notes + " --force"), notes, "not a Waitscope report");
  EXPECT_EQ(slurp(notes), "my notes\n");
  const std::string folder = (*dir / "folder").string();
  fs::create_directories(folder);
  expectOneAnalyzerLine(analyze(anchor() + " -o " + folder), folder, "is a directory");

  // The same trace's report is replaced (analyzing again); another trace's only with --force.
  const std::string report = (*dir / "run.waitscope").string();
  auto r = analyze(anchor() + " -o " + report);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  r = analyze(anchor() + " -o " + report);
  EXPECT_EQ(r.exitCode, 0) << r.err;
  fs::copy(*dir / "trace", *dir / "other", fs::copy_options::recursive);
  const std::string other = (*dir / "other" / "traces.otf2").string();
  // The default report beside a trace is that trace's, even when the trace was copied there.
  fs::copy_file(report, *dir / "other" / "traces.waitscope");
  r = analyze(other);
  EXPECT_EQ(r.exitCode, 0) << r.err;
  expectOneAnalyzerLine(analyze(other + " -o " + report), report, "--force");
  r = analyze(other + " -o " + report + " --force");
  EXPECT_EQ(r.exitCode, 0) << r.err;
}

TEST_F(RecordingOutput, AFullDiskIsNeverCalledWritten) {
  if (!tmpfsAllowed()) GTEST_SKIP() << "no private mount namespace here (unshare -rm)";
  const fs::path mount = *dir / "full";
  const std::string out = (mount / "t").string();
  // 256 KiB with 240 taken: the trace (about 100 KiB) does not fit.
  const auto r = withTmpfs(mount, "size=256k",
                           "dd if=/dev/zero of=" + (mount / "fill").string() + " bs=4k count=60 2>/dev/null; " +
                               record(out, 2) + "; code=$?; ls -A " + out + " > " + (*dir / "listing").string() +
                               "; cat " + out + "/traces.failed > " + (*dir / "marker").string() + "; exit $code");
  EXPECT_NE(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.out.find("trace written"), std::string::npos) << r.out;
  const std::vector<std::string> err = lines(r.err);
  ASSERT_EQ(err.size(), 1U) << r.err;  // no OTF2 messages
  EXPECT_NE(err[0].find("waitscope-run: no trace written: writing it to "), std::string::npos) << err[0];
  EXPECT_NE(err[0].find(out), std::string::npos) << err[0];
  EXPECT_NE(err[0].find("No space left on device"), std::string::npos) << err[0];
  EXPECT_NE(err[0].find("free space there"), std::string::npos) << err[0];
  // Nothing that reads as a trace is left; the marker says why.
  EXPECT_EQ(slurp(*dir / "listing"), "traces.failed\n");
  EXPECT_EQ(slurp(*dir / "marker"), "No space left on device\n");
}

// The disk fills up during the run and then the run aborts: the trace is not completed as an
// incomplete one (its event files have holes); the marker says why even when it could not take
// its line.
TEST_F(RecordingOutput, AFullDiskInAnAbortedRunIsNotCompleted) {
  if (!tmpfsAllowed()) GTEST_SKIP() << "no private mount namespace here (unshare -rm)";
  const fs::path mount = *dir / "full-abort";
  const std::string out = (mount / "t").string();
  const auto r = withTmpfs(mount, "size=64k",
                           "WAITSCOPE_BUFFER_MB=1 timeout 180 " + test::tool("waitscope-run") + " -n 2 -o " + out +
                               " -- " + WAITSCOPE_PROBE + " --calls 20000 --abort; code=$?; ls -A " + out + " > " +
                               (*dir / "abort-listing").string() + "; exit $code");
  EXPECT_NE(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.out.find("trace written"), std::string::npos) << r.out;
  EXPECT_EQ(r.err.find("[OTF2]"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("is incomplete"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("waitscope-run: no trace written: writing it to " + out +
                       " failed (No space left on device); what was written is removed"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(slurp(*dir / "abort-listing"), "traces.failed\n");
}

// Completing an aborted run's trace on a full disk fails with one line and leaves the definition
// logs and event files as they were, so that it can be completed once there is space.
TEST_F(RecordingOutput, ACompletionThatDoesNotFitKeepsWhatTheRunLeft) {
  if (!tmpfsAllowed()) GTEST_SKIP() << "no private mount namespace here (unshare -rm)";
  const fs::path mount = *dir / "complete";
  const std::string out = (mount / "t").string(), listing = (*dir / "complete-listing").string();
  const std::string runLog = (*dir / "complete-run.log").string();
  const std::string complete = test::tool("waitscope-run") + " --complete " + out;
  // The aborted run as waitscope-run starts it (3 s for the other ranks' handlers to flush);
  // what it said and the listing before the disk fills are kept for a failure's message. The
  // run itself must fit: the probe's polling loops record an event per call, so its trace grows
  // with the time it waits (41,530 events, 705 KB, on one rank of a loaded machine).
  const auto r = withTmpfs(
      mount, "size=16m",
      "WAITSCOPE_TRACE_DIR=" + out + " OMPI_MCA_odls_base_sigkill_timeout=3 " + kRootEnv + " timeout 120 " +
          std::string(WAITSCOPE_MPIEXEC) + " -n 2 " + WAITSCOPE_PROBE + " --calls 200 --abort >" + runLog +
          " 2>&1; ls -AR " + out + " >> " + runLog + "; cat " + out + "/traces.failed >> " + runLog +
          " 2>/dev/null; dd if=/dev/zero of=" + (mount / "fill").string() + " bs=4k 2>/dev/null; " + complete +
          "; code=$?; cd " + out + " && ls -A . traces traces.partial > " + listing + "; rm " +
          (mount / "fill").string() + "; " + complete + " >/dev/null 2>&1 && ls -A . >> " + listing + "; exit $code");
  const std::string aborted = "\nthe aborted run:\n" + slurp(runLog);
  EXPECT_EQ(r.exitCode, 2) << r.err << aborted;
  EXPECT_EQ(r.err, "waitscope-run: " + out + ": cannot complete the trace (No space left on device); free space "
                   "there, then run waitscope-run --complete " + out + "\n")
      << aborted;
  EXPECT_EQ(slurp(listing),
            ".:\ntraces\ntraces.partial\n\ntraces:\n0.evt\n1.evt\n\ntraces.partial:\n0.log\n1.log\n"
            "traces\ntraces.def\ntraces.otf2\n")
      << aborted;
}

// What waitscope-run and waitscope-analyze print must reach standard output, or they exit with 1.
TEST_F(RecordingOutput, FailedWritesToStandardOutputExitWithOne) {
  for (const std::string tool : {"waitscope-run", "waitscope-analyze"}) {
    const auto r = run("{ " + kRootEnv + " " + test::tool(tool) + " --version > /dev/full; }");
    EXPECT_EQ(r.exitCode, 1) << tool << ": " << r.err;
    EXPECT_NE(r.err.find(tool + ": error: cannot write to standard output: No space left on device\n"),
              std::string::npos)
        << r.err;
  }
  const auto r = run("{ " + record((*dir / "stdout").string(), 1) + " > /dev/full; }");
  EXPECT_EQ(r.exitCode, 1) << r.err;
  EXPECT_NE(r.err.find("waitscope-run: error: cannot write to standard output: No space left on device\n"),
            std::string::npos)
      << r.err;
}

TEST_F(RecordingOutput, ReadOnlyDirectoriesAreCalledReadOnly) {
  if (!tmpfsAllowed()) GTEST_SKIP() << "no private mount namespace here (unshare -rm)";
  const fs::path mount = *dir / "ro";
  auto r = withTmpfs(mount, "ro", record((mount / "t").string(), 1));
  EXPECT_EQ(r.exitCode, 2) << r.err;
  EXPECT_EQ(r.err, "waitscope-run: cannot write to the output directory " + (mount / "t").string() +
                       ": Read-only file system\n");
  r = withTmpfs(mount, "ro", record(mount.string(), 1));
  EXPECT_EQ(r.err, "waitscope-run: cannot write to the output directory " + mount.string() + ": Read-only file system\n");
  const std::string report = (mount / "run.waitscope").string();
  r = withTmpfs(mount, "ro",
                kRootEnv + " timeout 120 " + std::string(WAITSCOPE_MPIEXEC) + " -n 2 " +
                    test::tool("waitscope-analyze") + " --quiet " + anchor() + " -o " + report);
  expectOneAnalyzerLine(r, report, "cannot write the report in " + mount.string() + ": Read-only file system");
}

}  // namespace
