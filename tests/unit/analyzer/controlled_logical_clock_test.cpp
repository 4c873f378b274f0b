// The controlled logical clock of one location (analysis/analyzer/controlled_logical_clock.h) and
// its correction as the views apply it (analysis/trace/clock_correction.h), on hand-made events
// whose corrected times follow from the definitions.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "analysis/analyzer/controlled_logical_clock.h"
#include "analysis/trace/clock_correction.h"

namespace waitscope::analyzer {
namespace {

using trace::Event;
using trace::EventKind;
constexpr double kNone = -std::numeric_limits<double>::infinity();
constexpr double kDecay = 1.0 - trace::kClockRate;

std::vector<Event> at(const std::vector<double>& times) {
  std::vector<Event> out;
  for (const double t : times) out.push_back({t, EventKind::Enter, 0});
  return out;
}

// Without a bound above its own time, nothing moves and the correction is empty.
TEST(ControlledLogicalClock, BoundsBelowTheRecordedTimesChangeNothing) {
  const std::vector<Event> events = at({0.0, 1.0, 2.0, 3.0});
  const ControlledLogicalClock clock(events, {1, 3}, {2});
  std::vector<double> exported;
  clock.forward({1.5}, exported);
  EXPECT_EQ(exported, (std::vector<double>{1.0, 3.0}));
  const trace::LocationClockCorrection c = clock.correction({kNone});
  EXPECT_TRUE(c.empty());
  EXPECT_EQ(c.correctedTimes(events), (std::vector<double>{0.0, 1.0, 2.0, 3.0}));
}

// Event 3 must not be earlier than 5.0: it jumps by 2, and the events after it keep the shift,
// decaying by (1 - rate) per recorded second. Event 1 (exported: another location saw it) and
// those before it stay; the ramp runs from event 1 to the jump, so event 2 is stretched by
// jump * (2 - 1) / (3 - 1).
TEST(ControlledLogicalClock, AJumpShiftsTheRestAndStretchesTheIntervalBeforeIt) {
  const std::vector<Event> events = at({0.0, 1.0, 2.0, 3.0, 4.0, 6.0});
  const ControlledLogicalClock clock(events, {1, 5}, {3});
  std::vector<double> exported;
  clock.forward({5.0}, exported);
  ASSERT_EQ(exported.size(), 2u);
  EXPECT_DOUBLE_EQ(exported[0], 1.0);
  EXPECT_DOUBLE_EQ(exported[1], 6.0 + 2.0 - kDecay * 3.0);
  const trace::LocationClockCorrection c = clock.correction({5.0});
  ASSERT_EQ(c.anchors.size(), 1u);
  EXPECT_EQ(c.anchors[0].event, 3u);
  EXPECT_DOUBLE_EQ(c.anchors[0].offset, 2.0);
  ASSERT_EQ(c.ramps.size(), 1u);
  EXPECT_EQ(c.ramps[0].from, 1u);
  EXPECT_EQ(c.ramps[0].to, 3u);
  const std::vector<double> t = c.correctedTimes(events);
  EXPECT_DOUBLE_EQ(t[0], 0.0);
  EXPECT_DOUBLE_EQ(t[1], 1.0);
  EXPECT_DOUBLE_EQ(t[2], 2.0 + 2.0 * (2.0 - 1.0) / (3.0 - 1.0));
  EXPECT_DOUBLE_EQ(t[3], 5.0);
  EXPECT_DOUBLE_EQ(t[4], 4.0 + 2.0 - kDecay * 1.0);
  EXPECT_DOUBLE_EQ(t[5], exported[1]);
  // Order is kept, and nothing moves earlier.
  for (std::size_t i = 1; i < t.size(); ++i) EXPECT_LE(t[i - 1], t[i]);
  for (std::size_t i = 0; i < t.size(); ++i) EXPECT_GE(t[i], events[i].time);
}

// A second bound that the decayed shift already satisfies sets nothing; one above it jumps only
// by the difference, and its ramp starts at the previous jump.
TEST(ControlledLogicalClock, ASecondJumpAddsOnlyWhatIsMissing) {
  const std::vector<Event> events = at({0.0, 1.0, 2.0, 3.0, 4.0});
  const ControlledLogicalClock clock(events, {}, {1, 2, 4});
  const double shiftAt2 = 1.0 - kDecay * 1.0;
  const trace::LocationClockCorrection c = clock.correction({2.0, 2.5, 5.5});
  ASSERT_EQ(c.anchors.size(), 2u);
  EXPECT_EQ(c.anchors[0].event, 1u);
  EXPECT_EQ(c.anchors[1].event, 4u);
  EXPECT_DOUBLE_EQ(c.anchors[1].offset, 1.5);
  ASSERT_EQ(c.ramps.size(), 1u);  // the first jump follows event 0 directly: nothing to stretch
  EXPECT_EQ(c.ramps[0].from, 1u);
  EXPECT_DOUBLE_EQ(c.ramps[0].jump, 1.5 - (1.0 - kDecay * 3.0));
  const std::vector<double> t = c.correctedTimes(events);
  EXPECT_DOUBLE_EQ(t[1], 2.0);
  EXPECT_GT(t[2], 2.0 + shiftAt2);  // stretched towards the second jump
  EXPECT_DOUBLE_EQ(t[4], 5.5);
}

// The shift decays to the recorded time and stays there.
TEST(ControlledLogicalClock, TheShiftDecaysToTheRecordedClock) {
  const std::vector<Event> events = at({0.0, 1.0, 1.0 + 0.5 / kDecay, 2.0 / kDecay});
  const ControlledLogicalClock clock(events, {}, {0});
  const trace::LocationClockCorrection c = clock.correction({0.5});
  const std::vector<double> t = c.correctedTimes(events);
  EXPECT_DOUBLE_EQ(t[0], 0.5);
  EXPECT_NEAR(t[2], events[2].time, 1e-9);
  EXPECT_DOUBLE_EQ(t[3], events[3].time);
}

// apply() replaces the times in place by exactly correctedTimes()'s and counts what moved, for
// the correction the clock computes (two jumps, ramps back to back) and for hand-made ramps it
// cannot apply in one pass (the second starts inside the first).
TEST(ControlledLogicalClock, ApplyWritesTheCorrectedTimesAndCountsTheMovedEvents) {
  const std::vector<Event> events = at({0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0});
  const ControlledLogicalClock clock(events, {1, 6}, {3, 5});
  const trace::LocationClockCorrection fromClock = clock.correction({5.0, 8.0});
  ASSERT_EQ(fromClock.ramps.size(), 2u);
  EXPECT_EQ(fromClock.ramps[1].from, fromClock.ramps[0].to);
  trace::LocationClockCorrection overlapping;
  overlapping.anchors = {{2, 1.0}, {5, 2.0}};
  overlapping.ramps = {{0, 5, 1.5}, {3, 7, 0.5}};
  for (const trace::LocationClockCorrection& c : {fromClock, overlapping}) {
    const std::vector<double> expected = c.correctedTimes(events);
    std::vector<Event> applied = events;
    const trace::ClockShifts shifts = c.apply(applied);
    std::uint64_t moved = 0;
    double largest = 0.0;
    for (std::size_t i = 0; i < events.size(); ++i) {
      EXPECT_EQ(applied[i].time, expected[i]) << i;
      if (expected[i] != events[i].time) ++moved;
      largest = std::max(largest, expected[i] - events[i].time);
    }
    EXPECT_EQ(shifts.moved, moved);
    EXPECT_GT(shifts.moved, 0u);
    EXPECT_EQ(shifts.largest, largest);
  }
}

}  // namespace
}  // namespace waitscope::analyzer
