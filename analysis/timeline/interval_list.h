#pragma once
// Items with a start and an end, sorted by their earlier time, with the running
// maximum of their later time: the items overlapping [t0, t1] are found by one
// binary search (the first whose running maximum reaches t0) and a scan that
// stops at the first item starting after t1. Coarser levels (the items thinned
// by item_merge.h at a resolution 4x coarser each) keep a zoomed-out query's
// cost proportional to the pixels, not to the items in the window.
#include <algorithm>
#include <cstddef>
#include <vector>

#include "analysis/timeline/item_merge.h"

namespace waitscope::timeline {

template <class T>
double lowTime(const T& item) { return std::min(item.start, item.end); }
template <class T>
double highTime(const T& item) { return std::max(item.start, item.end); }

template <class T>
class IntervalList {
 public:
  // Sorts `items` by their earlier time (stable, so equal times keep their order).
  void assign(std::vector<T> items) {
    std::stable_sort(items.begin(), items.end(), [](const T& a, const T& b) { return lowTime(a) < lowTime(b); });
    assignSorted(std::move(items));
  }
  // Items already sorted (as loaded from an index file, then checked by isSorted).
  void assignSorted(std::vector<T> items) {
    levels_.assign(1, Level{0.0, std::move(items), {}});
    levels_[0].rebuildRunningMax();
  }
  bool isSorted() const {
    const std::vector<T>& v = levels_.empty() ? empty_ : levels_[0].items;
    return std::is_sorted(v.begin(), v.end(), [](const T& a, const T& b) { return lowTime(a) < lowTime(b); });
  }

  // The coarser levels, from duration * 2^-20 up to duration / 64, each kept
  // when it has at most half the items of the previous kept level.
  void buildLevels(double origin, double duration) {
    if (levels_.empty()) return;
    levels_.resize(1);
    if (!(duration > 0.0)) return;
    constexpr std::size_t kMinItems = 1024;
    for (double r = duration / 1048576.0; levels_.back().items.size() >= kMinItems && r <= duration / 64.0; r *= 4.0) {
      const PixelGrid grid{origin, r};
      Level level{r, {}, {}};
      for (const T& item : levels_.back().items) appendMerged(level.items, item, grid);
      if (level.items.size() * 2 <= levels_.back().items.size()) {
        std::stable_sort(level.items.begin(), level.items.end(),
                         [](const T& a, const T& b) { return lowTime(a) < lowTime(b); });
        level.items.shrink_to_fit();
        level.rebuildRunningMax();
        levels_.push_back(std::move(level));
      }
    }
  }

  const std::vector<T>& items() const { return levels_.empty() ? empty_ : levels_[0].items; }
  std::size_t size() const { return items().size(); }
  std::size_t memoryBytes() const {
    std::size_t n = 0;
    for (const Level& l : levels_) n += l.items.capacity() * sizeof(T) + l.runningMax.capacity() * sizeof(double);
    return n;
  }

  // Calls visit(item) for every item overlapping [t0, t1], in start order, from
  // the coarsest level whose resolution is at most `pixel` (0: the exact items).
  template <class Visit>
  void forEachOverlapping(double t0, double t1, double pixel, Visit&& visit) const {
    if (levels_.empty()) return;
    std::size_t k = 0;
    while (k + 1 < levels_.size() && levels_[k + 1].resolution <= pixel) ++k;
    const Level& level = levels_[k];
    auto first = std::lower_bound(level.runningMax.begin(), level.runningMax.end(), t0);
    for (std::size_t i = static_cast<std::size_t>(first - level.runningMax.begin()); i < level.items.size(); ++i) {
      const T& item = level.items[i];
      if (lowTime(item) > t1) break;
      if (highTime(item) >= t0) visit(item);
    }
  }
  template <class Visit>
  void forEachOverlapping(double t0, double t1, Visit&& visit) const {
    forEachOverlapping(t0, t1, 0.0, visit);
  }

 private:
  struct Level {
    double resolution = 0.0;
    std::vector<T> items;
    std::vector<double> runningMax;
    void rebuildRunningMax() {
      runningMax.resize(items.size());
      double m = -1e300;
      for (std::size_t i = 0; i < items.size(); ++i) runningMax[i] = m = std::max(m, highTime(items[i]));
    }
  };
  std::vector<Level> levels_;
  inline static const std::vector<T> empty_{};
};

}  // namespace waitscope::timeline
