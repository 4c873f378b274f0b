#pragma once
// The critical-path profile: how long each call path lies on the critical path
// (the report's critical_path metric, summed over locations), its share of the
// path, and its imbalance (the report's critical_path_imbalance metric: time on
// the path beyond the average over the locations), largest first.
#include <cstdint>
#include <vector>

#include "analysis/report/report.h"

namespace waitscope::report {

struct PathProfileRow {
  std::uint32_t callPath = 0;
  double onPath = 0.0;     // seconds
  double share = 0.0;      // of the whole path (the sum of onPath over all rows), 0..1
  double imbalance = 0.0;  // seconds; 0 when the report has no imbalance metric
};

// Empty when the report has no critical_path metric.
std::vector<PathProfileRow> criticalPathProfile(const report::Report& report);

}  // namespace waitscope::report
