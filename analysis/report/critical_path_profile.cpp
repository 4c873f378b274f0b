#include "analysis/report/critical_path_profile.h"

#include <algorithm>

#include "analysis/report/report_queries.h"

namespace waitscope::report {

// From the severities, not the segments: a segment is one visit of the path to
// a location and names only the call path at its end (docs/causes-critical-path.md).
std::vector<PathProfileRow> criticalPathProfile(const report::Report& report) {
  const std::uint32_t pathMetric = report.findMetric("critical_path");
  if (pathMetric == report::kNoId) return {};
  // Metric-inclusive: critical_path_imbalance is part of critical_path.
  const std::vector<double> onPath = report::valuesByCallPath(report, pathMetric);
  double total = 0.0;
  for (double t : onPath) total += t;
  const std::uint32_t imbalanceMetric = report.findMetric("critical_path_imbalance");
  const std::vector<double> imbalance =
      imbalanceMetric == report::kNoId ? std::vector<double>() : report::valuesByCallPath(report, imbalanceMetric);
  std::vector<PathProfileRow> rows;
  for (std::uint32_t c = 0; c < onPath.size(); ++c) {
    const double im = c < imbalance.size() ? imbalance[c] : 0.0;
    if (onPath[c] == 0.0 && im == 0.0) continue;
    rows.push_back({c, onPath[c], total > 0.0 ? onPath[c] / total : 0.0, im});
  }
  std::stable_sort(rows.begin(), rows.end(),
                   [](const PathProfileRow& a, const PathProfileRow& b) { return a.onPath > b.onPath; });
  return rows;
}

}  // namespace waitscope::report
