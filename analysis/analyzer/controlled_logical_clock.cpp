#include "analysis/analyzer/controlled_logical_clock.h"

#include <algorithm>

namespace waitscope::analyzer {

ControlledLogicalClock::ControlledLogicalClock(const std::vector<trace::Event>& events,
                                               const std::vector<std::uint32_t>& exported,
                                               const std::vector<std::uint32_t>& bounded)
    : exportCount_(exported.size()), boundCount_(bounded.size()) {
  points_.reserve(exported.size() + bounded.size());
  for (std::uint32_t k = 0; k < bounded.size(); ++k)
    points_.push_back({events[bounded[k]].time, bounded[k], k | kBound});
  for (std::uint32_t k = 0; k < exported.size(); ++k) points_.push_back({events[exported[k]].time, exported[k], k});
  sortByEvent(points_);
}

// By event, bounds first at one event. The lists arrive as a few ascending runs (the sends, each
// communicator's collectives, ... in event order), so merging the runs is cheaper than sorting;
// with many runs, a sort.
void ControlledLogicalClock::sortByEvent(std::vector<Point>& points) {
  const auto before = [](const Point& a, const Point& b) {
    if (a.event != b.event) return a.event < b.event;
    return (a.slot & kBound) > (b.slot & kBound);
  };
  constexpr std::size_t kMostRuns = 64;
  std::vector<std::size_t> runs{0};  // where each ascending run starts, and the end
  for (std::size_t k = 1; k < points.size() && runs.size() <= kMostRuns; ++k)
    if (before(points[k], points[k - 1])) runs.push_back(k);
  if (runs.size() > kMostRuns) {
    std::sort(points.begin(), points.end(), before);
    return;
  }
  runs.push_back(points.size());
  const auto at = [&](std::size_t k) { return points.begin() + static_cast<std::ptrdiff_t>(k); };
  while (runs.size() > 2) {
    std::vector<std::size_t> merged{0};
    std::size_t r = 0;
    for (; r + 2 < runs.size(); r += 2) {
      std::inplace_merge(at(runs[r]), at(runs[r + 1]), at(runs[r + 2]), before);
      merged.push_back(runs[r + 2]);
    }
    if (r + 1 < runs.size()) merged.push_back(runs[r + 1]);  // the last run had no partner
    runs.swap(merged);
  }
}

void ControlledLogicalClock::forward(const std::vector<double>& bounds, std::vector<double>& exportedTimes) const {
  exportedTimes.resize(exportCount_);
  double offset = 0.0, anchorTime = 0.0;
  for (const Point& p : points_) {
    const double t = p.time;
    if (p.slot & kBound) {
      const std::uint32_t slot = p.slot & ~kBound;
      const double current = trace::decayedOffset(offset, anchorTime, t);
      if (bounds[slot] - t > current) {
        offset = bounds[slot] - t;
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
    const double t = points_[k].time;
    const double before = trace::decayedOffset(offset, anchorTime, t);
    double after = before;
    bool exported = false;
    for (; k < points_.size() && points_[k].event == event; ++k) {
      if (points_[k].slot & kBound) after = std::max(after, bounds[points_[k].slot & ~kBound] - t);
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
