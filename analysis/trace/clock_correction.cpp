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

void LocationClockCorrection::apply(std::vector<Event>& events) const {
  if (empty()) return;
  const std::vector<double> c = correctedTimes(events);
  for (std::size_t i = 0; i < events.size(); ++i) events[i].time = c[i];
}

}  // namespace waitscope::trace
