// The profile report built from every process' call paths (profile_output.h): the
// metric tree (time categories, visits, *_estimate under their pattern's parent), the
// merged call tree, metric-exclusive values, the meta keys, the byte strings the
// processes send, and a write/read round trip.
#include <gtest/gtest.h>

#include <stdexcept>

#include "analysis/metrics/metric_table.h"
#include "analysis/metrics/mpi_category.h"
#include "analysis/profile/profile_output.h"
#include "analysis/report/report_io.h"
#include "analysis/report/report_queries.h"
#include "tests/support/test_support.h"

using namespace waitscope::profile;
namespace report = waitscope::report;

namespace {

NodeOut node(std::uint32_t parent, const std::string& region, const std::string& paradigm, double visits,
             double exclusive, double estimate = 0.0, const std::string& site = "", std::uint32_t line = 0) {
  NodeOut n;
  n.parent = parent;
  n.region = region;
  n.paradigm = paradigm;
  n.callSiteFile = site;
  n.callSiteLine = line;
  n.visits = visits;
  n.exclusiveSeconds = exclusive;
  n.estimate = estimate;
  return n;
}

// Two ranks: main/MPI_Recv at two call sites, main/MPI_Allreduce; rank 1 has a Waitall.
std::vector<RankOut> twoRanks() {
  RankOut r0{"node-a", {}};
  r0.nodes.push_back(node(kNone, "main", "user", 1, 2.0));
  r0.nodes.push_back(node(0, "MPI_Recv", "mpi", 4, 1.0, 0.75, "/src/app.c", 10));
  r0.nodes.push_back(node(0, "MPI_Allreduce", "mpi", 2, 0.5, 0.25, "/src/app.c", 20));
  RankOut r1{"node-a", {}};
  r1.nodes.push_back(node(kNone, "main", "user", 1, 3.0));
  r1.nodes.push_back(node(0, "MPI_Allreduce", "mpi", 2, 0.125, 0.0, "/src/app.c", 20));
  r1.nodes.push_back(node(0, "MPI_Recv", "mpi", 2, 0.5, 0.25, "/src/app.c", 12));
  NodeOut waitall = node(0, "MPI_Waitall", "mpi", 3, 0.5, 0.375, "/src/app.c", 30);
  waitall.testedEstimate = 0.125;
  r1.nodes.push_back(waitall);
  return {r0, r1};
}

double value(const report::Report& rep, const std::string& metric, const std::string& path, std::uint32_t line,
             std::uint32_t location) {
  const std::uint32_t m = rep.findMetric(metric);
  EXPECT_NE(m, report::kNoId) << metric;
  if (m == report::kNoId) return -1.0;
  double sum = 0.0;
  for (std::uint32_t c = 0; c < rep.callPaths.size(); ++c)
    if (report::callPathString(rep, c) == path && rep.callPaths[c].callSiteLine == line)
      sum += report::valuesByLocation(rep, m, c)[location];
  return sum;
}

// The value as stored (metric-exclusive).
double stored(const report::Report& rep, const std::string& metric, const std::string& path, std::uint32_t line,
              std::uint32_t location) {
  const std::uint32_t m = rep.findMetric(metric);
  for (const report::SeverityRow& row : rep.severities)
    if (row.metric == m && report::callPathString(rep, row.callPath) == path &&
        rep.callPaths[row.callPath].callSiteLine == line)
      return row.values[location];
  return 0.0;
}

TEST(profile_report, EstimatesSitUnderTheirPatternsParent) {
  const report::Report rep = buildProfileReport(twoRanks(), {});
  EXPECT_EQ(report::firstProblem(rep), "");
  for (int p = 1; p < kPatternCount; ++p) {
    const auto pattern = static_cast<Pattern>(p);
    const std::uint32_t m = rep.findMetric(estimateMetric(pattern));
    ASSERT_NE(m, report::kNoId) << estimateMetric(pattern);
    EXPECT_TRUE(rep.metrics[m].displayName.ends_with(" (estimate)"));
    // The parent is the trace analysis' parent of the pattern ...
    std::string parent;
    for (const auto& def : waitscope::metrics::metricTable())
      if (def.uniqueName == baseMetric(pattern)) parent = waitscope::metrics::definition(def.parent).uniqueName;
    ASSERT_NE(rep.metrics[m].parent, report::kNoId);
    EXPECT_EQ(rep.metrics[rep.metrics[m].parent].uniqueName, parent);
  }
  // ... and the time category of every function estimating it, so the category keeps the rest.
  for (const char* f : {"MPI_Recv", "MPI_Sendrecv", "MPI_Wait", "MPI_Waitall", "MPI_Waitany", "MPI_Waitsome",
                        "MPI_Send", "MPI_Ssend", "MPI_Allreduce", "MPI_Alltoallw", "MPI_Reduce_scatter_block",
                        "MPI_Barrier", "MPI_Bcast", "MPI_Scatterv", "MPI_Reduce", "MPI_Gatherv", "MPI_Win_fence",
                        "MPI_Win_start", "MPI_Win_complete", "MPI_Win_wait"}) {
    const std::uint32_t m = rep.findMetric(estimateMetric(estimateRule(f).pattern));
    ASSERT_NE(m, report::kNoId) << f;
    const auto category = waitscope::metrics::definition(waitscope::metrics::mpiTimeCategory(f)).uniqueName;
    EXPECT_EQ(rep.metrics[rep.metrics[m].parent].uniqueName, category) << f;
  }
  // Trace-only metrics are not in a profile.
  EXPECT_EQ(rep.findMetric("mpi_latesender"), report::kNoId);
  EXPECT_EQ(rep.findMetric("critical_path"), report::kNoId);
  EXPECT_NE(rep.findMetric("visits"), report::kNoId);
  EXPECT_EQ(rep.findMetric(kTestedLateSenderMetric), report::kNoId);
}

TEST(profile_report, MergesCallPathsAndKeepsValuesExclusive) {
  const report::Report rep = buildProfileReport(twoRanks(), {});
  ASSERT_EQ(rep.locations.size(), 2u);
  EXPECT_EQ(rep.locations[1].name, "MPI Rank 1");
  EXPECT_EQ(rep.systemNodes.size(), 2u);  // machine and the one host
  // main, Recv@10, Allreduce@20, Recv@12, Waitall@30
  EXPECT_EQ(rep.callPaths.size(), 5u);
  EXPECT_EQ(value(rep, "comp", "main", 0, 0), 2.0);
  EXPECT_EQ(value(rep, "comp", "main", 0, 1), 3.0);
  EXPECT_EQ(value(rep, "mpi_latesender_estimate", "main/MPI_Recv", 10, 0), 0.75);
  // Metric-inclusive, point-to-point is the call's time; stored metric-exclusive, the rest.
  EXPECT_EQ(value(rep, "mpi_point2point", "main/MPI_Recv", 10, 0), 1.0);
  EXPECT_EQ(stored(rep, "mpi_point2point", "main/MPI_Recv", 10, 0), 1.0 - 0.75);
  EXPECT_EQ(stored(rep, "mpi_latesender_estimate", "main/MPI_Recv", 10, 0), 0.75);
  EXPECT_EQ(value(rep, "mpi_latesender_estimate", "main/MPI_Recv", 12, 1), 0.25);
  EXPECT_EQ(value(rep, "mpi_wait_nxn_estimate", "main/MPI_Allreduce", 20, 0), 0.25);
  EXPECT_EQ(value(rep, "mpi_collective", "main/MPI_Allreduce", 20, 1), 0.125);
  EXPECT_EQ(value(rep, "visits", "main/MPI_Waitall", 30, 1), 3.0);
  // Inclusive totals: time = all exclusive time.
  const auto totals = report::metricTotals(rep);
  EXPECT_DOUBLE_EQ(totals[rep.findMetric("time")], 2.0 + 1.0 + 0.5 + 3.0 + 0.125 + 0.5 + 0.5);
  EXPECT_DOUBLE_EQ(totals[rep.findMetric("mpi_latesender_estimate")], 0.75 + 0.25 + 0.375);
  EXPECT_EQ(rep.metaValue("kind"), "profile");
  EXPECT_EQ(rep.metaValue("waitall_test_exclusion"), "off");
  EXPECT_NE(rep.metaValue("estimates").find("mpi_wait_nxn_estimate"), std::string::npos);
  EXPECT_EQ(rep.metaValue("estimates").find("mpi_latesender,"), std::string::npos);
}

TEST(profile_report, TestedEstimateIsASeparateRootMetric) {
  ReportSettings settings;
  settings.testExclusion = true;
  settings.meta = {{"command_line", "app 1 2"}};
  const report::Report rep = buildProfileReport(twoRanks(), settings);
  const std::uint32_t tested = rep.findMetric(kTestedLateSenderMetric);
  ASSERT_NE(tested, report::kNoId);
  EXPECT_EQ(rep.metrics[tested].parent, report::kNoId);  // an alternative, not a part of the time
  EXPECT_EQ(value(rep, kTestedLateSenderMetric, "main/MPI_Waitall", 30, 1), 0.125);
  EXPECT_EQ(value(rep, kTestedLateSenderMetric, "main/MPI_Recv", 12, 1), 0.0);  // only Wait/Waitall
  EXPECT_EQ(rep.metaValue("waitall_test_exclusion"), "on");
  EXPECT_EQ(rep.metaValue("command_line"), "app 1 2");
  EXPECT_NE(rep.metaValue("estimates").find(kTestedLateSenderMetric), std::string::npos);
}

TEST(profile_report, RoundTripThroughTheReportFile) {
  waitscope::test::TempDir dir;
  const std::string path = (dir / "profile.waitscope").string();
  const report::Report rep = buildProfileReport(twoRanks(), {});
  report::writeReport(rep, path);
  const report::Report back = report::readReport(path);
  EXPECT_EQ(back.metrics.size(), rep.metrics.size());
  EXPECT_EQ(back.severities.size(), rep.severities.size());
  EXPECT_EQ(value(back, "mpi_latesender_estimate", "main/MPI_Recv", 10, 0), 0.75);
  EXPECT_EQ(back.metaValue("kind"), "profile");
}

TEST(profile_report, RankRecordsRoundTripAndRejectDamage) {
  const RankOut r = twoRanks()[1];
  const std::string bytes = serialize(r);
  const RankOut back = deserialize(bytes);
  EXPECT_EQ(back.host, "node-a");
  ASSERT_EQ(back.nodes.size(), r.nodes.size());
  EXPECT_EQ(back.nodes[3].region, "MPI_Waitall");
  EXPECT_EQ(back.nodes[3].callSiteLine, 30u);
  EXPECT_EQ(back.nodes[3].testedEstimate, 0.125);
  EXPECT_EQ(back.nodes[2].parent, 0u);
  EXPECT_THROW(deserialize(bytes.substr(0, bytes.size() - 3)), std::runtime_error);
  EXPECT_THROW(deserialize(bytes + "x"), std::runtime_error);
}

}  // namespace
