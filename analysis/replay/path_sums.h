#pragma once
// Sums of a few metrics per call path in dense arrays, added to Severities once
// at the end. For loops that add to the same metrics hundreds of thousands of
// times (the delay costs' charges): Severities::add is a hash lookup per metric
// on the way up the metric tree, this is one array element.
#include <cstddef>
#include <initializer_list>
#include <vector>

#include "analysis/replay/severities.h"

namespace waitscope::replay {

class PathSums {
 public:
  PathSums(std::size_t paths, std::initializer_list<Metric> metrics)
      : metrics_(metrics), paths_(paths), values_(metrics_.size() * paths, 0.0) {}

  // `metric` is an index into the metrics given to the constructor.
  void add(std::size_t metric, trace::CallPathId path, double value) { values_[metric * paths_ + path] += value; }

  // Adds every non-zero sum to `out`, call path by call path (Severities::add
  // skips zeros too, so the entries are the same as adding one by one).
  void addTo(Severities& out) const {
    for (std::size_t p = 0; p < paths_; ++p)
      for (std::size_t m = 0; m < metrics_.size(); ++m)
        if (const double v = values_[m * paths_ + p]; v != 0.0)
          out.add(metrics_[m], static_cast<trace::CallPathId>(p), v);
  }

 private:
  std::vector<Metric> metrics_;
  std::size_t paths_;
  std::vector<double> values_;
};

}  // namespace waitscope::replay
