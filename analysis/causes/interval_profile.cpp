#include "analysis/causes/interval_profile.h"

#include <algorithm>

#include "analysis/replay/search_near.h"

namespace waitscope::causes::delay {
namespace {

using trace::CallPathId;
using trace::EventKind;
using trace::kNone;

// Per call path its parent, and one more entry: paths.size() stands for no
// path (kNone, an invalid id) and is its own parent.
std::vector<CallPathId> parentSlots(const trace::CallTree& tree) {
  const auto outside = static_cast<CallPathId>(tree.size());
  std::vector<CallPathId> parents(tree.size() + 1, outside);
  for (std::size_t p = 0; p < tree.size(); ++p) parents[p] = std::min(tree[p].parent, outside);
  return parents;
}

}  // namespace

IntervalProfile::IntervalProfile(const replay::ReplayContext& ctx, const std::vector<Wait>& waits)
    : ctx_(ctx),
      waits_(waits),
      timeline_(ctx.events, ctx.trace.callTree),
      scratch_(ctx.trace.callTree.size() + 1, 0.0),
      touched_(ctx.trace.callTree.size() + 1),
      parentSlot_(parentSlots(ctx.trace.callTree)) {}

void IntervalProfile::profile(double a, double b, SearchHints& hints) {
  constexpr std::size_t kNoEvent = replay::RegionTimeline::kNoEvent;
  static_assert(static_cast<int>(EventKind::Enter) == 0 && static_cast<int>(EventKind::Leave) == 1,
                "region boundaries are the two smallest kinds");
  if (!(b > a)) return;
  // The stretch active at a, else the first one after it.
  hints.event = timeline_.firstAfter(a, hints.event);
  std::size_t cur = timeline_.boundaryBefore(hints.event);
  if (cur == kNoEvent) cur = timeline_.boundaryFrom(0);
  if (cur == kNoEvent) return;
  const trace::Event* const ev = ctx_.events.events.data();
  const std::size_t n = ctx_.events.events.size();
  // Boundaries before `stop` end a stretch before b; the last stretch ends
  // at b, or at the last event.
  const std::size_t stop =
      replay::partitionPointNear(n, hints.event, [&](std::size_t k) { return ev[k].time >= b; });
  const double end = stop < n ? b : std::min(b, ev[n - 1].time);
  double* const scratch = scratch_.data();
  CallPathId* const touched = touched_.data();
  std::size_t touchedCount = 0;
  const CallPathId* const parent = parentSlot_.data();
  const CallPathId outside = outsideSlot();
  const Wait* const waits = waits_.data();
  const std::size_t waitCount = waits_.size();
  std::size_t k = firstWaitEndingAfter(waits_, a, hints);
  double nextWait = k < waitCount ? waits[k].start : b;  // no wait state overlaps [a, nextWait)
  double from = std::max(a, ev[cur].time);
  CallPathId path = std::min(timeline_.pathAfter(cur), outside);
  for (std::size_t j = cur + 1;; ++j) {
    // The stretch [from, to) of `path` ends at the next boundary.
    while (j < stop && ev[j].kind > EventKind::Leave) ++j;
    const bool last = j >= stop;
    const double to = last ? end : ev[j].time;
    double t = to - from;
    if (to > nextWait) {
      while (k < waitCount && waits[k].end <= from) ++k;
      for (std::size_t w = k; w < waitCount && waits[w].start < to; ++w)
        t -= std::max(0.0, std::min(to, waits[w].end) - std::max(from, waits[w].start));
      // Wait states before k end by `from`; one still open keeps the next stretch on this path.
      nextWait = k < waitCount ? waits[k].start : b;
    }
    if (t > 0.0) {
      if (scratch[path] == 0.0) touched[touchedCount++] = path;
      scratch[path] += t;
    }
    if (last) break;
    from = to;  // >= a: cur's stretch contains a
    const CallPathId ref = std::min(ev[j].ref, outside);
    path = ev[j].kind == EventKind::Enter ? ref : parent[ref];
  }
  // Time outside every region belongs to no call path.
  if (scratch[outside] != 0.0) {
    touchedCount = static_cast<std::size_t>(std::remove(touched, touched + touchedCount, outside) - touched);
    scratch[outside] = 0.0;
  }
  profiled_ = {touched, touchedCount};
  hints.event = stop;  // the next interval on this side starts about there
}

void IntervalProfile::clear() {
  for (const CallPathId p : profiled_) scratch_[p] = 0.0;
  profiled_ = {};
}

CallPathId IntervalProfile::pathAt(double t) const {
  constexpr std::size_t kNoEvent = replay::RegionTimeline::kNoEvent;
  const std::size_t after = timeline_.firstAfter(t);
  bool first = true;
  double laterTime = 0.0;
  for (std::size_t j = timeline_.boundaryBefore(after); j != kNoEvent; j = timeline_.boundaryBefore(j)) {
    if (!first && timeline_.time(j) == laterTime) continue;
    first = false;
    laterTime = timeline_.time(j);
    if (const CallPathId p = timeline_.pathAfter(j); p != kNone) return p;
  }
  for (std::size_t j = timeline_.boundaryFrom(after); j != kNoEvent;) {
    std::size_t next = kNoEvent;
    timeline_.stretchEnd(j, next);
    if (next == kNoEvent || timeline_.time(next) != timeline_.time(j))
      if (const CallPathId p = timeline_.pathAfter(j); p != kNone) return p;
    j = next;
  }
  return kNone;
}

}  // namespace waitscope::causes::delay
