#include "critical_path_profile.h"

#include <algorithm>

#include "report/report_queries.h"

namespace waitscope::timeline {

std::vector<PathProfileRow> criticalPathProfile(const report::Report& report) {
  std::vector<double> onPath(report.callPaths.size(), 0.0);
  double total = 0.0;
  for (const report::PathSegment& s : report.criticalPath) {
    if (s.callPath >= onPath.size() || !(s.end > s.start)) continue;
    onPath[s.callPath] += s.end - s.start;
    total += s.end - s.start;
  }
  const std::uint32_t metric = report.findMetric("critical_path_imbalance");
  const std::vector<double> imbalance =
      metric == report::kNoId ? std::vector<double>() : report::valuesByCallPath(report, metric);
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

}  // namespace waitscope::timeline
