#pragma once
// Timestamps corrected by the controlled logical clock with backward amortization (Becker,
// Rabenseifner, Wolf, Linford: "Scalable timestamp synchronization for event traces of
// message-passing applications", Parallel Computing 35(12), 2009), kept per location in a compact
// form: the analysis computes it, and anything that holds the recorded events (the timeline)
// applies it to get the corrected times. Corrections only ever move events later.
#include <cstdint>
#include <vector>

#include "analysis/trace/events.h"

namespace waitscope::trace {

// After a jump the corrected clock runs this much slower than the recorded one until it meets
// it again: the controlled clock's jump discounting. Close to 1 so that local intervals keep
// their length (to 0.01%); below 1 so that a one-off late message does not shift the rest of the
// location for good.
inline constexpr double kClockRate = 0.9999;

// The forward clock is set at an anchor: event `event` is `offset` seconds later than recorded.
struct ClockAnchor {
  std::uint32_t event;
  double offset;
};

// Backward amortization of the jump at event `to`: the events strictly between `from` (the last
// event before `to` whose time another location saw, or the previous jump) and `to` are stretched
// linearly, so the interval before the jump grows instead of ending in a step.
struct ClockRamp {
  std::uint32_t from;
  std::uint32_t to;
  double jump;  // seconds the forward clock jumped at `to`
};

// What applying a correction did to a location's events.
struct ClockShifts {
  std::uint64_t moved = 0;  // events whose time changed
  double largest = 0.0;     // seconds
};

struct LocationClockCorrection {
  std::vector<ClockAnchor> anchors;  // ascending events
  std::vector<ClockRamp> ramps;      // ascending, disjoint

  bool empty() const { return anchors.empty(); }
  // The forward clock alone (no amortization), per event: recorded time plus the anchor's
  // offset, decaying by (1 - kClockRate) per recorded second, never below 0.
  std::vector<double> forwardTimes(const std::vector<Event>& events) const;
  // The corrected time of every event of `events` (the location's recorded events).
  std::vector<double> correctedTimes(const std::vector<Event>& events) const;
  // Replaces the times of `events` by their corrected times (exactly correctedTimes()'s), in one
  // pass and without a copy of the times for the correction the controlled clock computes
  // (anchors ascending, each ramp starting at or after the previous one's end).
  ClockShifts apply(std::vector<Event>& events) const;
};

// The forward clock's offset at recorded time `time`, from an anchor set at `anchorTime`.
inline double decayedOffset(double offset, double anchorTime, double time) {
  const double d = offset - (1.0 - kClockRate) * (time - anchorTime);
  return d > 0.0 ? d : 0.0;
}

}  // namespace waitscope::trace
