#pragma once
// Binary search that starts from a hint. The backward analyses look up times in
// arrays of millions of entries, in roughly increasing order: a plain binary
// search pays a cache miss per step every time; galloping out from the previous
// answer costs O(log distance) and stays in cached memory.
#include <algorithm>
#include <cstddef>

namespace waitscope::replay {

// The first index in [0, n) for which `after(index)` holds (n if none), where
// `after` is false and then true along the range (a partition), searched
// outwards from `hint`.
template <class After>
std::size_t partitionPointNear(std::size_t n, std::size_t hint, After&& after) {
  hint = std::min(hint, n);
  std::size_t lo = hint, hi = hint;
  std::size_t step = 1;
  if (hint < n && !after(hint)) {
    // Forward: every index below lo is before the answer.
    lo = hint + 1;
    hi = lo;
    while (hi < n && !after(hi)) {
      lo = hi + 1;
      hi = lo + step;
      step *= 2;
    }
    hi = std::min(hi, n);
  } else {
    // Backward: the answer is at or below hi.
    while (lo > 0 && after(lo - 1)) {
      hi = lo - 1;
      lo = hi > step ? hi - step : 0;
      step *= 2;
    }
  }
  while (lo < hi) {
    const std::size_t mid = lo + (hi - lo) / 2;
    if (after(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

}  // namespace waitscope::replay
