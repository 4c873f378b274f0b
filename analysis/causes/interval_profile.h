#pragma once
// The time profile of one location over an interval: time per call path in [a, b) without the
// analyzed wait states. Both sides of every wait state profile their synchronization interval;
// the cause's excess time per call path over the waiter's is its delay.
#include <cstddef>
#include <span>
#include <vector>

#include "analysis/causes/analyzed_waits.h"
#include "analysis/causes/search_hints.h"
#include "analysis/replay/region_timeline.h"
#include "analysis/replay/replay_context.h"
#include "analysis/trace/ids.h"

namespace waitscope::causes::delay {

class IntervalProfile {
 public:
  IntervalProfile(const replay::ReplayContext& ctx, const std::vector<Wait>& waits);

  // Time per call path in [a, b), without the analyzed wait states: time(p) for
  // the paths in profiled(), in the order they first occur (the per-path sums
  // in time order); clear() empties both. Called for every wait state on both
  // sides, so it is one tight loop over the events that looks at the wait
  // states only where one is near.
  void profile(double a, double b, SearchHints& hints);
  std::span<const trace::CallPathId> profiled() const { return profiled_; }
  double time(trace::CallPathId path) const { return scratch_[path]; }
  void clear();

  // The call path active at t (else the nearest one before, else after). Of
  // boundaries at equal times only the last starts a stretch.
  trace::CallPathId pathAt(double t) const;

 private:
  // The slot of scratch_ past the call paths: time outside every region (kNone).
  trace::CallPathId outsideSlot() const { return static_cast<trace::CallPathId>(ctx_.trace.callTree.size()); }

  const replay::ReplayContext& ctx_;
  const std::vector<Wait>& waits_;
  const replay::RegionTimeline timeline_;
  // Per call path and one more for time outside every region (outsideSlot()):
  // zero outside profile(), and the parent of each, also the outside slot for none.
  std::vector<double> scratch_;
  std::vector<trace::CallPathId> touched_;  // see profile()
  std::span<const trace::CallPathId> profiled_;  // the paths with a non-zero scratch_, in touched_
  const std::vector<trace::CallPathId> parentSlot_;
};

}  // namespace waitscope::causes::delay
