// A report writer killed at any step of its write must never leave a file that
// reads as a report it did not finish. The writer runs in a child process
// whose SQLite file I/O goes through a VFS that SIGKILLs the process at its
// k-th call (open, write, truncate, sync, close), for every k until the write
// completes; a tiny SQLite heap limit makes the pager spill pages before the
// commit, as large reports do. After each kill: the report's own name is
// absent, every leftover `*.tmp-*` file is refused with one line, and a copy of
// it under an ordinary name is refused too unless it holds the whole report.
#include <gtest/gtest.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>

#include "analysis/report/report_io.h"
#include "tests/support/test_support.h"
#include "tests/unit/report/read_or_reject.h"
#include "tests/unit/report/report_test_util.h"
#include "tests/unit/report/sample_report.h"

using namespace waitscope::report;
using waitscope::test::TempDir;
namespace fs = std::filesystem;

namespace {

// ---- a VFS that kills the process at its k-th file operation -----------------------------

sqlite3_vfs* g_inner = nullptr;
long g_countdown = 0;
long g_calls = 0;

void step() {
  ++g_calls;
  if (--g_countdown == 0) raise(SIGKILL);
}

struct KillingFile {
  sqlite3_file base;
  sqlite3_file* real;  // the default VFS's file, allocated right after this struct
};

sqlite3_file* real(sqlite3_file* f) { return reinterpret_cast<KillingFile*>(f)->real; }

int fileClose(sqlite3_file* f) {
  step();
  return real(f)->pMethods->xClose(real(f));
}
int fileRead(sqlite3_file* f, void* b, int n, sqlite3_int64 o) { return real(f)->pMethods->xRead(real(f), b, n, o); }
int fileWrite(sqlite3_file* f, const void* b, int n, sqlite3_int64 o) {
  step();
  return real(f)->pMethods->xWrite(real(f), b, n, o);
}
int fileTruncate(sqlite3_file* f, sqlite3_int64 size) {
  step();
  return real(f)->pMethods->xTruncate(real(f), size);
}
int fileSync(sqlite3_file* f, int flags) {
  step();
  return real(f)->pMethods->xSync(real(f), flags);
}
int fileSize(sqlite3_file* f, sqlite3_int64* size) { return real(f)->pMethods->xFileSize(real(f), size); }
int fileLock(sqlite3_file* f, int lock) { return real(f)->pMethods->xLock(real(f), lock); }
int fileUnlock(sqlite3_file* f, int lock) { return real(f)->pMethods->xUnlock(real(f), lock); }
int fileReserved(sqlite3_file* f, int* out) { return real(f)->pMethods->xCheckReservedLock(real(f), out); }
int fileControl(sqlite3_file* f, int op, void* arg) { return real(f)->pMethods->xFileControl(real(f), op, arg); }
int fileSectorSize(sqlite3_file* f) { return real(f)->pMethods->xSectorSize(real(f)); }
int fileCharacteristics(sqlite3_file* f) { return real(f)->pMethods->xDeviceCharacteristics(real(f)); }

const sqlite3_io_methods kMethods = {1,        fileClose, fileRead,   fileWrite,      fileTruncate,
                                     fileSync, fileSize,  fileLock,   fileUnlock,     fileReserved,
                                     fileControl, fileSectorSize, fileCharacteristics,
                                     nullptr,  nullptr,   nullptr,    nullptr,        nullptr,
                                     nullptr};

int vfsOpen(sqlite3_vfs*, sqlite3_filename name, sqlite3_file* f, int flags, int* outFlags) {
  step();
  auto* file = reinterpret_cast<KillingFile*>(f);
  file->real = reinterpret_cast<sqlite3_file*>(file + 1);
  file->base.pMethods = nullptr;
  const int rc = g_inner->xOpen(g_inner, name, file->real, flags, outFlags);
  if (file->real->pMethods != nullptr) file->base.pMethods = &kMethods;
  return rc;
}

// Writes `report` in this (child) process through the killing VFS; returns the
// number of file operations the whole write took.
long writeThroughKillingVfs(const Report& report, const std::string& path, long killAt) {
  static sqlite3_vfs vfs;
  g_inner = sqlite3_vfs_find(nullptr);
  vfs = *g_inner;
  vfs.zName = "waitscope-killing";
  vfs.szOsFile = static_cast<int>(sizeof(KillingFile)) + g_inner->szOsFile;
  vfs.xOpen = vfsOpen;
  sqlite3_vfs_register(&vfs, 1);
  sqlite3_soft_heap_limit64(64 * 1024);  // spill pages before the commit, as a large report does
  g_countdown = killAt;
  writeReport(report, path);
  return g_calls;
}

// A report of a few hundred kilobytes: enough pages for the pager to spill.
Report largeReport() {
  Report r = waitscope::test::sampleReport();
  for (std::uint32_t i = 0; i < 6000; ++i)
    r.instances.push_back({4, i % 3, 2, 1.0 + i, 1.5 + i, (i + 1) % 3});
  return r;
}

bool sameContent(const Report& a, const Report& b) {
  if (a.meta != b.meta || a.metrics.size() != b.metrics.size() || a.callPaths.size() != b.callPaths.size() ||
      a.locations.size() != b.locations.size() || a.severities.size() != b.severities.size() ||
      a.instances.size() != b.instances.size() || a.criticalPath.size() != b.criticalPath.size())
    return false;
  for (std::size_t i = 0; i < a.instances.size(); ++i)
    if (a.instances[i].start != b.instances[i].start || a.instances[i].location != b.instances[i].location) return false;
  for (std::size_t i = 0; i < a.severities.size(); ++i)
    if (a.severities[i].values != b.severities[i].values) return false;
  return true;
}

struct KillResult {
  bool killed = false;
  long calls = 0;  // file operations of a write that was not killed
};

KillResult runWriter(const Report& report, const std::string& path, long killAt) {
  int fds[2];
  if (pipe(fds) != 0) return {};
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    long calls = -1;
    try {
      calls = writeThroughKillingVfs(report, path, killAt);
    } catch (...) {
    }
    if (write(fds[1], &calls, sizeof calls) != sizeof calls) _exit(3);
    _exit(0);
  }
  close(fds[1]);
  long calls = 0;
  const bool wrote = read(fds[0], &calls, sizeof calls) == sizeof calls;
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) return {true, 0};
  EXPECT_TRUE(wrote && WIFEXITED(status) && WEXITSTATUS(status) == 0) << "the writer failed without being killed";
  return {false, calls};
}

void killAtEveryStep(const Report& report) {
  TempDir dir("waitscope-interrupted-write");
  const std::string path = (dir / "out.waitscope").string();
  const std::string copy = (dir.path().parent_path() / (dir.path().filename().string() + "-copy.waitscope")).string();
  int leftovers = 0, wholeCopies = 0;
  long k = 1;
  for (;; ++k) {
    SCOPED_TRACE("killed at file operation " + std::to_string(k));
    for (const auto& entry : fs::directory_iterator(dir.path())) fs::remove(entry.path());
    const KillResult result = runWriter(report, path, k);
    if (!result.killed) {
      EXPECT_LT(result.calls, k) << "the write ended before operation k without being killed";
      waitscope::test::expectSameReport(readReport(path), report);
      EXPECT_EQ(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()), 1);
      break;
    }
    // The write never completed: the report's own name does not exist yet.
    EXPECT_FALSE(fs::exists(path));
    for (const auto& entry : fs::directory_iterator(dir.path())) {
      const std::string leftover = entry.path().string();
      ++leftovers;
      ASSERT_EQ(waitscope::test::readOrReject([](const std::string& p) { return readReport(p); }, leftover),
                waitscope::test::Outcome::Rejected);
      try {
        readReport(leftover);
      } catch (const ReportError& e) {
        EXPECT_NE(std::string(e.what()).find("incomplete"), std::string::npos) << e.what();
      }
      // Copied or renamed by hand: refused, unless it is the whole report.
      fs::copy_file(leftover, copy, fs::copy_options::overwrite_existing);
      try {
        const Report read = readReport(copy);
        EXPECT_TRUE(sameContent(read, report)) << "a leftover of a killed writer reads as a different report";
        ++wholeCopies;
      } catch (const ReportError& e) {
        EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
      }
    }
    ASSERT_LT(k, 100000) << "the write never completes";
  }
  fs::remove(copy);
  EXPECT_GT(k, 5);          // the write took several file operations, each was interrupted
  EXPECT_GT(leftovers, 0);  // and some of them left a temporary file behind
  // Killed after its last write but before the rename, the temporary file is
  // whole: its copy reads, the file under its own name does not.
  EXPECT_GT(wholeCopies, 0);
}

TEST(interrupted_write, KilledAtEveryStepLeavesNothingThatReadsAsAReport) { killAtEveryStep(waitscope::test::sampleReport()); }

TEST(interrupted_write, KilledAtEveryStepOfALargeReportThatSpillsPages) { killAtEveryStep(largeReport()); }

// The state a writer killed between its COMMIT and the rename leaves behind.
TEST(interrupted_write, LeftoverTemporaryFileIsRefusedByName) {
  TempDir dir("waitscope-tmp-name");
  const std::string whole = (dir / "out.waitscope").string();
  writeReport(waitscope::test::sampleReport(), whole);
  for (const char* name : {"out.waitscope.tmp-4242-0", "x.tmp-1-17"}) {
    const std::string leftover = (dir / name).string();
    fs::copy_file(whole, leftover);
    try {
      readReport(leftover);
      ADD_FAILURE() << name << " was read as a report";
    } catch (const ReportError& e) {
      EXPECT_EQ(std::string(e.what()),
                leftover + ": report is incomplete (a temporary file its writer never renamed: it was stopped while "
                           "writing); run waitscope-analyze again");
    }
  }
  // Names that only look alike are ordinary reports.
  for (const char* name : {"run.tmp-a-1.waitscope", "tmp-1-2", "out.tmp-12"}) {
    const std::string other = (dir / name).string();
    fs::copy_file(whole, other);
    EXPECT_NO_THROW(readReport(other)) << name;
  }
}

}  // namespace
