#include "analysis/analyzer/controlled_logical_clock.h"

#include <algorithm>

namespace waitscope::analyzer {

ControlledLogicalClock::ControlledLogicalClock(const std::vector<trace::Event>& events,
                                               const std::vector<std::uint32_t>& exported,
                                               const std::vector<std::uint32_t>& bounded)
    : events_(events), exportCount_(exported.size()), boundCount_(bounded.size()) {
  points_.reserve(exported.size() + bounded.size());
  for (std::uint32_t k = 0; k < bounded.size(); ++k) points_.push_back({bounded[k], k, true});
  for (std::uint32_t k = 0; k < exported.size(); ++k) points_.push_back({exported[k], k, false});
  std::sort(points_.begin(), points_.end(), [](const Point& a, const Point& b) {
    if (a.event != b.event) return a.event < b.event;
    return a.bound > b.bound;
  });
}

void ControlledLogicalClock::forward(const std::vector<double>& bounds, std::vector<double>& exportedTimes) const {
  exportedTimes.resize(exportCount_);
  double offset = 0.0, anchorTime = 0.0;
  for (const Point& p : points_) {
    const double t = events_[p.event].time;
    if (p.bound) {
      const double current = trace::decayedOffset(offset, anchorTime, t);
      if (bounds[p.slot] - t > current) {
        offset = bounds[p.slot] - t;
        anchorTime = t;
      }
    } else {
      exportedTimes[p.slot] = t + trace::decayedOffset(offset, anchorTime, t);
    }
  }
}

trace::LocationClockCorrection ControlledLogicalClock::correction(const std::vector<double>& bounds) const {
  trace::LocationClockCorrection out;
  double offset = 0.0, anchorTime = 0.0;
  std::uint32_t lastSeen = 0;  // the last event another location saw, or the last jump
  for (std::size_t k = 0; k < points_.size();) {
    // All points of one event together: its bounds, then its exports.
    const std::uint32_t event = points_[k].event;
    const double t = events_[event].time;
    const double before = trace::decayedOffset(offset, anchorTime, t);
    double after = before;
    bool exported = false;
    for (; k < points_.size() && points_[k].event == event; ++k) {
      if (points_[k].bound) after = std::max(after, bounds[points_[k].slot] - t);
      else exported = true;
    }
    if (after > before) {
      out.anchors.push_back({event, after});
      if (event > lastSeen + 1) out.ramps.push_back({lastSeen, event, after - before});
      offset = after;
      anchorTime = t;
      lastSeen = event;
    }
    if (exported) lastSeen = event;
  }
  return out;
}

}  // namespace waitscope::analyzer
