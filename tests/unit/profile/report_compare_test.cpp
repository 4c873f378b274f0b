// waitscope-report compare: call paths matched by path and call site, wait ratios
// against each report's own total time, the 0.5% threshold, the test-based column,
// and the refusal of swapped reports.
#include <gtest/gtest.h>

#include <sstream>
#include <stdexcept>

#include "analysis/profile/profile_output.h"
#include "analysis/report/profile_comparison.h"
#include "analysis/report/report_io.h"
#include "tests/support/test_support.h"

using namespace waitscope::profile;
namespace report = waitscope::report;
using waitscope::report::compareReports;

namespace {

NodeOut node(std::uint32_t parent, const std::string& region, const std::string& paradigm, double exclusive,
             double estimate, std::uint32_t line) {
  NodeOut n;
  n.parent = parent;
  n.region = region;
  n.paradigm = paradigm;
  n.callSiteFile = line ? "/src/app.c" : "";
  n.callSiteLine = line;
  n.visits = 1;
  n.exclusiveSeconds = exclusive;
  n.estimate = estimate;
  return n;
}

// Profile: total time 10 s (one rank).
report::Report profileReport() {
  RankOut r{"h", {}};
  r.nodes.push_back(node(kNone, "main", "user", 6.0, 0.0, 0));
  r.nodes.push_back(node(0, "MPI_Recv", "mpi", 2.0, 1.0, 10));        // 10 %
  r.nodes.push_back(node(0, "MPI_Recv", "mpi", 0.5, 0.04, 11));       // 0.4 %: below 0.5 % in both
  NodeOut waitall = node(0, "MPI_Waitall", "mpi", 1.0, 0.5, 12);     // 5 %, tested 2 %
  waitall.testedEstimate = 0.2;
  r.nodes.push_back(waitall);
  r.nodes.push_back(node(0, "MPI_Allreduce", "mpi", 0.5, 0.3, 13));  // 3 %
  ReportSettings s;
  s.testExclusion = true;
  return buildProfileReport({r}, s);
}

// A trace analysis of the same program: total time 20 s, so ratios halve for equal seconds.
report::Report traceReport() {
  report::Report t;
  t.metrics = {{"time", "Time", "", report::MetricUnit::Seconds, report::kNoId},
               {"mpi_latesender", "Late Sender", "", report::MetricUnit::Seconds, 0},
               {"mpi_wait_nxn", "Wait at N x N", "", report::MetricUnit::Seconds, 0}};
  t.regions = {{"main", "", 0, 0, "user"}, {"MPI_Recv", "", 0, 0, "mpi"}, {"MPI_Waitall", "", 0, 0, "mpi"},
               {"MPI_Allreduce", "", 0, 0, "mpi"}};
  t.callPaths = {{report::kNoId, 0, "", 0},
                 {0, 1, "/src/app.c", 10},
                 {0, 2, "/src/app.c", 12},
                 {0, 3, "/src/app.c", 13},
                 {0, 1, "/src/app.c", 99}};  // only the trace has it
  t.systemNodes = {{"m", "machine", report::kNoId}};
  t.locations = {{"MPI Rank 0", 0, 0}};
  t.severities = {{0, 0, {20.0 - 1.6 - 0.2 - 0.6 - 0.3}},
                  {1, 1, {1.6}},   // 8 %
                  {1, 2, {0.2}},   // 1 %
                  {2, 3, {0.6}},   // 3 %
                  {1, 4, {0.3}}};  // 1.5 %
  return t;
}

const waitscope::report::ComparisonRow* find(const std::vector<waitscope::report::ComparisonRow>& rows,
                                            const std::string& metric, const std::string& site) {
  for (const auto& r : rows)
    if (r.metric == metric && r.callSite == site) return &r;
  return nullptr;
}

TEST(report_compare, WaitRatiosPerCallPath) {
  const auto rows = compareReports(profileReport(), traceReport(), 0.5);
  ASSERT_EQ(rows.size(), 4u);
  const auto* recv = find(rows, "mpi_latesender", "app.c:10");
  ASSERT_NE(recv, nullptr);
  EXPECT_EQ(recv->callPath, "main/MPI_Recv");
  EXPECT_DOUBLE_EQ(recv->profileRatio, 10.0);
  EXPECT_DOUBLE_EQ(recv->traceRatio, 8.0);
  EXPECT_DOUBLE_EQ(recv->differencePoints(), 2.0);
  EXPECT_FALSE(recv->hasTested);
  EXPECT_EQ(find(rows, "mpi_latesender", "app.c:11"), nullptr);  // under 0.5 % in both
  const auto* only = find(rows, "mpi_latesender", "app.c:99");
  ASSERT_NE(only, nullptr);
  EXPECT_DOUBLE_EQ(only->profileRatio, 0.0);
  EXPECT_DOUBLE_EQ(only->traceRatio, 1.5);
  const auto* waitall = find(rows, "mpi_latesender", "app.c:12");
  ASSERT_NE(waitall, nullptr);
  EXPECT_DOUBLE_EQ(waitall->profileRatio, 5.0);
  EXPECT_DOUBLE_EQ(waitall->traceRatio, 1.0);
  EXPECT_TRUE(waitall->hasTested);
  EXPECT_DOUBLE_EQ(waitall->testedRatio, 2.0);
  const auto* nxn = find(rows, "mpi_wait_nxn", "app.c:13");
  ASSERT_NE(nxn, nullptr);
  EXPECT_EQ(nxn->pattern, "Wait at N x N");
  EXPECT_DOUBLE_EQ(nxn->profileRatio, 3.0);
  EXPECT_DOUBLE_EQ(nxn->traceRatio, 3.0);
  // Largest first within a pattern.
  EXPECT_EQ(rows[0].callSite, "app.c:10");
  // A higher threshold drops the small rows.
  EXPECT_EQ(compareReports(profileReport(), traceReport(), 4.0).size(), 2u);
}

TEST(report_compare, PrintsTableAndCsv) {
  const auto rows = compareReports(profileReport(), traceReport(), 0.5);
  std::ostringstream table, csv;
  waitscope::report::printComparison(rows, 0.5, "p.waitscope", "t.waitscope", table);
  EXPECT_NE(table.str().find("Late Sender    main/MPI_Recv       app.c:10     10.00%     8.00%   +2.00 pp\n"),
            std::string::npos)
      << table.str();
  EXPECT_NE(table.str().find("5.00%     1.00%   +4.00 pp     2.00%   +1.00 pp\n"), std::string::npos) << table.str();
  waitscope::report::printComparisonCsv(rows, csv);
  EXPECT_NE(csv.str().find("mpi_latesender,main/MPI_Recv,app.c:10,1,1.6,10,8,2,\n"), std::string::npos) << csv.str();
}

TEST(report_compare, RefusesSwappedReports) {
  EXPECT_THROW(compareReports(traceReport(), traceReport(), 0.5), std::runtime_error);
  EXPECT_THROW(compareReports(profileReport(), profileReport(), 0.5), std::runtime_error);
  waitscope::test::TempDir dir;
  const std::string p = (dir / "p.waitscope").string(), t = (dir / "t.waitscope").string();
  report::writeReport(profileReport(), p);
  report::writeReport(traceReport(), t);
  const auto ok = waitscope::test::run(waitscope::test::tool("waitscope-report") + " compare " + p + " " + t);
  EXPECT_EQ(ok.exitCode, 0) << ok.err;
  EXPECT_NE(ok.out.find("+2.00 pp"), std::string::npos) << ok.out;
  const auto swapped = waitscope::test::run(waitscope::test::tool("waitscope-report") + " compare " + t + " " + p);
  EXPECT_EQ(swapped.exitCode, 1);
  EXPECT_EQ(swapped.err, "waitscope-report: error: " + t +
                             ": not a wait-state profile (record one with waitscope-run --profile)\n");
  const auto usage = waitscope::test::run(waitscope::test::tool("waitscope-report") + " compare " + p);
  EXPECT_EQ(usage.exitCode, 2);
}

}  // namespace
