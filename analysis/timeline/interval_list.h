#pragma once
// Items with a start and an end, sorted by their earlier time, with the running
// maximum of their later time: the items overlapping [t0, t1] are found by one
// binary search (the first whose running maximum reaches t0) and a scan that
// stops at the first item starting after t1. Cost: log n + the items scanned,
// which are the overlapping ones plus those nested in a long earlier item.
#include <algorithm>
#include <cstddef>
#include <vector>

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
    items_ = std::move(items);
    std::stable_sort(items_.begin(), items_.end(),
                     [](const T& a, const T& b) { return lowTime(a) < lowTime(b); });
    rebuildRunningMax();
  }
  // Items already sorted (as loaded from an index file that was validated).
  void assignSorted(std::vector<T> items) {
    items_ = std::move(items);
    rebuildRunningMax();
  }
  bool isSorted() const {
    return std::is_sorted(items_.begin(), items_.end(),
                          [](const T& a, const T& b) { return lowTime(a) < lowTime(b); });
  }

  const std::vector<T>& items() const { return items_; }
  std::size_t size() const { return items_.size(); }

  // Calls visit(item) for every item overlapping [t0, t1], in start order.
  template <class Visit>
  void forEachOverlapping(double t0, double t1, Visit&& visit) const {
    auto first = std::lower_bound(runningMax_.begin(), runningMax_.end(), t0);
    for (std::size_t i = static_cast<std::size_t>(first - runningMax_.begin()); i < items_.size(); ++i) {
      const T& item = items_[i];
      if (lowTime(item) > t1) break;
      if (highTime(item) >= t0) visit(item);
    }
  }

 private:
  void rebuildRunningMax() {
    runningMax_.resize(items_.size());
    double m = -1e300;
    for (std::size_t i = 0; i < items_.size(); ++i) runningMax_[i] = m = std::max(m, highTime(items_[i]));
  }
  std::vector<T> items_;
  std::vector<double> runningMax_;
};

}  // namespace waitscope::timeline
