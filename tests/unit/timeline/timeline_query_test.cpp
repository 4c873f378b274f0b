// The slice query on hand-made traces: exact merges and dominant regions at
// several widths, matched messages, RMA epochs and transfers, wait-state
// instances and critical-path segments, and the window cut.
#include <gtest/gtest.h>

#include <tuple>

#include "analysis/timeline/region_group.h"
#include "analysis/timeline/timeline_query.h"
#include "tests/unit/timeline/timeline_scenarios.h"

namespace waitscope::timeline {
namespace {

using Span = std::tuple<double, double, std::uint32_t, std::uint32_t>;  // start, end, call path, merged

std::vector<Span> spans(const LocationSlice& s) {
  std::vector<Span> out;
  for (const RegionSpan& r : s.regions) out.emplace_back(r.start, r.end, r.callPath, r.merged);
  return out;
}

class MessagesTrace : public ::testing::Test {
 protected:
  void SetUp() override {
    test::buildMessages(builder_);
    report_ = test::reportSkeleton(builder_.trace());
    index_ = buildTimelineIndex(builder_.trace(), report_);
    main_ = test::callPathOf(report_, "main");
    foo_ = test::callPathOf(report_, "main/foo");
    bar_ = test::callPathOf(report_, "main/bar");
    send_ = test::callPathOf(report_, "main/MPI_Send");
    ASSERT_NE(send_, kNoId);
  }
  Slice query(double from, double to, std::uint32_t width, std::vector<std::uint32_t> locations = {}) {
    Slice s;
    querySlice(index_, {from, to, width, std::move(locations)}, s);
    return s;
  }
  trace::TraceBuilder builder_{2};
  report::Report report_;
  TimelineIndex index_;
  std::uint32_t main_ = 0, foo_ = 0, bar_ = 0, send_ = 0;
};
using timeline_query = MessagesTrace;

TEST_F(timeline_query, IndexHoldsExactIntervalsAndTimeRange) {
  EXPECT_EQ(index_.begin, 0.0);
  EXPECT_EQ(index_.end, 8.0);
  // main, foo, 8 sends with 7 main gaps between, main, bar, main, end marker.
  EXPECT_EQ(index_.locations[0].levels[0].points().size(), 21u);
  EXPECT_EQ(index_.locations[0].levels.size(), 1u);  // too few points for coarser levels
}

TEST_F(timeline_query, EveryIntervalExactWhenEachIsAtLeastOnePixel) {
  const Slice s = query(0, 8, 1024);  // pixel 1/128 s; the shortest interval is 1/64 s
  ASSERT_EQ(s.locations.size(), 2u);
  const auto r = spans(s.locations[0]);
  ASSERT_EQ(r.size(), 20u);
  EXPECT_EQ(r[0], Span(0.0, 1.0, main_, 1));
  EXPECT_EQ(r[1], Span(1.0, 2.0, foo_, 1));
  EXPECT_EQ(r[2], Span(2.0, 2.046875, send_, 1));
  EXPECT_EQ(r[3], Span(2.046875, 2.0625, main_, 1));
  EXPECT_EQ(r[16], Span(2.4375, 2.484375, send_, 1));
  EXPECT_EQ(r[17], Span(2.484375, 4.0, main_, 1));
  EXPECT_EQ(r[18], Span(4.0, 5.0, bar_, 1));
  EXPECT_EQ(r[19], Span(5.0, 8.0, main_, 1));
  EXPECT_EQ(s.locations[0].regions[2].group, RegionGroup::MpiPointToPoint);
  EXPECT_EQ(s.locations[0].regions[0].group, RegionGroup::UserCode);
}

TEST_F(timeline_query, ShortIntervalsMergeIntoTheirDominantRegionPerPixel) {
  const Slice s = query(0, 8, 64);  // pixel 1/8 s: the sends (3/64) and gaps (1/64) are short
  const auto r = spans(s.locations[0]);
  ASSERT_EQ(r.size(), 6u);
  EXPECT_EQ(r[0], Span(0.0, 1.0, main_, 1));
  EXPECT_EQ(r[1], Span(1.0, 2.0, foo_, 1));
  // Four pixel columns, each mostly MPI_Send: joined into one span of 15 intervals.
  EXPECT_EQ(r[2], Span(2.0, 2.484375, send_, 15));
  EXPECT_EQ(r[3], Span(2.484375, 4.0, main_, 1));
  EXPECT_EQ(r[4], Span(4.0, 5.0, bar_, 1));
  EXPECT_EQ(r[5], Span(5.0, 8.0, main_, 1));
  // Rank 1: the receives (1/64) lose to main (3/64) in every column; all of it is one main span.
  EXPECT_EQ(spans(s.locations[1]), std::vector<Span>{Span(0.0, 8.0, main_, 17)});
}

TEST_F(timeline_query, TieGoesToTheFirstRegionAndMergedColumnsJoinTheirNeighbours) {
  const Slice s = query(0, 8, 4);  // pixel 2 s
  // Column 0: main 1 s and foo 1 s tie -> main. Column 1: the sends (0.375 s) lose to main
  // (1.625 s, with the gap up to 4 s). Both main: one span of 18 intervals.
  EXPECT_EQ(spans(s.locations[0]),
            (std::vector<Span>{Span(0.0, 4.0, main_, 18), Span(4.0, 5.0, bar_, 1), Span(5.0, 8.0, main_, 1)}));
}

TEST_F(timeline_query, WindowCutsIntervalsAtItsEdges) {
  const Slice s = query(1.5, 4.5, 3, {0});  // pixel 1 s
  ASSERT_EQ(s.locations.size(), 1u);
  EXPECT_EQ(s.locations[0].location, 0u);
  // foo [1.5, 2) and the sends column [2, 2.484375) and main [2.484375, 4) and bar [4, 4.5):
  // column 0 = [1.5, 2.5): foo 0.5 s, sends 0.375 s, main 0.109375 s -> foo;
  // main [2.484375, 4) is 1.515625 s >= 1 pixel: exact; bar [4, 4.5) alone in column 2.
  EXPECT_EQ(spans(s.locations[0]),
            (std::vector<Span>{Span(1.5, 2.484375, foo_, 16), Span(2.484375, 4.0, main_, 1), Span(4.0, 4.5, bar_, 1)}));
}

TEST_F(timeline_query, MessagesPairSendsWithReceivesAndMergePerPixel) {
  Slice s = query(0, 8, 1024);
  ASSERT_EQ(s.locations[0].messages.size(), 8u);
  EXPECT_TRUE(s.locations[1].messages.empty());  // drawn once, from the sender's row
  const Message& m = s.locations[0].messages[3];
  EXPECT_EQ(m.start, 2.0 + 3.0 / 16);
  EXPECT_EQ(m.end, 2.0 + 3.0 / 16 + 2.0 / 64);
  EXPECT_EQ(m.sender, 0u);
  EXPECT_EQ(m.receiver, 1u);
  EXPECT_EQ(m.tag, 7u);
  EXPECT_EQ(m.bytes, 1024u);
  EXPECT_EQ(m.count, 1u);

  s = query(0, 8, 64, {1});  // only the receiver: its incoming messages, two per pixel column
  ASSERT_EQ(s.locations[0].messages.size(), 4u);
  EXPECT_EQ(s.locations[0].messages[0].start, 2.0);
  EXPECT_EQ(s.locations[0].messages[0].end, 2.09375);
  EXPECT_EQ(s.locations[0].messages[0].count, 2u);

  s = query(3.0, 8.0, 64);  // after the last message
  EXPECT_TRUE(s.locations[0].messages.empty());
}

// Rank 1 posts two receives on one channel (1 at [1, 1.5], 2 at [2, 2.5]) and
// completes them in the opposite order (the second at 4, the first at 6); rank 0
// sends at 3 (1000 bytes) and at 5 (2000 bytes). Matching follows the postings,
// not the completion records: the first send arrives with the receive completed at 6.
TEST(timeline_messages, ReceivesMatchInPostingOrderNotCompletionOrder) {
  trace::TraceBuilder b{2};
  trace::RankBuilder& sender = b.rank(0);
  sender.enter(0, "main");
  sender.send(3.0, 3.25, 1, 1000, 9);
  sender.send(5.0, 5.25, 1, 2000, 9);
  sender.leave(8, "main");
  trace::RankBuilder& receiver = b.rank(1);
  receiver.enter(0, "main");
  const trace::Request first = receiver.irecv(1.0, 1.5, 0, 1000, 9);
  const trace::Request second = receiver.irecv(2.0, 2.5, 0, 2000, 9);
  receiver.wait(3.5, 4.0, second);
  receiver.wait(5.5, 6.0, first);
  receiver.leave(8, "main");
  const report::Report report = test::reportSkeleton(b.trace());
  const TimelineIndex index = buildTimelineIndex(b.trace(), report);
  Slice s;
  querySlice(index, {0, 8, 1024, {0}}, s);
  ASSERT_EQ(s.locations[0].messages.size(), 2u);
  EXPECT_EQ(s.locations[0].messages[0].start, 3.0);
  EXPECT_EQ(s.locations[0].messages[0].end, 6.0);
  EXPECT_EQ(s.locations[0].messages[0].bytes, 1000u);
  EXPECT_EQ(s.locations[0].messages[1].start, 5.0);
  EXPECT_EQ(s.locations[0].messages[1].end, 4.0);
  EXPECT_EQ(s.locations[0].messages[1].bytes, 2000u);
}

TEST_F(timeline_query, EmptyOrInvertedWindowGivesEmptySlices) {
  const Slice s = query(5.0, 5.0, 100);
  ASSERT_EQ(s.locations.size(), 2u);
  EXPECT_EQ(s.locations[0].itemCount(), 0u);
  EXPECT_EQ(query(0, 8, 0).itemCount(), 0u);
  EXPECT_EQ(query(0, 8, 10, {7, 9}).locations.size(), 0u);  // unknown locations are skipped
}

TEST_F(timeline_query, QueryIntoAReusedSliceKeepsItsStorage) {
  Slice s;
  querySlice(index_, {0, 8, 1024, {}}, s);
  const RegionSpan* storage = s.locations[0].regions.data();
  querySlice(index_, {0, 8, 64, {}}, s);
  EXPECT_EQ(s.locations[0].regions.data(), storage);
  EXPECT_EQ(s.locations[0].regions.size(), 6u);
}

class RmaTrace : public ::testing::Test {
 protected:
  void SetUp() override {
    test::buildRma(builder_);
    report_ = test::reportSkeleton(builder_.trace());
    start_ = test::callPathOf(report_, "main/MPI_Win_start");
    fence_ = test::callPathOf(report_, "main/MPI_Win_fence");
    main_ = test::callPathOf(report_, "main");
    ASSERT_NE(start_, kNoId);
    ASSERT_NE(fence_, kNoId);
    report_.instances.push_back({1, 1, start_, 4.0, 4.5, 0});
    report_.instances.push_back({2, 0, fence_, 2.0, 2.25, 1});
    report_.instances.push_back({2, 0, fence_, 2.25, 2.5, 2});
    report_.criticalPath.push_back({0, main_, 4.5, 8.0});  // out of order on purpose
    report_.criticalPath.push_back({0, main_, 0.0, 4.0});
    report_.criticalPath.push_back({1, start_, 4.0, 4.5});
    index_ = buildTimelineIndex(builder_.trace(), report_);
  }
  Slice query(double from, double to, std::uint32_t width, std::vector<std::uint32_t> locations = {}) {
    Slice s;
    querySlice(index_, {from, to, width, std::move(locations)}, s);
    return s;
  }
  trace::TraceBuilder builder_{3};
  report::Report report_;
  TimelineIndex index_;
  std::uint32_t start_ = 0, fence_ = 0, main_ = 0;
};
using timeline_rma = RmaTrace;

using EpochRow = std::tuple<EpochKind, double, double, std::uint32_t, std::uint32_t>;  // kind, start, end, window, peer

std::vector<EpochRow> epochs(const LocationSlice& s) {
  std::vector<EpochRow> out;
  for (const Epoch& e : s.epochs) out.emplace_back(e.kind, e.start, e.end, e.window, e.peer);
  return out;
}

TEST_F(timeline_rma, FenceGatsAndLockEpochsWithTheirWindow) {
  const Slice s = query(0, 8, 800);
  ASSERT_EQ(s.locations.size(), 3u);
  EXPECT_EQ(epochs(s.locations[0]), (std::vector<EpochRow>{{EpochKind::Fence, 1.0, 2.5, 0, kNoId},
                                                           {EpochKind::Fence, 2.0, 3.25, 0, kNoId},
                                                           {EpochKind::Exposure, 4.0, 5.0, 0, kNoId}}));
  EXPECT_EQ(epochs(s.locations[1]), (std::vector<EpochRow>{{EpochKind::Fence, 1.0, 2.5, 0, kNoId},
                                                           {EpochKind::Fence, 2.0, 3.25, 0, kNoId},
                                                           {EpochKind::Access, 4.0, 4.875, 0, kNoId}}));
  EXPECT_EQ(epochs(s.locations[2]), (std::vector<EpochRow>{{EpochKind::Fence, 1.0, 2.5, 0, kNoId},
                                                           {EpochKind::Fence, 2.0, 3.25, 0, kNoId},
                                                           {EpochKind::Lock, 5.5, 6.25, 0, 0}}));
  EXPECT_EQ(s.locations[2].epochs[2].lockType, static_cast<std::uint8_t>(trace::RmaLockType::Exclusive));
  // A window after the fences: only the GATS and lock epochs.
  const Slice later = query(3.5, 6.5, 100);
  EXPECT_EQ(epochs(later.locations[0]), (std::vector<EpochRow>{{EpochKind::Exposure, 4.0, 5.0, 0, kNoId}}));
  EXPECT_EQ(epochs(later.locations[2]), (std::vector<EpochRow>{{EpochKind::Lock, 5.5, 6.25, 0, 0}}));
}

using TransferRow = std::tuple<TransferKind, double, double, std::uint32_t, std::uint32_t, std::uint64_t>;

std::vector<TransferRow> transfers(const LocationSlice& s) {
  std::vector<TransferRow> out;
  for (const Transfer& t : s.transfers) out.emplace_back(t.kind, t.start, t.end, t.origin, t.target, t.bytes);
  return out;
}

TEST_F(timeline_rma, TransfersRunFromTheOperationToItsCompletion) {
  Slice s = query(0, 8, 800);
  EXPECT_EQ(transfers(s.locations[0]), (std::vector<TransferRow>{{TransferKind::Put, 1.5, 2.5, 0, 1, 64}}));
  EXPECT_EQ(transfers(s.locations[1]), (std::vector<TransferRow>{{TransferKind::Put, 4.5, 4.875, 1, 0, 32}}));
  EXPECT_EQ(transfers(s.locations[2]), (std::vector<TransferRow>{{TransferKind::Get, 5.75, 6.25, 2, 0, 128}}));
  // Rank 0 alone: its own put, then the transfers that reach it from ranks not shown.
  s = query(0, 8, 800, {0});
  EXPECT_EQ(transfers(s.locations[0]), (std::vector<TransferRow>{{TransferKind::Put, 1.5, 2.5, 0, 1, 64},
                                                                 {TransferKind::Put, 4.5, 4.875, 1, 0, 32},
                                                                 {TransferKind::Get, 5.75, 6.25, 2, 0, 128}}));
}

TEST_F(timeline_rma, InstancesCarryTheirPatternAndMergeWithinAPixel) {
  Slice s = query(0, 8, 64);  // pixel 1/8: the two fence instances are apart
  ASSERT_EQ(s.locations[0].instances.size(), 2u);
  EXPECT_EQ(s.locations[0].instances[0].metric, 2u);
  EXPECT_EQ(s.locations[0].instances[0].callPath, fence_);
  EXPECT_EQ(s.locations[0].instances[0].cause, 1u);
  ASSERT_EQ(s.locations[1].instances.size(), 1u);
  EXPECT_EQ(s.locations[1].instances[0].metric, 1u);
  EXPECT_EQ(s.locations[1].instances[0].start, 4.0);
  EXPECT_EQ(s.locations[1].instances[0].end, 4.5);
  EXPECT_EQ(s.locations[1].instances[0].cause, 0u);

  s = query(0, 8, 8);  // pixel 1 s: both fence instances start in column 2
  ASSERT_EQ(s.locations[0].instances.size(), 1u);
  EXPECT_EQ(s.locations[0].instances[0].start, 2.0);
  EXPECT_EQ(s.locations[0].instances[0].end, 2.5);
  EXPECT_EQ(s.locations[0].instances[0].count, 2u);

  s = query(5.0, 8.0, 64);
  EXPECT_TRUE(s.locations[0].instances.empty());
  EXPECT_TRUE(s.locations[1].instances.empty());
}

TEST_F(timeline_rma, CriticalPathSegmentsKnowTheirOrderAcrossRows) {
  Slice s = query(0, 8, 64);
  ASSERT_EQ(s.locations[0].path.size(), 2u);
  EXPECT_EQ(s.locations[0].path[0].order, 0u);
  EXPECT_EQ(s.locations[0].path[0].end, 4.0);
  EXPECT_EQ(s.locations[0].path[1].order, 2u);
  EXPECT_EQ(s.locations[0].path[1].start, 4.5);
  ASSERT_EQ(s.locations[1].path.size(), 1u);
  EXPECT_EQ(s.locations[1].path[0].order, 1u);
  EXPECT_EQ(s.locations[1].path[0].callPath, start_);
  s = query(5.0, 8.0, 64);
  ASSERT_EQ(s.locations[0].path.size(), 1u);
  EXPECT_EQ(s.locations[0].path[0].order, 2u);
  EXPECT_TRUE(s.locations[1].path.empty());
}

TEST_F(timeline_rma, RegionGroupsColourMpiCallsByKind) {
  const Slice s = query(0, 8, 800, {1});
  std::vector<std::pair<std::string, RegionGroup>> seen;
  for (const RegionSpan& r : s.locations[0].regions)
    seen.emplace_back(report_.regions[report_.callPaths[r.callPath].region].name, r.group);
  const std::vector<std::pair<std::string, RegionGroup>> expected = {
      {"main", RegionGroup::UserCode},           {"MPI_Win_create", RegionGroup::RmaSynchronization},
      {"main", RegionGroup::UserCode},           {"MPI_Win_fence", RegionGroup::RmaSynchronization},
      {"main", RegionGroup::UserCode},           {"MPI_Win_fence", RegionGroup::RmaSynchronization},
      {"main", RegionGroup::UserCode},           {"MPI_Win_fence", RegionGroup::RmaSynchronization},
      {"main", RegionGroup::UserCode},           {"MPI_Win_start", RegionGroup::RmaSynchronization},
      {"MPI_Put", RegionGroup::RmaCommunication}, {"main", RegionGroup::UserCode},
      {"MPI_Win_complete", RegionGroup::RmaSynchronization},
      {"main", RegionGroup::UserCode},           {"MPI_Win_free", RegionGroup::RmaSynchronization},
      {"main", RegionGroup::UserCode}};
  EXPECT_EQ(seen, expected);
}

TEST(timeline_groups, RegionNamesMapToColourGroups) {
  EXPECT_EQ(regionGroup("MPI_Send"), RegionGroup::MpiPointToPoint);
  EXPECT_EQ(regionGroup("MPI_Waitall"), RegionGroup::MpiPointToPoint);
  EXPECT_EQ(regionGroup("MPI_Allreduce"), RegionGroup::MpiCollective);
  EXPECT_EQ(regionGroup("MPI_Iallreduce"), RegionGroup::MpiCollective);
  EXPECT_EQ(regionGroup("MPI_Win_lock"), RegionGroup::RmaSynchronization);
  EXPECT_EQ(regionGroup("MPI_Get_accumulate"), RegionGroup::RmaCommunication);
  EXPECT_EQ(regionGroup("MPI_Init"), RegionGroup::MpiOther);
  EXPECT_EQ(regionGroup("solver"), RegionGroup::UserCode);
}

}  // namespace
}  // namespace waitscope::timeline

namespace waitscope::timeline {
namespace {

// 5000 messages rank 0 -> 1, one every millisecond: enough intervals for the
// coarser levels, whose thinned items must still account for every original one.
class ManyMessages : public ::testing::Test {
 protected:
  void SetUp() override {
    builder_.rank(0).enter(0.0, "main");
    builder_.rank(1).enter(0.0, "main");
    for (int k = 0; k < kMessages; ++k) {
      const double t = (k + 1) * 1e-3;
      builder_.rank(0).send(t, t + 0.4e-3, 1, 8, 0);
      builder_.rank(1).recv(t + 0.1e-3, t + 0.5e-3, 0, 8, 0);
    }
    builder_.rank(0).leave(5.002, "main");
    builder_.rank(1).leave(5.002, "main");
    report_ = test::reportSkeleton(builder_.trace());
    index_ = buildTimelineIndex(builder_.trace(), report_);
  }
  static constexpr int kMessages = 5000;
  trace::TraceBuilder builder_{2};
  report::Report report_;
  TimelineIndex index_;
};
using timeline_levels = ManyMessages;

TEST_F(timeline_levels, ZoomedOutQueriesCountEveryItemInFewSpans) {
  ASSERT_GT(index_.locations[0].levels.size(), 1u);
  Slice s;
  querySlice(index_, {0.0, 5.002, 100, {}}, s);
  const LocationSlice& r0 = s.locations[0];
  // main (0.6 ms) outweighs MPI_Send (0.4 ms) in every pixel: one span for all 10001 intervals.
  ASSERT_EQ(r0.regions.size(), 1u);
  EXPECT_EQ(r0.regions[0].callPath, test::callPathOf(report_, "main"));
  EXPECT_EQ(r0.regions[0].merged, 2u * kMessages + 1);
  EXPECT_EQ(r0.regions[0].start, 0.0);
  EXPECT_EQ(r0.regions[0].end, 5.002);
  // One line per pixel column, counting all 5000 messages.
  std::uint64_t messages = 0, bytes = 0;
  for (const Message& m : r0.messages) {
    messages += m.count;
    bytes += m.bytes;
  }
  EXPECT_EQ(messages, std::uint64_t(kMessages));
  EXPECT_EQ(bytes, 8u * kMessages);
  EXPECT_LE(r0.messages.size(), 101u);

  // Zoomed in to 10 ms: the exact intervals and messages again.
  querySlice(index_, {1.0, 1.01, 1000, {0}}, s);
  EXPECT_EQ(s.locations[0].messages.size(), 11u);  // sends at 1.000 .. 1.010 s
  EXPECT_EQ(s.locations[0].messages[0].count, 1u);
  EXPECT_EQ(s.locations[0].regions.size(), 20u);  // 10 sends and 10 gaps; the send at 1.010 s starts at the edge
}

}  // namespace
}  // namespace waitscope::timeline
