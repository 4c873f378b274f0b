// Inclusive values along the metric tree, values per call path and location,
// call-path names, tree order and the consistency check, on the sample report
// whose totals are worked out in sample_report.h.
#include <gtest/gtest.h>

#include <limits>

#include "analysis/report/report_queries.h"
#include "tests/unit/report/sample_report.h"

using namespace waitscope::report;
using waitscope::test::sampleReport;

namespace {

TEST(report_queries, MetricTotalsAreInclusive) {
  const Report r = sampleReport();
  const std::vector<double> expected = {8.4365234375, 3.4375, 1.1875, 1.125, 1.125, 0.125, 39.0, 12288.0, 2.0};
  EXPECT_EQ(metricTotals(r), expected);
}

TEST(report_queries, ValuesByCallPathIncludeSubMetricsButNotCallees) {
  const Report r = sampleReport();
  // mpi and below: MPI_Recv under foo has mpi 0.75 + Late Sender 0.75 + its wrong-order part 0.125.
  EXPECT_EQ(valuesByCallPath(r, r.findMetric("mpi")), (std::vector<double>{0.0, 0.0, 1.625, 1.4375, 0.125, 0.25}));
  EXPECT_EQ(valuesByCallPath(r, r.findMetric("mpi_latesender")),
            (std::vector<double>{0.0, 0.0, 0.875, 0.0, 0.0, 0.25}));
  // main itself holds 3.0 of time; foo's 1.5 is not added to it.
  EXPECT_EQ(valuesByCallPath(r, r.findMetric("time"))[0], 3.0);
  EXPECT_EQ(valuesByCallPath(r, r.findMetric("time"))[1], 1.5);
  EXPECT_EQ(valuesByCallPath(r, kNoId), std::vector<double>(6, 0.0));
}

TEST(report_queries, ValuesByLocation) {
  const Report r = sampleReport();
  EXPECT_EQ(valuesByLocation(r, r.findMetric("mpi_latesender")), (std::vector<double>{0.25, 0.625, 0.25}));
  EXPECT_EQ(valuesByLocation(r, r.findMetric("mpi_latesender"), 2), (std::vector<double>{0.0, 0.625, 0.25}));
  EXPECT_EQ(valuesByLocation(r, r.findMetric("visits"), 2), (std::vector<double>{10.0, 12.0, 14.0}));
  const std::vector<std::vector<double>> both = valuesByCallPathAndLocation(r, r.findMetric("mpi_latesender"));
  ASSERT_EQ(both.size(), 6U);
  EXPECT_TRUE(both[0].empty());
  EXPECT_EQ(both[2], (std::vector<double>{0.0, 0.625, 0.25}));
  EXPECT_EQ(both[5], (std::vector<double>{0.25, 0.0, 0.0}));
}

TEST(report_queries, CallPathString) {
  const Report r = sampleReport();
  EXPECT_EQ(callPathString(r, 0), "main");
  EXPECT_EQ(callPathString(r, 2), "main/foo/MPI_Recv");
  EXPECT_EQ(callPathString(r, 4), "main/compute,phase");
  EXPECT_EQ(callPathString(r, kNoId), "");
}

TEST(report_queries, TreesDepthFirst) {
  const Report r = sampleReport();
  std::vector<std::pair<std::uint32_t, std::uint32_t>> order;
  for (const TreeEntry& e : callPathsDepthFirst(r)) order.emplace_back(e.index, e.depth);
  using Order = std::vector<std::pair<std::uint32_t, std::uint32_t>>;
  EXPECT_EQ(order, (Order{{0, 0}, {1, 1}, {2, 2}, {3, 1}, {4, 1}, {5, 1}}));
  order.clear();
  for (const TreeEntry& e : metricsDepthFirst(r)) order.emplace_back(e.index, e.depth);
  EXPECT_EQ(order, (Order{{0, 0}, {1, 1}, {2, 2}, {3, 3}, {4, 2}, {5, 3}, {6, 0}, {7, 0}, {8, 0}}));
  EXPECT_EQ(metricChildren(r)[1], (std::vector<std::uint32_t>{2, 4}));
  EXPECT_EQ(callPathChildren(r)[0], (std::vector<std::uint32_t>{1, 3, 4, 5}));
}

TEST(report_queries, FirstProblem) {
  EXPECT_EQ(firstProblem(sampleReport()), "");
  EXPECT_EQ(firstProblem(Report{}), "");
  Report r = sampleReport();
  r.metrics[2].parent = 2;
  EXPECT_EQ(firstProblem(r), "metric 2: parent 2 is not before it");
  r = sampleReport();
  r.systemNodes[0].parent = 1;
  EXPECT_EQ(firstProblem(r), "system node 0: parent 1 is not before it");
  r = sampleReport();
  r.callPaths[3].region = 5;
  EXPECT_EQ(firstProblem(r), "call path 3: region 5 out of range");
  r = sampleReport();
  r.locations[2].systemNode = 2;
  EXPECT_EQ(firstProblem(r), "location 2: system node 2 out of range");
  r = sampleReport();
  r.locations[2].systemNode = kNoId;  // a location outside the system tree is allowed
  EXPECT_EQ(firstProblem(r), "");
  r = sampleReport();
  r.severities[3].callPath = 6;
  EXPECT_EQ(firstProblem(r), "severity row 3: call path 6 out of range");
  r = sampleReport();
  r.severities[3].values[0] = -std::numeric_limits<double>::infinity();
  EXPECT_EQ(firstProblem(r), "severity row 3: a value is not finite");
  r = sampleReport();
  r.criticalPath[1].location = 3;
  EXPECT_EQ(firstProblem(r), "critical-path segment 1: location 3 out of range");
  r = sampleReport();
  r.meta.push_back({"trace", "again"});
  EXPECT_EQ(firstProblem(r), "meta entries 1 and 4 have the same key");
}

}  // namespace
