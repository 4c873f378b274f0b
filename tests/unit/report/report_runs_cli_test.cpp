// waitscope-report diff, ratio, mean and pop on reports written by the test:
// exact values in text, JSON and CSV, the reports they write, the refusal to
// write over what is not a report, and exit codes 1 (bad input, one line naming
// the file) and 2 (wrong usage).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "analysis/report/report_io.h"
#include "analysis/report/report_queries.h"
#include "tests/support/test_support.h"
#include "tests/unit/report/json_value.h"
#include "tests/unit/report/sample_report.h"

using namespace waitscope::report;
using waitscope::test::Json;
using waitscope::test::JsonParser;
using waitscope::test::run;
using waitscope::test::sampleReport;
using waitscope::test::TempDir;
using waitscope::test::tool;
namespace fs = std::filesystem;

namespace {

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

using Words = std::vector<std::string>;
Words words(const std::string& line) {
  Words out;
  std::istringstream in(line);
  for (std::string word; in >> word;) out.push_back(word);
  return out;
}

// The sample report with `ranks` locations: row values repeat the sample's first three ranks'.
Report sampleWithRanks(std::size_t ranks) {
  Report r = sampleReport();
  r.locations.clear();
  for (std::uint32_t p = 0; p < ranks; ++p) r.locations.push_back({"MPI Rank " + std::to_string(p), p, 1});
  for (SeverityRow& row : r.severities) {
    const std::vector<double> three = row.values;
    row.values.resize(ranks);
    for (std::size_t p = 0; p < ranks; ++p) row.values[p] = three[p % 3];
  }
  r.instances.clear();
  r.criticalPath.clear();
  return r;
}

// B: the sample with rank 0 spending 1 s more in main and a metric A lacks, Late Receiver
// (0.5 s at main/foo/MPI_Recv on rank 2).
Report sampleB() {
  Report r = sampleReport();
  r.meta = {{"format_version", "1"}, {"trace", "/data/run 2/traces.otf2"}};
  r.severities[0].values = {2.0, 1.0, 1.0};
  r.metrics.push_back({"mpi_latereceiver", "Late Receiver", "", MetricUnit::Seconds, 1});
  r.severities.push_back({9, 2, {0.0, 0.0, 0.5}});
  return r;
}

// A run for the POP metrics: time > comp, mpi > mpi_latesender, one call path. With comp
// {3, 1} and mpi {0.5, 1.5} of which Late Sender {0, 1}: T_p = 3.5 each, W_p = 0 | 1.
Report popRun(std::vector<double> comp, std::vector<double> mpi, std::vector<double> lateSender) {
  Report r;
  r.meta = {{"format_version", "1"}};
  r.metrics = {{"time", "Time", "", MetricUnit::Seconds, kNoId},
               {"comp", "Computation", "", MetricUnit::Seconds, 0},
               {"mpi", "MPI", "", MetricUnit::Seconds, 0},
               {"mpi_latesender", "Late Sender", "", MetricUnit::Seconds, 2}};
  r.regions = {{"main", "", 0, 0, "user"}};
  r.callPaths = {{kNoId, 0, "", 0}};
  for (std::uint32_t p = 0; p < comp.size(); ++p) r.locations.push_back({"MPI Rank " + std::to_string(p), p, kNoId});
  r.severities = {{1, 0, std::move(comp)}, {2, 0, std::move(mpi)}, {3, 0, std::move(lateSender)}};
  return r;
}

class ReportRunsCli : public ::testing::Test {
 protected:
  void SetUp() override {
    a_ = (dir_ / "run a.waitscope").string();  // a space, so quoting in the commands matters
    b_ = (dir_ / "run b.waitscope").string();
    writeReport(sampleReport(), a_);
    writeReport(sampleB(), b_);
  }
  waitscope::test::CommandResult report(const std::string& arguments) const {
    return run(tool("waitscope-report") + " " + arguments);
  }
  static std::string q(const std::string& path) { return "'" + path + "'"; }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  TempDir dir_;
  std::string a_, b_;
};
using report_runs_cli = ReportRunsCli;

// Exit 1 and exactly one line on stderr that names the file.
void expectBadInput(const waitscope::test::CommandResult& r, const std::string& path, const std::string& phrase) {
  EXPECT_EQ(r.exitCode, 1) << r.err;
  EXPECT_EQ(lines(r.err).size(), 1U) << r.err;
  EXPECT_NE(r.err.find(path), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(phrase), std::string::npos) << r.err;
}

TEST_F(report_runs_cli, DiffPrintsTheTreeWithBothRunsDifferenceAndRatio) {
  const auto r = report("diff " + q(a_) + " " + q(b_));
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const std::vector<std::string> out = lines(r.out);
  ASSERT_GE(out.size(), 13U) << r.out;
  EXPECT_EQ(out[0], "A: " + a_);
  EXPECT_EQ(out[1], "B: " + b_);
  EXPECT_EQ(out[2].rfind("metric (inclusive: all call paths and locations)", 0), 0U);
  // time: A 8.4365234375, B 1.5 s more (1 s in main, 0.5 s of Late Receiver): ratio 1.1778...
  EXPECT_EQ(words(out[3]), (Words{"Time", "[time]", "8.436523", "s", "9.936523", "s", "+1.500000", "s", "1.178"}));
  // Late Receiver, only in B, indented below MPI after A's metrics.
  EXPECT_EQ(out[9].rfind("    Late Receiver [mpi_latereceiver]", 0), 0U) << r.out;
  EXPECT_EQ(words(out[9]), (Words{"Late", "Receiver", "[mpi_latereceiver]", "0.000000", "s", "0.500000", "s",
                                  "+0.500000", "s", "inf"}));
  EXPECT_EQ(words(out[10]), (Words{"Visits", "[visits]", "39", "occ", "39", "occ", "0", "occ", "1.000"}));
  EXPECT_EQ(r.out.find("ranks"), std::string::npos);  // same ranks: no word about them
}

TEST_F(report_runs_cli, DiffJsonHasExactNumbers) {
  const auto r = report("diff --json " + q(a_) + " " + q(b_));
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(lines(r.out).size(), 1U);
  const Json json = JsonParser(r.out).parse();
  EXPECT_EQ(json["a"].string, a_);
  EXPECT_EQ(json["b"].string, b_);
  EXPECT_EQ(json["same_ranks"].boolean, true);
  EXPECT_EQ(json["ranks_a"].number, 3.0);
  const Json& time = json["metrics"][0];
  EXPECT_EQ(time["name"].string, "time");
  EXPECT_EQ(time["display_name"].string, "Time");
  EXPECT_EQ(time["unit"].string, "sec");
  EXPECT_EQ(time["depth"].number, 0.0);
  EXPECT_EQ(time["a"].number, 8.4365234375);
  EXPECT_EQ(time["b"].number, 9.9365234375);
  EXPECT_EQ(time["difference"].number, 1.5);
  EXPECT_EQ(time["ratio"].number, 9.9365234375 / 8.4365234375);
  // Per rank (time inclusive): A 2.9375 | 2.4990234375 | 3, B adds 1 to rank 0 and 0.5 to rank 2.
  EXPECT_EQ(time["max_a"].number, 3.0);
  EXPECT_EQ(time["min_a"].number, 2.4990234375);
  EXPECT_EQ(time["mean_a"].number, 8.4365234375 / 3);
  EXPECT_EQ(time["max_b"].number, 3.9375);
  EXPECT_EQ(time["min_b"].number, 2.4990234375);
  const Json& lateReceiver = json["metrics"][6];
  EXPECT_EQ(lateReceiver["name"].string, "mpi_latereceiver");
  EXPECT_EQ(lateReceiver["depth"].number, 2.0);
  EXPECT_EQ(lateReceiver["a"].number, 0.0);
  EXPECT_EQ(lateReceiver["ratio"].kind, Json::Kind::Null);  // B/0
  EXPECT_EQ(json["metrics"][7]["unit"].string, "occ");
  EXPECT_EQ(json["metrics"][8]["unit"].string, "bytes");
}

TEST_F(report_runs_cli, DiffCsv) {
  const auto r = report("diff --csv " + q(a_) + " " + q(b_));
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const std::vector<std::string> out = lines(r.out);
  ASSERT_EQ(out.size(), 11U);
  EXPECT_EQ(out[0], "name,display_name,unit,depth,a,b,difference,ratio,mean_a,min_a,max_a,mean_b,min_b,max_b");
  EXPECT_EQ(out[7].rfind("mpi_latereceiver,Late Receiver,sec,2,0,0.5,0.5,inf,0,0,0,", 0), 0U) << out[7];
  EXPECT_EQ(out[8], "visits,Visits,occ,0,39,39,0,1,13,11,15,13,11,15");
}

TEST_F(report_runs_cli, DiffOfDifferentRankCountsSaysSoAndGivesPerRankValues) {
  const std::string wide = path("wide.waitscope");
  writeReport(sampleWithRanks(6), wide);
  const auto r = report("diff " + q(a_) + " " + q(wide));
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(lines(r.out)[2],
            "A has 3 ranks and B 6: per-rank values are not comparable, the totals are over all ranks (per-rank "
            "mean, min and max: --json or --csv)");
  const auto j = report("diff --json " + q(a_) + " " + q(wide));
  ASSERT_EQ(j.exitCode, 0) << j.err;
  const Json json = JsonParser(j.out).parse();
  EXPECT_EQ(json["same_ranks"].boolean, false);
  EXPECT_EQ(json["ranks_b"].number, 6.0);
  const Json& time = json["metrics"][0];
  EXPECT_EQ(time["b"].number, 2 * 8.4365234375);
  EXPECT_EQ(time["difference"].number, 8.4365234375);
  EXPECT_EQ(time["mean_b"].number, time["mean_a"].number);
  EXPECT_EQ(time["max_b"].number, 3.0);
  EXPECT_EQ(time["min_b"].number, 2.4990234375);
}

TEST_F(report_runs_cli, DiffWritesTheDifferenceReport) {
  const std::string d = path("d.waitscope");
  const auto r = report("diff " + q(a_) + " " + q(b_) + " -o " + q(d));
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const Report diff = readReport(d);
  EXPECT_EQ(diff.metaValue("kind"), "difference");
  EXPECT_EQ(diff.metaValue("minuend"), "/data/run 2/traces.otf2");
  EXPECT_EQ(diff.metaValue("subtrahend"), "/data/run 1/traces.otf2");
  EXPECT_EQ(diff.metaValue("minuend_report"), b_);
  EXPECT_EQ(diff.metaValue("subtrahend_report"), a_);
  const std::vector<double> totals = metricTotals(diff);
  EXPECT_EQ(totals[diff.findMetric("time")], 1.5);  // 1 s in main, 0.5 s of Late Receiver
  EXPECT_EQ(totals[diff.findMetric("visits")], 0.0);
  // An existing report is replaced, as waitscope-analyze replaces one.
  const auto again = report("diff " + q(b_) + " " + q(a_) + " -o " + q(d));
  ASSERT_EQ(again.exitCode, 0) << again.err;
  EXPECT_EQ(metricTotals(readReport(d))[0], -1.5);
  // The printed difference and the report's agree.
  const auto printed = report("print --json " + q(d));
  ASSERT_EQ(printed.exitCode, 0) << printed.err;
  EXPECT_EQ(JsonParser(printed.out).parse()["metrics"]["time"].number, -1.5);
}

TEST_F(report_runs_cli, OutputThatIsNotAReportIsNeverReplaced) {
  const std::string notes = path("notes.txt");
  std::ofstream(notes) << "my notes\n";
  for (const std::string& command : {"diff " + q(a_) + " " + q(b_) + " -o " + q(notes),
                                     "ratio " + q(a_) + " " + q(b_) + " -o " + q(notes),
                                     "mean " + q(a_) + " " + q(b_) + " -o " + q(notes)}) {
    SCOPED_TRACE(command);
    const auto r = report(command);
    expectBadInput(r, notes, "is not written there");
    EXPECT_EQ(r.out, "");  // refused before anything is printed
    std::ifstream in(notes);
    EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), "my notes\n");
  }
  // Nor is one of the inputs, although it is a report.
  expectBadInput(report("ratio " + q(a_) + " " + q(b_) + " -o " + q(a_)), a_, "it is an input of this command");
  EXPECT_EQ(metricTotals(readReport(a_))[0], 8.4365234375);
  expectBadInput(report("diff " + q(a_) + " " + q(b_) + " -o " + q(dir_.path().string())),
                 dir_.path().string(), "is a directory");
}

TEST_F(report_runs_cli, RatioAndMeanWriteTheirReports) {
  const std::string ratio = path("r.waitscope"), mean = path("m.waitscope");
  ASSERT_EQ(report("ratio " + q(a_) + " " + q(b_) + " -o " + q(ratio)).exitCode, 0);
  const Report r = readReport(ratio);
  EXPECT_EQ(r.metaValue("kind"), "ratio");
  EXPECT_EQ(r.metaValue("numerator_report"), b_);
  // main's own time: {2, 1, 1} / {1, 1, 1}; Late Receiver (A: 0) is left out.
  EXPECT_EQ(r.severities[0].metric, 0U);
  EXPECT_EQ(r.severities[0].callPath, 0U);
  EXPECT_EQ(r.severities[0].values, (std::vector<double>{2.0, 1.0, 1.0}));
  EXPECT_EQ(metricTotals(r)[r.findMetric("mpi_latereceiver")], 0.0);

  const auto m = report("mean " + q(a_) + " " + q(b_) + " " + q(b_) + " " + q(a_) + " -o " + q(mean));
  ASSERT_EQ(m.exitCode, 0) << m.err;
  const Report averaged = readReport(mean);
  EXPECT_EQ(averaged.metaValue("kind"), "mean");
  EXPECT_EQ(averaged.metaValue("report_4"), a_);
  EXPECT_EQ(averaged.severities[0].values, (std::vector<double>{1.5, 1.0, 1.0}));
  const std::vector<double> totals = metricTotals(averaged);
  EXPECT_EQ(totals[0], 8.4365234375 + 0.75);
  EXPECT_EQ(totals[averaged.findMetric("mpi_latereceiver")], 0.25);

  const std::string wide = path("wide.waitscope");
  writeReport(sampleWithRanks(6), wide);
  expectBadInput(report("mean " + q(a_) + " " + q(wide) + " -o " + q(path("m2.waitscope"))), wide,
                 "the mean needs runs with the same ranks");
  EXPECT_FALSE(fs::exists(path("m2.waitscope")));
}

TEST_F(report_runs_cli, PopTableJsonAndCsv) {
  const std::string two = path("two.waitscope"), four = path("four.waitscope");
  writeReport(popRun({3.0, 1.0}, {0.5, 1.5}, {0.0, 1.0}), two);
  // Four ranks: comp 1, MPI 0.75 without waiting: T = 1.75, speedup 2, scaling efficiency 1.
  writeReport(popRun({1.0, 1.0, 1.0, 1.0}, {0.75, 0.75, 0.75, 0.75}, {0.0, 0.0, 0.0, 0.0}), four);
  const auto j = report("pop --json " + q(two) + " " + q(four));
  ASSERT_EQ(j.exitCode, 0) << j.err;
  const Json json = JsonParser(j.out).parse();
  ASSERT_EQ(json["runs"].array.size(), 2U);
  const Json& ref = json["runs"][0];
  EXPECT_EQ(ref["label"].string, two);
  EXPECT_EQ(ref["processes"].number, 2.0);
  EXPECT_EQ(ref["runtime"].number, 3.5);
  EXPECT_EQ(ref["waiting_time"].number, 1.0);
  EXPECT_EQ(ref["ideal_runtime"].number, 3.5);
  EXPECT_EQ(ref["load_balance"].number, 2.0 / 3.0);
  EXPECT_EQ(ref["communication_efficiency"].number, 3.0 / 3.5);
  EXPECT_EQ(ref["serialisation_efficiency"].number, 3.0 / 3.5);
  EXPECT_EQ(ref["transfer_efficiency"].number, 1.0);
  EXPECT_EQ(ref["speedup"].kind, Json::Kind::Null);
  const Json& scaled = json["runs"][1];
  EXPECT_EQ(scaled["speedup"].number, 2.0);
  EXPECT_EQ(scaled["scaling_efficiency"].number, 1.0);
  EXPECT_EQ(scaled["computation_scaling"].number, 1.0);
  EXPECT_EQ(scaled["global_efficiency"].number, 1.0 / 1.75);

  const auto t = report("pop " + q(two) + " " + q(four));
  ASSERT_EQ(t.exitCode, 0) << t.err;
  const std::vector<std::string> table = lines(t.out);
  ASSERT_EQ(table.size(), 5U) << t.out;
  EXPECT_EQ(table[2].rfind(two + "  ", 0), 0U) << table[2];
  EXPECT_NE(table[2].find("0.667*"), std::string::npos) << table[2];  // LB below 0.8
  EXPECT_EQ(table[3].rfind(four + " ", 0), 0U) << table[3];
  EXPECT_NE(table[3].find("2.000"), std::string::npos) << table[3];

  const auto c = report("pop --csv " + q(two));
  ASSERT_EQ(c.exitCode, 0) << c.err;
  ASSERT_EQ(lines(c.out).size(), 2U);
  EXPECT_EQ(lines(c.out)[1].rfind(two + ",2,3.5,2,3,4,1,3.5,", 0), 0U) << c.out;
}

TEST_F(report_runs_cli, PopOfAReportWithoutComputationNamesIt) {
  expectBadInput(report("pop " + q(a_)), a_, "no \"comp\" metric");
  const std::string two = path("two.waitscope"), d = path("d.waitscope");
  writeReport(popRun({3.0, 1.0}, {0.5, 1.5}, {0.0, 1.0}), two);
  ASSERT_EQ(report("diff " + q(two) + " " + q(two) + " -o " + q(d)).exitCode, 0);
  expectBadInput(report("pop " + q(two) + " " + q(d)), d, "the report is the difference of two runs");
}

TEST_F(report_runs_cli, MissingFileIsOneLineNamingIt) {
  const std::string missing = path("missing.waitscope");
  expectBadInput(report("diff " + q(a_) + " " + q(missing)), missing, "no such file");
  expectBadInput(report("pop " + q(missing)), missing, "no such file");
  expectBadInput(report("mean " + q(missing) + " " + q(a_) + " -o " + q(path("m.waitscope"))), missing,
                 "no such file");
}

TEST_F(report_runs_cli, UsageErrorsExitWithTwo) {
  for (const std::string& arguments :
       {"diff " + q(a_), "diff " + q(a_) + " " + q(b_) + " " + q(b_), "diff --json --csv " + q(a_) + " " + q(b_),
        "diff " + q(a_) + " " + q(b_) + " -o", "diff --bogus " + q(a_) + " " + q(b_), "ratio " + q(a_) + " " + q(b_),
        "mean " + q(a_) + " -o " + q(path("m.waitscope")), std::string("pop"), "pop --json --csv " + q(a_)}) {
    SCOPED_TRACE(arguments);
    const auto r = report(arguments);
    EXPECT_EQ(r.exitCode, 2) << r.err;
    EXPECT_NE(r.err.find("usage: waitscope-report"), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "");
  }
  for (const char* command : {"diff", "ratio", "mean", "pop"}) {
    const auto help = report(std::string(command) + " --help");
    EXPECT_EQ(help.exitCode, 0) << help.err;
    EXPECT_EQ(help.out.rfind(std::string("usage: waitscope-report ") + command, 0), 0U) << help.out;
  }
}

}  // namespace
