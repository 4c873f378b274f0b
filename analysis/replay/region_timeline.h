#pragma once
// The innermost region active on a location over time, read straight off its
// event array instead of a copy of it: the boundaries are its Enter and Leave
// events; after an Enter its call path is active, after a Leave its parent's.
// Events are in time order (the reader checks), so a time is a binary search.
#include <algorithm>
#include <cstddef>
#include <vector>

#include "analysis/replay/search_near.h"
#include "analysis/trace/call_tree.h"
#include "analysis/trace/events.h"

namespace waitscope::replay {

class RegionTimeline {
 public:
  static constexpr std::size_t kNoEvent = static_cast<std::size_t>(-1);

  RegionTimeline(const trace::LocationEvents& events, const trace::CallTree& tree)
      : events_(events.events), tree_(tree) {}

  std::size_t size() const { return events_.size(); }
  double time(std::size_t k) const { return events_[k].time; }
  bool isBoundary(std::size_t k) const {
    return events_[k].kind == trace::EventKind::Enter || events_[k].kind == trace::EventKind::Leave;
  }
  // The call path active after boundary k (kNone outside every region).
  trace::CallPathId pathAfter(std::size_t k) const {
    const trace::Event& e = events_[k];
    if (e.kind == trace::EventKind::Enter) return e.ref;
    return e.ref < tree_.size() ? tree_[e.ref].parent : trace::kNone;
  }
  // Index of the first event later than t, and of the first at or after t;
  // searched from `hint` (a previous answer, or any index near the answer) when given.
  std::size_t firstAfter(double t, std::size_t hint) const {
    return partitionPointNear(events_.size(), hint, [&](std::size_t k) { return events_[k].time > t; });
  }
  std::size_t firstAfter(double t) const {
    return static_cast<std::size_t>(
        std::upper_bound(events_.begin(), events_.end(), t, [](double v, const trace::Event& e) { return v < e.time; }) -
        events_.begin());
  }
  std::size_t firstAtOrAfter(double t, std::size_t hint) const {
    return partitionPointNear(events_.size(), hint, [&](std::size_t k) { return events_[k].time >= t; });
  }
  std::size_t firstAtOrAfter(double t) const {
    return static_cast<std::size_t>(
        std::lower_bound(events_.begin(), events_.end(), t, [](const trace::Event& e, double v) { return e.time < v; }) -
        events_.begin());
  }
  // The last boundary before index `end`, or the first one from `begin` on; kNoEvent if none.
  std::size_t boundaryBefore(std::size_t end) const {
    while (end > 0)
      if (isBoundary(--end)) return end;
    return kNoEvent;
  }
  std::size_t boundaryFrom(std::size_t begin) const {
    for (; begin < events_.size(); ++begin)
      if (isBoundary(begin)) return begin;
    return kNoEvent;
  }
  // Where the stretch that starts at boundary k ends: the next boundary, or the
  // location's last event.
  double stretchEnd(std::size_t k, std::size_t& next) const {
    next = boundaryFrom(k + 1);
    return next == kNoEvent ? events_.back().time : events_[next].time;
  }

 private:
  const std::vector<trace::Event>& events_;
  const trace::CallTree& tree_;
};

}  // namespace waitscope::replay
