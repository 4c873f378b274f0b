#include "analysis/trace/clock_correction.h"

namespace waitscope::trace {

std::vector<double> LocationClockCorrection::forwardTimes(const std::vector<Event>& events) const {
  std::vector<double> out(events.size());
  std::size_t next = 0;
  double offset = 0.0, anchorTime = 0.0;
  for (std::size_t i = 0; i < events.size(); ++i) {
    const double t = events[i].time;
    if (next < anchors.size() && anchors[next].event == i) {
      offset = anchors[next].offset;
      anchorTime = t;
      ++next;
    }
    out[i] = t + decayedOffset(offset, anchorTime, t);
  }
  return out;
}

std::vector<double> LocationClockCorrection::correctedTimes(const std::vector<Event>& events) const {
  std::vector<double> c = forwardTimes(events);
  for (const ClockRamp& r : ramps) {
    if (r.to >= c.size() || r.from >= r.to) continue;
    const double base = c[r.from];
    const double span = c[r.to] - r.jump - base;  // the local continuation at `to`, less the base
    if (!(span > 0.0)) continue;
    for (std::uint32_t i = r.from + 1; i < r.to; ++i) c[i] += r.jump * (c[i] - base) / span;
  }
  return c;
}

namespace {

// apply()'s single pass relies on the order the controlled clock produces: anchors ascending
// and distinct, valid ramps ascending and disjoint, so that no ramp reads a time another one
// has already stretched.
bool singlePass(const LocationClockCorrection& c, std::size_t events) {
  for (std::size_t k = 1; k < c.anchors.size(); ++k)
    if (c.anchors[k].event <= c.anchors[k - 1].event) return false;
  std::uint32_t end = 0;
  for (const ClockRamp& r : c.ramps) {
    if (r.to >= events || r.from >= r.to) continue;
    if (r.from < end) return false;
    end = r.to;
  }
  return true;
}

void count(ClockShifts& out, double recorded, double corrected) {
  const double shift = corrected - recorded;
  if (shift == 0.0) return;
  ++out.moved;
  if (shift > out.largest) out.largest = shift;
}

}  // namespace

ClockShifts LocationClockCorrection::apply(std::vector<Event>& events) const {
  ClockShifts out;
  if (empty()) return out;
  const std::size_t n = events.size();
  if (!singlePass(*this, n)) {
    const std::vector<double> c = correctedTimes(events);
    for (std::size_t i = 0; i < n; ++i) {
      count(out, events[i].time, c[i]);
      events[i].time = c[i];
    }
    return out;
  }
  // The forward clock event by event as forwardTimes() runs it; inside a ramp, the stretch
  // correctedTimes() adds, from the forward times at the ramp's ends: `from`'s is known when the
  // ramp starts, `to`'s is computed ahead from the recorded times, not yet overwritten.
  std::size_t nextAnchor = 0, nextRamp = 0;
  double offset = 0.0, anchorTime = 0.0;
  const ClockRamp* ramp = nullptr;  // the ramp whose interior the pass is in or starts at
  double base = 0.0, span = 0.0;
  auto skipInvalidRamps = [&] {
    while (nextRamp < ramps.size() && (ramps[nextRamp].to >= n || ramps[nextRamp].from >= ramps[nextRamp].to))
      ++nextRamp;
  };
  skipInvalidRamps();
  for (std::size_t i = 0; i < n; ++i) {
    const double t = events[i].time;
    if (nextAnchor < anchors.size() && anchors[nextAnchor].event == i) {
      offset = anchors[nextAnchor].offset;
      anchorTime = t;
      ++nextAnchor;
    }
    double c = t + decayedOffset(offset, anchorTime, t);
    if (ramp && i == ramp->to) {
      ramp = nullptr;
      ++nextRamp;
      skipInvalidRamps();
    }
    if (ramp) {
      c += ramp->jump * (c - base) / span;
    } else if (nextRamp < ramps.size() && ramps[nextRamp].from == i) {
      const ClockRamp& r = ramps[nextRamp];
      double toOffset = offset, toAnchorTime = anchorTime;
      for (std::size_t a = nextAnchor; a < anchors.size() && anchors[a].event <= r.to; ++a) {
        toOffset = anchors[a].offset;
        toAnchorTime = events[anchors[a].event].time;
      }
      const double tTo = events[r.to].time;
      base = c;
      span = tTo + decayedOffset(toOffset, toAnchorTime, tTo) - r.jump - base;
      if (span > 0.0) {
        ramp = &r;
      } else {
        ++nextRamp;
        skipInvalidRamps();
      }
    }
    count(out, t, c);
    events[i].time = c;
  }
  return out;
}

}  // namespace waitscope::trace
