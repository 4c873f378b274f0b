// Files that are not what their name says, given to every report reader: a
// FIFO (reading it would wait forever), devices (/dev/zero never ends), links
// to them and to real reports, dangling and looping links, directories. Each
// read runs in a child process with a timeout, so a hang fails the test
// instead of hanging it. Deep trees in a report read without exhausting the
// stack. Also run under ASan/UBSan in the sanitizer job.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>

#include "analysis/report/cube_reader.h"
#include "analysis/report/cube_writer.h"
#include "analysis/report/open_report.h"
#include "analysis/report/report_io.h"
#include "tests/support/test_support.h"
#include "tests/unit/child_process.h"
#include "tests/unit/report/read_or_reject.h"
#include "tests/unit/report/sample_report.h"

using namespace waitscope::report;
using waitscope::test::inChild;
using waitscope::test::TempDir;
namespace fs = std::filesystem;

namespace {

using Reader = Report (*)(const std::string&);

struct NamedReader {
  const char* name;
  Reader read;
};

const NamedReader kReaders[] = {
    {"readReport", [](const std::string& p) { return readReport(p); }},
    {"readCube", [](const std::string& p) { return readCube(p); }},
    {"openAnyReport", [](const std::string& p) { return openAnyReport(p); }},
};

// What `read` makes of `path` in a child process: "loaded" or the error line.
std::string outcome(Reader read, const std::string& path) {
  const auto child = inChild(
      [&] {
        try {
          read(path);
          return std::string("loaded");
        } catch (const ReportError& e) {
          return std::string(e.what());
        }
      },
      60);
  EXPECT_TRUE(child.finished) << path << ": the reader did not return within a minute";
  return child.result;
}

class hostile_files : public ::testing::Test {
 protected:
  void SetUp() override {
    writeReport(waitscope::test::sampleReport(), report_);
    writeCube(waitscope::test::sampleReport(), cube_);
  }
  TempDir dir_{"waitscope-hostile"};
  const std::string report_ = (dir_ / "real.waitscope").string();
  const std::string cube_ = (dir_ / "real.cubex").string();
};

TEST_F(hostile_files, FifoIsRefusedWithoutWaiting) {
  for (const char* name : {"pipe.waitscope", "pipe.cubex"}) {
    const std::string fifo = (dir_ / name).string();
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    for (const NamedReader& r : kReaders) {
      SCOPED_TRACE(std::string(r.name) + " " + name);
      EXPECT_EQ(outcome(r.read, fifo), fifo + ": cannot open: it is a FIFO (named pipe), not a file");
    }
    const auto child = inChild([&] { return std::string(looksLikeCube(fifo) ? "cube" : "report"); }, 60);
    EXPECT_TRUE(child.finished) << "looksLikeCube waited on a FIFO";
  }
}

// SQLite looks for a hot journal or a WAL file beside a database; a FIFO
// there must not make the reader wait (the report is opened as immutable).
TEST_F(hostile_files, FifoBesideTheReportIsNotOpened) {
  for (const char* suffix : {"-journal", "-wal", "-shm"}) {
    const std::string fifo = report_ + suffix;
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  }
  for (const NamedReader& r : kReaders) {
    if (r.read == kReaders[1].read) continue;  // readCube: not a .cubex
    SCOPED_TRACE(r.name);
    EXPECT_EQ(outcome(r.read, report_), "loaded");
  }
}

// Names that mean something in an SQLite URI are plain names.
TEST_F(hostile_files, NamesWithUriCharactersAreRead) {
  for (const char* name : {"file:x.waitscope", "a?mode=rwc&immutable=0.waitscope", "100%#x.waitscope"}) {
    const std::string path = (dir_ / name).string();
    fs::copy_file(report_, path);
    EXPECT_EQ(readReport(path).instances.size(), 3U) << name;
  }
  const fs::path cwd = fs::current_path();
  fs::current_path(dir_.path());
  EXPECT_EQ(readReport("file:x.waitscope").instances.size(), 3U);
  fs::current_path(cwd);
}

TEST_F(hostile_files, DevicesAndLinksToThemAreRefused) {
  const std::string zeroCube = (dir_ / "zero.cubex").string(), zeroReport = (dir_ / "zero.waitscope").string();
  fs::create_symlink("/dev/zero", zeroCube);
  fs::create_symlink("/dev/zero", zeroReport);
  for (const std::string& device : {std::string("/dev/zero"), std::string("/dev/null"), zeroCube, zeroReport}) {
    for (const NamedReader& r : kReaders) {
      SCOPED_TRACE(std::string(r.name) + " " + device);
      const auto child = inChild([&] {
        try {
          r.read(device);
          return std::string("loaded");
        } catch (const ReportError& e) {
          return std::string(e.what());
        }
      });
      ASSERT_TRUE(child.finished);
      EXPECT_EQ(child.result, device + ": cannot open: it is a device, not a file");
      EXPECT_LT(child.peakGrowthKb, 64 * 1024) << "reading a device took memory";
    }
  }
}

TEST_F(hostile_files, LinksToReportsAreFollowedBrokenLinksSaySo) {
  const std::string toReport = (dir_ / "link.waitscope").string(), toCube = (dir_ / "link.cubex").string();
  fs::create_symlink(report_, toReport);
  fs::create_symlink(cube_, toCube);
  EXPECT_EQ(readReport(toReport).instances.size(), 3U);
  EXPECT_EQ(openAnyReport(toCube).metrics.size(), readCube(cube_).metrics.size());

  const std::string dangling = (dir_ / "dangling.cubex").string(), loop = (dir_ / "loop.waitscope").string();
  fs::create_symlink(dir_ / "nothing-here", dangling);
  fs::create_symlink(loop, loop);
  for (const NamedReader& r : kReaders) {
    SCOPED_TRACE(r.name);
    EXPECT_EQ(outcome(r.read, dangling), dangling + ": cannot open: no such file");
    EXPECT_EQ(outcome(r.read, loop), loop + ": cannot open: Too many levels of symbolic links");
    EXPECT_EQ(outcome(r.read, dir_.path().string()), dir_.path().string() + ": cannot open: it is a directory");
  }
}

// Call trees as deep as a report can hold: iterative code everywhere, so the
// stack does not overflow (ASan checks it in the sanitizer job).
TEST_F(hostile_files, DeepCallTreeReadsBack) {
  Report deep = waitscope::test::sampleReport();
  const std::uint32_t first = static_cast<std::uint32_t>(deep.callPaths.size());
  for (std::uint32_t i = 0; i < 100000; ++i) deep.callPaths.push_back({i == 0 ? 0 : first + i - 1, 0, "", 0});
  deep.severities.push_back({0, first + 99999, {1.0, 2.0, 3.0}});
  const std::string path = (dir_ / "deep.waitscope").string(), cube = (dir_ / "deep.cubex").string();
  writeReport(deep, path);
  EXPECT_EQ(readReport(path).callPaths.size(), deep.callPaths.size());
  writeCube(deep, cube);
  EXPECT_EQ(readCube(cube).callPaths.size(), deep.callPaths.size());
}

}  // namespace
