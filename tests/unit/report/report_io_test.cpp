// Writing and reading report files: an exact round trip, the transactional
// write, and one clear error line for each kind of unreadable file.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <vector>

#include "analysis/report/report_io.h"
#include "tests/support/test_support.h"
#include "tests/unit/report/report_test_util.h"
#include "tests/unit/report/sample_report.h"

using namespace waitscope::report;
using waitscope::test::execSql;
using waitscope::test::expectSameReport;
using waitscope::test::sampleReport;
using waitscope::test::TempDir;
namespace fs = std::filesystem;

// Suites are in lower case so that `ctest -R report` (case-sensitive) selects them.
namespace {

// The error readReport throws for `path`, or "" if it reads.
std::string readError(const std::string& path) {
  try {
    readReport(path);
  } catch (const ReportError& e) {
    return e.what();
  }
  return {};
}

// One line that starts with the file's name.
void expectOneLineNaming(const std::string& message, const std::string& path) {
  EXPECT_EQ(message.rfind(path + ": ", 0), 0U) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
}

std::vector<std::string> filesIn(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

TEST(report_io, RoundTripKeepsEveryField) {
  TempDir dir;
  const std::string path = (dir / "run.wsr").string();
  const Report written = sampleReport();
  writeReport(written, path);
  expectSameReport(readReport(path), written);
}

TEST(report_io, RoundTripKeepsExactDoubles) {
  TempDir dir;
  const std::string path = (dir / "doubles.wsr").string();
  Report r = sampleReport();
  r.severities[0].values = {-0.0, std::numeric_limits<double>::denorm_min(), std::numeric_limits<double>::max()};
  r.severities[1].values = {0.1, 1.0 / 3.0, -1e-300};
  r.instances[0].start = 1234567.000000001;
  r.instances[0].end = std::nextafter(r.instances[0].start, 2e6);
  writeReport(r, path);
  expectSameReport(readReport(path), r);
}

TEST(report_io, EmptyReportRoundTrips) {
  TempDir dir;
  const std::string path = (dir / "empty.wsr").string();
  Report r;
  r.meta = {{"format_version", "1"}};
  writeReport(r, path);
  expectSameReport(readReport(path), r);
}

TEST(report_io, WriterSetsFormatVersionAndKeepsMetaOrder) {
  TempDir dir;
  const std::string path = (dir / "meta.wsr").string();
  Report r = sampleReport();
  r.meta = {{"trace", "t.otf2"}, {"format_version", "0"}, {"complete", "0"}, {"created", "today"}};
  writeReport(r, path);
  const Report read = readReport(path);
  // format_version comes first and is the writer's; `complete` is the file's own marker.
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"format_version", "1"}, {"trace", "t.otf2"}, {"created", "today"}};
  EXPECT_EQ(read.meta, expected);
}

TEST(report_io, WriteReplacesAnExistingFileAndLeavesNoTemporaryFile) {
  TempDir dir;
  const std::string path = (dir / "run.wsr").string();
  std::ofstream(path) << "an older report";
  writeReport(sampleReport(), path);
  EXPECT_EQ(filesIn(dir.path()), std::vector<std::string>{"run.wsr"});
  EXPECT_EQ(readReport(path).metrics.size(), sampleReport().metrics.size());
}

TEST(report_io, FailedWriteNamesTheFileAndCleansUp) {
  TempDir dir;
  // The target is a directory: the rename fails after the database was written.
  fs::create_directory(dir / "taken");
  const std::string taken = (dir / "taken").string();
  try {
    writeReport(sampleReport(), taken);
    FAIL() << "writing over a directory succeeded";
  } catch (const ReportError& e) {
    expectOneLineNaming(e.what(), taken);
  }
  EXPECT_EQ(filesIn(dir.path()), std::vector<std::string>{"taken"});
  // The directory does not exist: SQLite cannot create the temporary file.
  const std::string nowhere = (dir / "missing" / "run.wsr").string();
  try {
    writeReport(sampleReport(), nowhere);
    FAIL() << "writing into a missing directory succeeded";
  } catch (const ReportError& e) {
    expectOneLineNaming(e.what(), nowhere);
  }
}

TEST(report_io, WriterRejectsAnInconsistentReport) {
  TempDir dir;
  const std::string path = (dir / "bad.wsr").string();
  const auto rejects = [&](const Report& r, const std::string& phrase) {
    try {
      writeReport(r, path);
      ADD_FAILURE() << "written: " << phrase;
    } catch (const ReportError& e) {
      expectOneLineNaming(e.what(), path);
      EXPECT_NE(std::string(e.what()).find(phrase), std::string::npos) << e.what();
    }
    EXPECT_FALSE(fs::exists(path));
  };
  Report r = sampleReport();
  r.severities[2].values.pop_back();
  rejects(r, "2 values for 3 locations");
  r = sampleReport();
  r.severities[0].values[1] = std::nan("");
  rejects(r, "not finite");
  r = sampleReport();
  r.callPaths[1].parent = 4;
  rejects(r, "call path 1: parent 4 is not before it");
  r = sampleReport();
  r.metrics[6].uniqueName = "time";
  rejects(r, "same unique name");
  r = sampleReport();
  r.instances[1].cause = 3;
  rejects(r, "instance 1: cause 3 out of range");
  r = sampleReport();
  r.severities.push_back(r.severities[4]);
  rejects(r, "two severity rows");
  EXPECT_TRUE(fs::is_empty(dir.path()));
}

// An analysis hands its ranks' instances to the writer run by run (writeReport's source):
// the file reads as the report with all of them written at once, across the 65536-record rows.
TEST(report_io, StreamedInstancesReadAsTheWholeReport) {
  TempDir dir;
  Report whole = sampleReport();
  const std::size_t own = whole.instances.size();
  for (std::uint32_t i = 0; i < 70000; ++i)
    whole.instances.push_back({i % 2, i % 3, 1, 0.5 * i, 0.5 * i + 0.25, i % 5 == 0 ? kNoId : (i + 1) % 3});
  Report head = whole;  // the report's own instances, then the rest in runs of 1, 65536 and what is left
  head.instances.resize(own);
  std::vector<std::vector<Instance>> runs;
  const std::size_t bounds[] = {own, own + 1, own + 1 + 65536, whole.instances.size()};
  for (std::size_t k = 0; k + 1 < std::size(bounds); ++k)
    runs.emplace_back(whole.instances.begin() + static_cast<std::ptrdiff_t>(bounds[k]),
                      whole.instances.begin() + static_cast<std::ptrdiff_t>(bounds[k + 1]));
  std::size_t next = 0;
  const InstanceSource source = [&](std::vector<Instance>& into) {
    if (next == runs.size()) return false;
    into = runs[next++];
    return true;
  };
  const std::string path = (dir / "streamed.wsr").string();
  writeReport(head, path, source);
  EXPECT_EQ(next, runs.size());
  expectSameReport(readReport(path), whole);
}

TEST(report_io, StreamedInstanceOutOfRangeIsRejectedAndNothingIsLeft) {
  TempDir dir;
  const Report r = sampleReport();
  const std::string path = (dir / "bad.wsr").string();
  bool given = false;
  const InstanceSource source = [&](std::vector<Instance>& into) {
    if (given) return false;
    given = true;
    into = {r.instances[0], r.instances[0]};
    into[1].location = 7;  // three locations
    return true;
  };
  try {
    writeReport(r, path, source);
    FAIL() << "written";
  } catch (const ReportError& e) {
    expectOneLineNaming(e.what(), path);
    // Counted after the report's own instances.
    const std::string phrase = "instance " + std::to_string(r.instances.size() + 1) + ": location 7 out of range";
    EXPECT_NE(std::string(e.what()).find(phrase), std::string::npos) << e.what();
  }
  EXPECT_TRUE(fs::is_empty(dir.path()));
}

TEST(report_io, MissingFileDirectoryAndEmptyFile) {
  TempDir dir;
  const std::string missing = (dir / "missing.wsr").string();
  EXPECT_EQ(readError(missing), missing + ": cannot open: no such file");
  EXPECT_EQ(readError(dir.path().string()), dir.path().string() + ": cannot open: it is a directory");
  const std::string empty = (dir / "empty.wsr").string();
  std::ofstream{empty};
  EXPECT_EQ(readError(empty), empty + ": not a Waitscope report (the file is empty)");
}

TEST(report_io, TextFileIsNotAReport) {
  TempDir dir;
  const std::string path = (dir / "notes.txt").string();
  std::ofstream(path) << "time,1.0\nmpi,0.5\n" << std::string(5000, 'x');
  EXPECT_EQ(readError(path), path + ": not a Waitscope report (not an SQLite database)");
}

TEST(report_io, OtherSqliteDatabaseIsNotAReport) {
  TempDir dir;
  const std::string path = (dir / "other.db").string();
  {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    sqlite3_close(db);
  }
  execSql(path, "CREATE TABLE people(name TEXT); INSERT INTO people VALUES ('ada');");
  EXPECT_EQ(readError(path), path + ": not a Waitscope report (no table meta)");
  execSql(path, "CREATE TABLE meta(key TEXT, value TEXT); INSERT INTO meta VALUES ('x', 'y');");
  EXPECT_EQ(readError(path), path + ": not a Waitscope report (no format_version in table meta)");
}

TEST(report_io, IncompleteReportSaysToAnalyzeAgain) {
  TempDir dir;
  const std::string path = (dir / "run.wsr").string();
  writeReport(sampleReport(), path);
  execSql(path, "DELETE FROM meta WHERE key = 'complete'");
  EXPECT_EQ(readError(path),
            path + ": report is incomplete (the analyzer was interrupted?); run waitscope-analyze again");
  execSql(path, "INSERT INTO meta VALUES ('complete', '0')");
  EXPECT_NE(readError(path).find("report is incomplete"), std::string::npos);
}

TEST(report_io, NewerFormatVersionIsRefused) {
  TempDir dir;
  const std::string path = (dir / "run.wsr").string();
  writeReport(sampleReport(), path);
  execSql(path, "UPDATE meta SET value = '3' WHERE key = 'format_version'");
  const std::string error = readError(path);
  expectOneLineNaming(error, path);
  EXPECT_NE(error.find("report format version 3 is not supported"), std::string::npos) << error;
}

TEST(report_io, DamagedValuesAreNamed) {
  TempDir dir;
  const std::string path = (dir / "run.wsr").string();
  writeReport(sampleReport(), path);
  execSql(path, "UPDATE severities SET vals = zeroblob(16) WHERE rowid = 3");
  EXPECT_EQ(readError(path), path +
                                 ": damaged report (severities row 2: vals does not hold one value per location); "
                                 "run waitscope-analyze again");
}

TEST(report_io, ReaderDoesNotModifyTheFile) {
  TempDir dir;
  const std::string path = (dir / "run.wsr").string();
  writeReport(sampleReport(), path);
  const auto before = fs::last_write_time(path);
  const auto size = fs::file_size(path);
  fs::permissions(path, fs::perms::owner_read, fs::perm_options::replace);
  expectSameReport(readReport(path), sampleReport());  // a read-only file reads
  fs::permissions(path, fs::perms::owner_read | fs::perms::owner_write, fs::perm_options::replace);
  EXPECT_EQ(fs::last_write_time(path), before);
  EXPECT_EQ(fs::file_size(path), size);
  EXPECT_EQ(filesIn(dir.path()), std::vector<std::string>{"run.wsr"});
}

TEST(report_io, LargeReportRoundTrips) {
  TempDir dir;
  const std::string path = (dir / "large.wsr").string();
  Report r = sampleReport();
  r.locations.clear();
  for (std::uint32_t l = 0; l < 512; ++l) r.locations.push_back({"MPI Rank " + std::to_string(l), l, 1});
  for (SeverityRow& row : r.severities) {
    row.values.resize(r.locations.size());
    for (std::size_t l = 0; l < row.values.size(); ++l) row.values[l] = 0.001 * static_cast<double>(l + row.metric);
  }
  r.instances.clear();
  for (std::uint32_t i = 0; i < 20000; ++i)
    r.instances.push_back({4, i % 512, 2, 0.5 * i, 0.5 * i + 0.25, (i + 1) % 512});
  writeReport(r, path);
  expectSameReport(readReport(path), r);
}

}  // namespace
