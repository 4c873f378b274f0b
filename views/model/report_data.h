#pragma once
// A loaded report with the indices the browser needs to refill a tree in a few
// milliseconds: the shapes of the metric, call, flat (by region) and system
// trees, and the severity rows grouped by metric with their sums over
// locations. Immutable after construction, so it is built off the GUI thread
// and shared by every view.
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include <QString>

#include "analysis/report/report.h"
#include "views/model/value_tree.h"

namespace waitscope::views {

// One selected item of a tree. Like Cube, a collapsed item stands for its
// whole subtree (inclusive), an expanded one for itself only (exclusive).
struct TreePick {
  std::uint32_t node = kNoNode;
  bool inclusive = true;
  friend bool operator==(const TreePick&, const TreePick&) = default;
};
using TreePicks = std::vector<TreePick>;

// Where a call path's parent calls it, "fence.c:42" (the file without its folders; without
// the line when unknown; empty when the site is unknown). The call tree appends it to
// siblings that share a name.
QString callSiteLabel(const report::CallPath& callPath);

// What a report restricted to a time window knows about itself (views/model/time_window_filter.h).
struct TimeWindowRestriction {
  double from = 0.0, to = 0.0;         // seconds on the trace's clock
  std::vector<char> metricAvailable;   // per metric: 0 when it cannot be restricted (it has no rows)
};

class ReportData {
 public:
  ReportData(report::Report report, QString path);
  // A report restricted to a time window: the same trees, the window's values.
  ReportData(report::Report report, QString path, TimeWindowRestriction window);

  // nullptr for a whole run.
  const TimeWindowRestriction* timeWindow() const { return window_ ? &*window_ : nullptr; }
  // False for a metric a time window cannot restrict (its values would be wrong, so it has none).
  bool metricAvailable(std::uint32_t metric) const {
    return !window_ || metric >= window_->metricAvailable.size() || window_->metricAvailable[metric];
  }

  const report::Report& report() const { return report_; }
  const QString& path() const { return path_; }

  const ValueTree& metricTree() const { return metricTree_; }     // node = metric index
  const ValueTree& callTree() const { return callTree_; }         // node = call path index
  const ValueTree& regionTree() const { return regionTree_; }     // flat profile: node = region index
  const ValueTree& systemTree() const { return systemTree_; }     // system nodes, then locations

  // System-tree node of a location and back (kNoNode for machines and nodes).
  std::uint32_t systemNodeOfLocation(std::uint32_t location) const;
  std::uint32_t locationOfSystemNode(std::uint32_t node) const;

  // Metric-exclusive value of every metric over all call paths and locations.
  const std::vector<double>& metricExclusive() const { return metricExclusive_; }
  const std::vector<double>& metricInclusive() const { return metricInclusive_; }

  // Masks (one char per node) of what a set of picks stands for. For the flat
  // profile, picks name regions and stand for every call path of the region.
  std::vector<char> metricMask(const TreePicks& picks) const;
  std::vector<char> callPathMask(const TreePicks& picks) const;
  std::vector<char> callPathMaskOfRegions(const TreePicks& regionPicks) const;

  // Call-path-exclusive values of the masked metrics, summed over locations.
  std::vector<double> callPathValues(const std::vector<char>& metrics) const;
  // The same, summed per region (the flat profile).
  std::vector<double> regionValues(const std::vector<char>& metrics) const;
  // Values of the masked metrics and call paths per location (indexed like report().locations).
  std::vector<double> locationValues(const std::vector<char>& metrics, const std::vector<char>& callPaths) const;
  // Values per location (from locationValues) as exclusive values of the system tree
  // (zero for machines and nodes).
  std::vector<double> systemValues(const std::vector<double>& byLocation) const;

  // Total of the metric roots above the picks (the 100% of "percent of total").
  double rootTotal(const TreePicks& metricPicks) const;
  // Unit of the picked metrics when they share one, else Seconds with mixed = true.
  report::MetricUnit unit(const TreePicks& metricPicks, bool* mixed = nullptr) const;

 private:
  report::Report report_;
  QString path_;
  std::optional<TimeWindowRestriction> window_;
  ValueTree metricTree_, callTree_, regionTree_, systemTree_;
  std::vector<std::vector<std::uint32_t>> rowsByMetric_;
  std::vector<std::vector<std::uint32_t>> rowsByCallPath_;
  std::vector<double> metricLocationTotals_;  // [metric * locations + location], over all call paths
  std::vector<double> rowTotals_;
  std::vector<double> metricExclusive_, metricInclusive_;
};

using ReportDataPtr = std::shared_ptr<const ReportData>;

}  // namespace waitscope::views
