// The timeline of the Score-P gats trace (shared/traces/scorep-rma/gats), analyzed
// in parallel: the index finds every GATS epoch and transfer of the trace's
// records, and the slice shows the Late Post wait states on the origins' rows,
// in MPI_Win_start, and none on the target's row.
#include <gtest/gtest.h>

#include <algorithm>

#include "analysis/report/report_queries.h"
#include "analysis/timeline/timeline_query.h"
#include "tests/mpi/patterns/analysis_test_support.h"

namespace waitscope::timeline {
namespace {

std::size_t countEpochs(const LocationTimeline& l, EpochKind kind) {
  return static_cast<std::size_t>(std::count_if(l.epochs.items().begin(), l.epochs.items().end(),
                                                [&](const Epoch& e) { return e.kind == kind; }));
}

TEST(timeline_scorep, GatsEpochsTransfersAndLatePostRows) {
  const std::string anchor = WAITSCOPE_SHARED_DIR "/traces/scorep-rma/gats/traces.otf2";
  const report::Report report = test::analyzeFile(anchor);
  if (!test::isRoot()) return;
  const TimelineIndex index = buildTimelineIndex(anchor, report);
  ASSERT_EQ(index.locations.size(), 4u);

  // records_and_region_times.txt: 40 MPI_Win_post / _wait on rank 0, 40 MPI_Win_start / _complete on
  // each origin; ranks 1 and 3 put, rank 2 gets, 40 times each, always to rank 0.
  EXPECT_EQ(countEpochs(index.locations[0], EpochKind::Exposure), 40u);
  EXPECT_EQ(countEpochs(index.locations[0], EpochKind::Access), 0u);
  for (std::uint32_t origin = 1; origin < 4; ++origin) {
    EXPECT_EQ(countEpochs(index.locations[origin], EpochKind::Access), 40u) << origin;
    const auto& transfers = index.locations[origin].outgoing.items();
    ASSERT_EQ(transfers.size(), 40u) << origin;
    for (const Transfer& t : transfers) {
      EXPECT_EQ(t.target, 0u);
      EXPECT_EQ(t.kind, origin == 2 ? TransferKind::Get : TransferKind::Put);
      EXPECT_GE(t.end, t.start);
    }
  }
  EXPECT_EQ(index.locations[0].incoming.size(), 120u);

  const std::uint32_t latePost = report.findMetric("mpi_rma_sync_late_post");
  ASSERT_NE(latePost, report::kNoId);
  Slice slice;
  querySlice(index, {index.begin, index.end, 1000, {}}, slice);
  std::vector<std::uint64_t> latePosts(4, 0);
  for (const LocationSlice& l : slice.locations)
    for (const InstanceMark& i : l.instances)
      if (i.metric == latePost) {
        latePosts[l.location] += i.count;
        EXPECT_EQ(report::callPathString(report, i.callPath).rfind("MPI_Win_start"),
                  report::callPathString(report, i.callPath).size() - std::string("MPI_Win_start").size())
            << report::callPathString(report, i.callPath);
      }
  EXPECT_EQ(latePosts[0], 0u);
  for (std::uint32_t origin = 1; origin < 4; ++origin) EXPECT_GE(latePosts[origin], 15u) << origin;
}

}  // namespace
}  // namespace waitscope::timeline
