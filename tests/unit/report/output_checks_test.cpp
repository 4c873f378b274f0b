// What the tools check about their output (output_checks.h): what is at a report path, which
// paths belong to a trace, the analyzer's rule for its report path, a directory that cannot take
// a file, standard output that did not take what was written; and the report writer naming the
// real reason a directory cannot take the report.
#include "analysis/tools/output_checks.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sched.h>
#include <sqlite3.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>

#include "analysis/report/report_io.h"
#include "tests/support/test_support.h"
#include "tests/unit/report/report_test_util.h"
#include "tests/unit/report/sample_report.h"

namespace fs = std::filesystem;
using waitscope::test::TempDir;
using waitscope::tools::ExistingOutput;
using Kind = ExistingOutput::Kind;

namespace {

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// A report of `trace` (meta `trace`, kind "trace analysis") at `path`.
void writeAnalysis(const std::string& path, const std::string& trace) {
  waitscope::report::Report r = waitscope::test::sampleReport();
  r.meta = {{"trace", trace}, {"kind", "trace analysis"}};
  waitscope::report::writeReport(r, path);
}

// A fake trace: the names matter, not the content.
std::string makeTrace(const fs::path& dir) {
  fs::create_directories(dir / "traces");
  fs::create_directories(dir / "traces.partial");
  std::ofstream(dir / "traces.otf2") << "anchor";
  std::ofstream(dir / "traces.def") << "definitions";
  std::ofstream(dir / "traces" / "0.evt") << "events";
  return (dir / "traces.otf2").string();
}

// Runs `body` in a child process; returns what it wrote to the pipe (its result).
std::string inChild(const std::function<std::string()>& body) {
  int fds[2];
  if (pipe(fds) != 0) return "pipe failed";
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    std::string result;
    try {
      result = body();
    } catch (const std::exception& e) {
      result = std::string("exception: ") + e.what();
    }
    if (write(fds[1], result.data(), result.size()) < 0) _exit(2);
    _exit(0);
  }
  close(fds[1]);
  std::string out;
  char buffer[512];
  for (ssize_t n; (n = read(fds[0], buffer, sizeof buffer)) > 0;) out.append(buffer, static_cast<std::size_t>(n));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  return out;
}

TEST(output_checks, InspectTellsReportsFromEverythingElse) {
  TempDir dir;
  EXPECT_EQ(waitscope::tools::inspectOutput((dir / "missing").string()).kind, Kind::Nothing);
  fs::create_symlink(dir / "nowhere", dir / "dangling");
  EXPECT_EQ(waitscope::tools::inspectOutput((dir / "dangling").string()).kind, Kind::Nothing);
  EXPECT_EQ(waitscope::tools::inspectOutput(dir.path().string()).kind, Kind::Directory);

  const auto other = [&](const std::string& name, const std::string& what) {
    const ExistingOutput o = waitscope::tools::inspectOutput((dir / name).string());
    EXPECT_EQ(o.kind, Kind::Other) << name;
    EXPECT_EQ(o.what, what) << name;
  };
  ASSERT_EQ(mkfifo((dir / "fifo").c_str(), 0600), 0);
  other("fifo", "a FIFO (named pipe)");
  std::ofstream(dir / "empty");
  other("empty", "an empty file");
  std::ofstream(dir / "notes.txt") << "my notes\n";
  other("notes.txt", "a file that is not a Waitscope report");
  std::string tar(1024, '\0');
  tar.replace(257, 5, "ustar");
  std::ofstream(dir / "profile.cubex", std::ios::binary) << tar;
  other("profile.cubex", "a Cube file or other tar archive");
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open((dir / "other.db").c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, "CREATE TABLE meta(key TEXT, value TEXT)", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(db);
  other("other.db", "an SQLite database that is not a Waitscope report");

  // A report, also under a name that needs quoting in an SQLite URI; examining it changes nothing.
  const std::string report = (dir / "run #1?%.waitscope").string();
  writeAnalysis(report, "/data/t/traces.otf2");
  const std::string before = slurp(report);
  const ExistingOutput o = waitscope::tools::inspectOutput(report);
  EXPECT_EQ(o.kind, Kind::Report);
  EXPECT_EQ(o.trace, "/data/t/traces.otf2");
  EXPECT_EQ(o.what, "trace analysis");
  EXPECT_EQ(slurp(report), before);
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()), 7);
}

TEST(output_checks, TraceFilesAreKnownByNameAndByLink) {
  TempDir dir;
  const std::string trace = makeTrace(dir / "t");
  using waitscope::tools::traceFileRole;
  EXPECT_EQ(traceFileRole(trace, trace), "the trace's anchor file");
  EXPECT_EQ(traceFileRole(trace, (dir / "t" / ".." / "t" / "traces.def").string()), "the trace's global definition file");
  EXPECT_EQ(traceFileRole(trace, (dir / "t" / "traces").string()), "the trace's directory of per-process files");
  EXPECT_NE(traceFileRole(trace, (dir / "t" / "traces" / "0.evt").string()).find("in the trace's directory"),
            std::string::npos);
  EXPECT_NE(traceFileRole(trace, (dir / "t" / "traces" / "new.waitscope").string()).find("per-process files"),
            std::string::npos);
  EXPECT_NE(traceFileRole(trace, (dir / "t" / "traces.partial" / "0.log").string()).find("definition logs"),
            std::string::npos);
  fs::create_symlink(dir / "t" / "traces.def", dir / "soft.waitscope");
  EXPECT_EQ(traceFileRole(trace, (dir / "soft.waitscope").string()), "the trace's global definition file");
  fs::create_hard_link(dir / "t" / "traces.otf2", dir / "hard.waitscope");
  EXPECT_EQ(traceFileRole(trace, (dir / "hard.waitscope").string()), "the trace's anchor file");
  EXPECT_EQ(traceFileRole(trace, (dir / "t" / "traces.waitscope").string()), "");
  EXPECT_EQ(traceFileRole(trace, (dir / "t" / "tracesX").string()), "");
}

TEST(output_checks, AnalyzerReplacesOnlyReportsAndAnotherTracesOnlyWithForce) {
  TempDir dir;
  const std::string trace = makeTrace(dir / "t");
  using waitscope::tools::analyzerOutputProblem;
  const std::string fresh = (dir / "fresh.waitscope").string();
  EXPECT_EQ(analyzerOutputProblem(trace, fresh, false), "");

  const std::string same = (dir / "same.waitscope").string();
  writeAnalysis(same, fs::absolute(trace).string());
  EXPECT_EQ(analyzerOutputProblem(trace, same, false), "");

  const std::string other = (dir / "other.waitscope").string();
  writeAnalysis(other, "/elsewhere/traces.otf2");
  const std::string refused = analyzerOutputProblem(trace, other, false);
  EXPECT_EQ(refused, other + ": the report is not written there: it is the report of another trace, "
                             "/elsewhere/traces.otf2; replace it with --force, or name another file with -o");
  EXPECT_EQ(analyzerOutputProblem(trace, other, true), "");

  // At the trace's default path, the report is taken for this trace's (a trace copied elsewhere).
  writeAnalysis((dir / "t" / "traces.waitscope").string(), "/cluster/t/traces.otf2");
  EXPECT_EQ(analyzerOutputProblem(trace, (dir / "t" / "traces.waitscope").string(), false), "");

  waitscope::report::Report profile = waitscope::test::sampleReport();
  profile.meta = {{"kind", "profile"}};
  const std::string profilePath = (dir / "app.profile.waitscope").string();
  waitscope::report::writeReport(profile, profilePath);
  EXPECT_NE(analyzerOutputProblem(trace, profilePath, false).find("the report of a profile run; replace it with --force"),
            std::string::npos);

  // --force never replaces anything but a report, nor a file of the trace.
  std::ofstream(dir / "notes.txt") << "my notes\n";
  EXPECT_NE(analyzerOutputProblem(trace, (dir / "notes.txt").string(), true).find("not a Waitscope report"),
            std::string::npos);
  EXPECT_NE(analyzerOutputProblem(trace, (dir / "t" / "traces.def").string(), true).find("global definition file"),
            std::string::npos);
  EXPECT_NE(analyzerOutputProblem(trace, dir.path().string(), true).find("it is a directory"), std::string::npos);
  EXPECT_EQ(analyzerOutputProblem(trace, (dir / "missing" / "r.waitscope").string(), false),
            (dir / "missing" / "r.waitscope").string() + ": cannot write the report in " +
                (dir / "missing").string() + ": it does not exist");
}

TEST(output_checks, DirectoryProblemSaysWhatIsWrongAndLeavesNothing) {
  TempDir dir;
  EXPECT_EQ(waitscope::tools::directoryProblem(dir.path().string()), "");
  EXPECT_TRUE(fs::is_empty(dir.path()));
  EXPECT_EQ(waitscope::tools::directoryProblem((dir / "missing").string()), "it does not exist");
  std::ofstream(dir / "file") << "x";
  EXPECT_EQ(waitscope::tools::directoryProblem((dir / "file").string()), "it is not a directory");
}

TEST(output_checks, FailedWritesToStandardOutputAreFound) {
  // Redirected to /dev/full, both C++ and C output fail; the reason is the system's.
  EXPECT_EQ(inChild([] {
              if (!freopen("/dev/full", "w", stdout)) return std::string("no /dev/full");
              std::cout << "some output\n";
              return waitscope::tools::closeStandardOutput();
            }),
            "No space left on device");
  EXPECT_EQ(inChild([] {
              if (!freopen("/dev/full", "w", stdout)) return std::string("no /dev/full");
              std::printf("%s\n", "some output");
              return waitscope::tools::closeStandardOutput();
            }),
            "No space left on device");
  // Nothing written: a closed standard output is no failure; something written to it is.
  EXPECT_EQ(inChild([] {
              close(STDOUT_FILENO);
              return "[" + waitscope::tools::closeStandardOutput() + "]";
            }),
            "[]");
  EXPECT_EQ(inChild([] {
              close(STDOUT_FILENO);
              std::cout << "lost\n";
              return "[" + waitscope::tools::closeStandardOutput() + "]";
            }),
            "[Bad file descriptor]");
}

// The writer creates its temporary file itself, so a read-only directory is called read-only
// (SQLite's own open reported its read-only retry's "No such file or directory").
TEST(output_checks, ReportWriterNamesAReadOnlyDirectory) {
  TempDir dir;
  const fs::path readOnly = dir / "ro";
  fs::create_directories(readOnly);
  const std::string result = inChild([&] {
    if (unshare(CLONE_NEWNS) != 0 && unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0) return std::string("no namespace");
    if (::mount("none", "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0 ||
        ::mount("tmpfs", readOnly.c_str(), "tmpfs", MS_RDONLY, nullptr) != 0)
      return std::string("no namespace");
    try {
      waitscope::report::writeReport(waitscope::test::sampleReport(), (readOnly / "r.waitscope").string());
    } catch (const waitscope::report::ReportError& e) {
      return std::string(e.what());
    }
    return std::string("written");
  });
  if (result == "no namespace") GTEST_SKIP() << "no private mount namespace here";
  EXPECT_EQ(result, (readOnly / "r.waitscope").string() + ": cannot write the report in " + readOnly.string() +
                        ": Read-only file system");
}

}  // namespace
