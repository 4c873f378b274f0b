// The critical path's profile per call path, from a report's severities.
#include <gtest/gtest.h>

#include "analysis/report/critical_path_profile.h"

namespace waitscope::report {
namespace {

// The time per call path comes from the critical_path severities (summed over
// locations, imbalance included), not from the segments: a segment is one visit
// to a location and names only the call path at its end.
TEST(critical_path_profile, TimePerCallPathFromTheSeveritiesLargestFirst) {
  Report r;
  r.metrics.push_back({"critical_path", "Critical Path", "", MetricUnit::Seconds, kNoId});
  r.metrics.push_back({"critical_path_imbalance", "Imbalance", "", MetricUnit::Seconds, 0});
  r.regions = {{"main", "", 0, 0, "user"}, {"MPI_Recv", "", 0, 0, "mpi"}, {"work", "", 0, 0, "user"}};
  r.callPaths = {{kNoId, 0, "", 0}, {0, 1, "", 0}, {0, 2, "", 0}};
  r.systemNodes.push_back({"node0", "node", kNoId});
  r.locations = {{"MPI Rank 0", 0, 0}, {"MPI Rank 1", 1, 0}};
  // Summed per call path, these would give work 3.0 s and MPI_Recv nothing.
  r.criticalPath = {{0, 2, 0.0, 1.5}, {1, 2, 1.5, 3.0}, {0, 0, 3.0, 3.5}};
  r.severities.push_back({0, 2, {0.75, 1.0}});  // critical_path of main/work, without its imbalance
  r.severities.push_back({0, 1, {0.0, 0.5}});   // main/MPI_Recv
  r.severities.push_back({0, 0, {0.5, 0.0}});   // main
  r.severities.push_back({1, 2, {0.75, 0.0}});  // imbalance of main/work on rank 0
  const auto rows = criticalPathProfile(r);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].callPath, 2u);  // work: 1.5 + 1.0 of 3.5 s
  EXPECT_DOUBLE_EQ(rows[0].onPath, 2.5);
  EXPECT_DOUBLE_EQ(rows[0].share, 2.5 / 3.5);
  EXPECT_DOUBLE_EQ(rows[0].imbalance, 0.75);
  EXPECT_EQ(rows[1].callPath, 0u);  // main 0.5 s (ties keep call-path order)
  EXPECT_DOUBLE_EQ(rows[1].onPath, 0.5);
  EXPECT_EQ(rows[2].callPath, 1u);
  EXPECT_DOUBLE_EQ(rows[2].onPath, 0.5);
  EXPECT_DOUBLE_EQ(rows[2].share, 0.5 / 3.5);
  EXPECT_DOUBLE_EQ(rows[2].imbalance, 0.0);

  // Reports before one segment per visit (a segment per call-path stretch) and
  // Cube reports without segments give the same profile.
  r.criticalPath = {{0, 2, 0.0, 1.5}, {1, 1, 1.5, 2.0}, {1, 2, 2.0, 3.0}, {0, 0, 3.0, 3.5}};
  const auto perStretch = criticalPathProfile(r);
  r.criticalPath.clear();
  const auto withoutSegments = criticalPathProfile(r);
  ASSERT_EQ(perStretch.size(), rows.size());
  ASSERT_EQ(withoutSegments.size(), rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(perStretch[i].callPath, rows[i].callPath);
    EXPECT_EQ(perStretch[i].onPath, rows[i].onPath);
    EXPECT_EQ(withoutSegments[i].callPath, rows[i].callPath);
    EXPECT_EQ(withoutSegments[i].onPath, rows[i].onPath);
  }
}

TEST(critical_path_profile, NoCriticalPathMetricNoProfile) {
  Report r;
  r.regions = {{"main", "", 0, 0, "user"}};
  r.callPaths = {{kNoId, 0, "", 0}};
  r.locations = {{"MPI Rank 0", 0, kNoId}};
  r.criticalPath = {{0, 0, 0.0, 1.0}};
  EXPECT_TRUE(criticalPathProfile(r).empty());
}

}  // namespace
}  // namespace waitscope::report
