// waitscope-report print, csv and diagnostics on a report written by the test:
// exact values, CSV rows and quoting, the diagnostics line format, and exit
// code 1 with one line naming the file for every kind of bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "analysis/report/report_io.h"
#include "tests/support/test_support.h"
#include "tests/unit/report/report_test_util.h"
#include "tests/unit/report/sample_report.h"

using waitscope::test::execSql;
using waitscope::test::run;
using waitscope::test::sampleReport;
using waitscope::test::TempDir;
using waitscope::test::tool;
namespace fs = std::filesystem;

namespace {

class ReportCli : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = (dir_ / "run 1.wsr").string();  // a space, so quoting in the commands matters
    waitscope::report::writeReport(sampleReport(), path_);
  }
  waitscope::test::CommandResult report(const std::string& arguments) const {
    return run(tool("waitscope-report") + " " + arguments);
  }
  std::string quoted() const { return "'" + path_ + "'"; }

  TempDir dir_;
  std::string path_;
};
// Lower case, so that `ctest -R report` (case-sensitive) selects these tests.
using report_cli = ReportCli;

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// Exit 1 and exactly one line on stderr that names the file.
void expectBadInput(const waitscope::test::CommandResult& r, const std::string& path, const std::string& phrase) {
  EXPECT_EQ(r.exitCode, 1) << r.err;
  EXPECT_EQ(lines(r.err).size(), 1U) << r.err;
  EXPECT_NE(r.err.find(path), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(phrase), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");
}

TEST_F(report_cli, PrintJsonHasEveryInclusiveTotalExactly) {
  const auto r = report("print --json " + quoted());
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(r.out.rfind(
                "{\"metrics\": {\"time\": 8.4365234375, \"mpi\": 3.4375, \"mpi_synchronization\": 1.1875, "
                "\"mpi_rma_sync_late_post\": 1.125, \"mpi_latesender\": 1.125, \"mpi_latesender_wo\": 0.125, "
                "\"visits\": 39, \"bytes\": 12288, \"critical_path\": 2}, \"meta\": {",
                0),
            0U)
      << r.out;
  // Strings with quotes and tabs are escaped; one object on one line.
  EXPECT_NE(r.out.find("\"command_line\": \"waitscope-analyze \\\"a, b\\\"\\ttab\""), std::string::npos) << r.out;
  EXPECT_EQ(lines(r.out).size(), 1U);
  EXPECT_EQ(r.out.back(), '\n');
}

TEST_F(report_cli, PrintJsonRoundTripsAnyDouble) {
  waitscope::report::Report rep = sampleReport();
  rep.severities = {{0, 0, {0.1, 0.2, 1e-17}}};
  writeReport(rep, path_);
  const auto r = report("print --json " + quoted());
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const double expected = 0.1 + 0.2 + 1e-17;
  const std::string key = "\"time\": ";
  const std::size_t at = r.out.find(key);
  ASSERT_NE(at, std::string::npos);
  EXPECT_EQ(std::stod(r.out.substr(at + key.size())), expected) << r.out;
}

TEST_F(report_cli, PrintTextShowsTheTree) {
  const auto r = report("print " + quoted());
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const std::vector<std::string> out = lines(r.out);
  ASSERT_EQ(out.size(), 10U) << r.out;
  EXPECT_NE(out[0].find(path_), std::string::npos);
  EXPECT_EQ(out[1].rfind("Time [time]", 0), 0U) << out[1];
  EXPECT_NE(out[1].find("8.436523 s  100.00%"), std::string::npos) << out[1];
  EXPECT_EQ(out[4].rfind("      Late Post [mpi_rma_sync_late_post]", 0), 0U) << out[4];
  EXPECT_NE(out[4].find("1.125000 s   13.33%"), std::string::npos) << out[4];
  EXPECT_EQ(out[7].rfind("Visits [visits]", 0), 0U) << out[7];
  EXPECT_NE(out[7].find("39 occ"), std::string::npos) << out[7];
  EXPECT_EQ(out[7].find('%'), std::string::npos) << out[7];
  EXPECT_NE(out[8].find("12288 bytes"), std::string::npos) << out[8];
}

TEST_F(report_cli, CsvByCallPath) {
  const auto r = report("csv " + quoted() + " --metric mpi");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.out,
            "callpath,mpi,callpath_id,parent_id\n"
            "main,0,0,\n"
            "main/foo,0,1,0\n"
            "main/foo/MPI_Recv,1.625,2,1\n"
            "main/MPI_Win_start,1.4375,3,0\n"
            "\"main/compute,phase\",0.125,4,0\n"
            "main/MPI_Recv,0.25,5,0\n");
  EXPECT_EQ(report("csv " + quoted() + " --metric=mpi --by callpath").out, r.out);
}

TEST_F(report_cli, CsvByLocationAndBoth) {
  auto r = report("csv " + quoted() + " --metric mpi_latesender --by location");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.out, "location,mpi_latesender\nMPI Rank 0,0.25\nMPI Rank 1,0.625\nMPI Rank 2,0.25\n");
  r = report("csv --by both --metric mpi_latesender " + quoted());
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.out,
            "callpath,location,mpi_latesender,callpath_id\n"
            "main/foo/MPI_Recv,MPI Rank 1,0.625,2\n"
            "main/foo/MPI_Recv,MPI Rank 2,0.25,2\n"
            "main/MPI_Recv,MPI Rank 0,0.25,5\n");
}

TEST_F(report_cli, CsvQuotesFields) {
  waitscope::report::Report rep = sampleReport();
  rep.regions[4].name = "say \"hi\"\nnow";
  writeReport(rep, path_);
  const auto r = report("csv " + quoted() + " --metric mpi_rma_sync_late_post");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("\n\"main/say \"\"hi\"\"\nnow\",0.125,4,0\n"), std::string::npos) << r.out;
}

// A call path deeper than 16 levels is shortened to its first 4 and last 11 regions, so the
// CSV of a deep call tree grows with the number of call paths, not with the square of the depth
// (whole paths: 20000 levels of "f" would be 400 MB).
TEST_F(report_cli, CsvOfADeepCallTreeGrowsLinearly) {
  waitscope::report::Report rep = sampleReport();
  constexpr std::uint32_t kDepth = 20000;
  rep.regions.push_back({"f", "f.c", 1, 2, "user"});
  const auto f = static_cast<std::uint32_t>(rep.regions.size() - 1);
  std::uint32_t parent = 1;  // below main/foo
  for (std::uint32_t i = 0; i < kDepth; ++i) {
    rep.callPaths.push_back({parent, f, "f.c", 2});
    parent = static_cast<std::uint32_t>(rep.callPaths.size() - 1);
  }
  rep.severities.push_back({0, parent, {1.0, 2.0, 4.0}});
  writeReport(rep, path_);
  for (const char* by : {"callpath", "both"}) {
    const auto r = report("csv " + quoted() + " --metric time --by " + by);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const std::vector<std::string> rows = lines(r.out);
    EXPECT_LT(r.out.size(), std::size_t{100} * kDepth) << by;
    std::size_t longest = 0;
    for (const std::string& row : rows) longest = std::max(longest, row.size());
    EXPECT_LT(longest, 120U) << by;
  }
  const std::vector<std::string> rows = lines(report("csv " + quoted() + " --metric time").out);
  ASSERT_EQ(rows.size(), 1 + 6 + kDepth);
  // main/foo/f is 3 levels, written whole; the deepest keeps main/foo/f/f, then 11 of its f's.
  EXPECT_EQ(rows[4], "main/foo/f,0,6,1");
  std::string tail;
  for (int i = 0; i < 11; ++i) tail += "/f";
  EXPECT_EQ(rows[3 + kDepth], "main/foo/f/f/...(" + std::to_string(kDepth + 2 - 15) + " levels)..." + tail + ",7," +
                                  std::to_string(5 + kDepth) + "," + std::to_string(4 + kDepth));
  // 16 levels are written whole, 17 are shortened.
  std::string whole = "main/foo";
  for (int i = 0; i < 14; ++i) whole += "/f";
  EXPECT_EQ(rows[17].rfind(whole + ",0,19,18", 0), 0U) << rows[17];
  EXPECT_EQ(rows[18].rfind("main/foo/f/f/...(2 levels)..." + tail + ",0,20,19", 0), 0U) << rows[18];
}

// Whatever a command writes to standard output, a failed write (a full disk) exits with 1 and
// one line saying so, instead of 0 with a file that is empty or cut short.
TEST_F(report_cli, FailedWriteToStandardOutputExitsWithOne) {
  for (const std::string& command :
       {"print " + quoted(), "print --json " + quoted(), "csv " + quoted() + " --metric mpi",
        "csv " + quoted() + " --metric mpi --by both", "diagnostics " + quoted(), "sarif " + quoted() + " -o -",
        std::string("--help"), std::string("--version"), std::string("csv --help")}) {
    const auto r = run("{ " + tool("waitscope-report") + " " + command + " > /dev/full; }");
    EXPECT_EQ(r.exitCode, 1) << command << ": " << r.err;
    EXPECT_EQ(r.err, "waitscope-report: error: cannot write to standard output: No space left on device\n") << command;
  }
  // A closed standard output is fine when nothing is written to it.
  const std::string sarif = tool("waitscope-report") + " sarif " + quoted() + " -o '" + (dir_ / "out.sarif").string() + "'";
  EXPECT_EQ(run("{ " + sarif + " >&-; }").exitCode, 0);
  EXPECT_EQ(run("{ " + tool("waitscope-report") + " print " + quoted() + " >&-; }").exitCode, 1);
}

// A file system that fills up while a long CSV is written (a tmpfs of 64 KiB in a private mount
// namespace where the machine allows one; /dev/full above covers the rest).
TEST_F(report_cli, CsvIntoAFullFileSystemExitsWithOne) {
  if (run("unshare -rm true").exitCode != 0)
    GTEST_SKIP() << "no private mount namespace here (unshare -rm); /dev/full covers the failed write";
  waitscope::report::Report rep = sampleReport();
  for (std::uint32_t i = 0; i < 5000; ++i) rep.callPaths.push_back({0, 1, "main.c", i});
  writeReport(rep, path_);
  const fs::path mount = dir_ / "small";
  fs::create_directories(mount);
  const auto r = run("unshare -rm sh -c 'mount -t tmpfs -o size=64k tmpfs \"" + mount.string() + "\" && " +
                     tool("waitscope-report") + " csv \"" + path_ + "\" --metric time > \"" + mount.string() +
                     "/out.csv\"'");
  EXPECT_EQ(r.exitCode, 1) << r.err;
  EXPECT_EQ(r.err, "waitscope-report: error: cannot write to standard output: No space left on device\n");
}

TEST_F(report_cli, CsvUnknownMetricSaysWhereToFindNames) {
  const auto r = report("csv " + quoted() + " --metric mpi_nonsense");
  expectBadInput(r, path_, "waitscope-report print");
  EXPECT_NE(r.err.find("mpi_nonsense"), std::string::npos) << r.err;
}

TEST_F(report_cli, Diagnostics) {
  const auto r = report("diagnostics " + quoted());
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.out,
            "main.c:30: warning: 11.9% of time in Late Post (MPI_Win_start) [mpi_rma_sync_late_post] "
            "(worst: rank 0, 0.750 s)\n"
            "foo.c:12: warning: 10.4% of time in Late Sender (MPI_Recv) [mpi_latesender] (worst: rank 1, 0.625 s)\n"
            "main.c:10: warning: 3.0% of time in Late Sender (MPI_Recv) [mpi_latesender] (worst: rank 0, 0.250 s)\n"
            "compute.c:7: warning: 1.5% of time in Late Post (compute,phase) [mpi_rma_sync_late_post] "
            "(worst: rank 2, 0.125 s)\n"
            "foo.c:12: warning: 1.5% of time in Late Sender, wrong order (MPI_Recv) [mpi_latesender_wo] "
            "(worst: rank 1, 0.125 s)\n");
  EXPECT_EQ(lines(report("diagnostics --min-percent 2 " + quoted()).out).size(), 3U);
  EXPECT_EQ(lines(report("diagnostics --min-percent=50 " + quoted()).out).size(), 0U);
  // Categories (mpi, mpi_synchronization) and derived metrics (critical_path) never warn.
  const std::string all = report("diagnostics --min-percent 0 " + quoted()).out;
  EXPECT_EQ(lines(all).size(), 5U) << all;
}

TEST_F(report_cli, UsageErrorsExitWithTwo) {
  EXPECT_EQ(report("print").exitCode, 2);
  EXPECT_EQ(report("print --frobnicate " + quoted()).exitCode, 2);
  EXPECT_EQ(report("csv " + quoted()).exitCode, 2);
  EXPECT_EQ(report("csv " + quoted() + " --metric").exitCode, 2);
  EXPECT_EQ(report("csv " + quoted() + " --metric mpi --by rank").exitCode, 2);
  EXPECT_EQ(report("diagnostics " + quoted() + " --min-percent x").exitCode, 2);
  EXPECT_EQ(report("diagnostics " + quoted() + " --min-percent -1").exitCode, 2);
  EXPECT_EQ(report("diagnostics").exitCode, 2);
  for (const char* command : {"print", "csv", "diagnostics"}) {
    const auto r = report(std::string(command) + " --help");
    EXPECT_EQ(r.exitCode, 0);
    EXPECT_NE(r.out.find(std::string("usage: waitscope-report ") + command), std::string::npos) << r.out;
  }
  const auto help = report("--help");
  for (const char* command : {"print REPORT", "csv REPORT", "diagnostics REPORT"})
    EXPECT_NE(help.out.find(command), std::string::npos) << help.out;
}

TEST_F(report_cli, BadInputExitsWithOneLineNamingTheFile) {
  const std::string missing = (dir_ / "missing.wsr").string();
  for (const char* command : {"print", "csv --metric time", "diagnostics"})
    expectBadInput(report(std::string(command) + " '" + missing + "'"), missing, "cannot open");

  const std::string text = (dir_ / "notes.txt").string();
  std::ofstream(text) << "this is not a report\n";
  expectBadInput(report("print '" + text + "'"), text, "not a Waitscope report");

  const std::string truncated = (dir_ / "truncated.wsr").string();
  fs::copy_file(path_, truncated);
  fs::resize_file(truncated, fs::file_size(truncated) / 2);
  expectBadInput(report("print --json '" + truncated + "'"), truncated, "run waitscope-analyze again");

  const std::string incomplete = (dir_ / "incomplete.wsr").string();
  fs::copy_file(path_, incomplete);
  execSql(incomplete, "DELETE FROM meta WHERE key = 'complete'");
  expectBadInput(report("diagnostics '" + incomplete + "'"), incomplete, "report is incomplete");

  // The trace given where a report belongs.
  expectBadInput(report("print '" + waitscope::test::sharedTrace("scorep-rma/fence") + "'"),
                 waitscope::test::sharedTrace("scorep-rma/fence"), "analyze it with waitscope-analyze first");
}

}  // namespace
