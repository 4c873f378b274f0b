#pragma once
// What is selected, for every view at once: the report, the picked metrics,
// call paths (or regions, in the flat profile) and system-tree items, the value
// mode, the threshold and the time window. The app owns one; views read it and
// write to it, and follow its signals — the single source of truth.
#include <vector>

#include <QObject>

#include "views/model/report_data.h"
#include "views/model/value_mode.h"

namespace waitscope::views {

class Selection : public QObject {
  Q_OBJECT
 public:
  explicit Selection(QObject* parent = nullptr);

  const ReportDataPtr& report() const { return report_; }
  void setReport(ReportDataPtr report);
  // A newer version of the shown report with the same tree shapes (the next snapshot of a
  // live run): the picks, which name the same nodes, the flat-profile choice and the time
  // window stay; reportUpdated follows instead of reportChanged.
  void updateReport(ReportDataPtr report);

  const TreePicks& metrics() const { return metrics_; }
  void setMetrics(const TreePicks& picks);

  // Call-tree picks, or region picks when `flatProfile` is set.
  const TreePicks& callPaths() const { return callPaths_; }
  bool flatProfile() const { return flatProfile_; }
  void setCallPaths(const TreePicks& picks, bool flatProfile);

  // System-tree picks (machines, nodes or locations).
  const TreePicks& systemItems() const { return systemItems_; }
  void setSystemItems(const TreePicks& picks);

  ValueMode mode() const { return mode_; }
  void setMode(ValueMode mode);

  // Items whose inclusive value is below this percentage of their tree's largest value are hidden.
  double threshold() const { return threshold_; }
  void setThreshold(double percent);

  // The time window the timeline shows (seconds, as in the trace).
  double windowStart() const { return windowStart_; }
  double windowEnd() const { return windowEnd_; }
  void setTimeWindow(double start, double end);

  // What the current picks stand for (empty when no report is loaded).
  std::vector<char> metricMask() const;
  std::vector<char> callPathMask() const;
  std::vector<std::uint32_t> selectedLocations() const;

 signals:
  void reportChanged();
  void reportUpdated();
  void metricsChanged();
  void callPathsChanged();
  void systemItemsChanged();
  void modeChanged();
  void thresholdChanged();
  void timeWindowChanged();

 private:
  ReportDataPtr report_;
  TreePicks metrics_, callPaths_, systemItems_;
  bool flatProfile_ = false;
  ValueMode mode_ = ValueMode::Absolute;
  double threshold_ = 0.0;
  double windowStart_ = 0.0, windowEnd_ = 0.0;
};

}  // namespace waitscope::views
