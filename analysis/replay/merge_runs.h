#pragma once
// Stable sorting of sequences made of a few sorted pieces (each rank's or each
// pattern family's results, in time order): merging the pieces pairwise costs
// n log(pieces) instead of n log n.
#include <algorithm>
#include <cstddef>
#include <vector>

namespace waitscope::replay {

// Merges the sorted runs [runs[k], runs[k+1]) of `v` (runs starts with 0 and
// ends with v.size()), stably, by `before`.
template <class T, class Before>
void mergeRuns(std::vector<T>& v, std::vector<std::size_t> runs, Before before) {
  const auto at = [&](std::size_t k) { return v.begin() + static_cast<std::ptrdiff_t>(k); };
  while (runs.size() > 2) {
    std::vector<std::size_t> merged{0};
    for (std::size_t r = 0; r + 2 < runs.size(); r += 2) {
      std::inplace_merge(at(runs[r]), at(runs[r + 1]), at(runs[r + 2]), before);
      merged.push_back(runs[r + 2]);
    }
    if (runs.size() % 2 == 0) merged.push_back(runs.back());  // an odd run count: the last run as it is
    runs.swap(merged);
  }
}

// Sorts `v` stably by `before`, merging the ascending runs it finds.
template <class T, class Before>
void sortByMergingRuns(std::vector<T>& v, Before before) {
  std::vector<std::size_t> runs{0};
  for (std::size_t i = 1; i < v.size(); ++i)
    if (before(v[i], v[i - 1])) runs.push_back(i);
  runs.push_back(v.size());
  mergeRuns(v, std::move(runs), before);
}

}  // namespace waitscope::replay
