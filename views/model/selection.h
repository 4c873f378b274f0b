#pragma once
// What is selected, for every view at once: the report, the picked metrics,
// call paths (or regions, in the flat profile) and system-tree items, the
// highlighted call path, the value mode, the threshold and the time window. The
// app owns one; views read it and write to it, and follow its signals — the
// single source of truth, so no view reaches into another.
#include <cstdint>
#include <vector>

#include <QObject>

#include "views/model/compare_view.h"
#include "views/model/comparison_data.h"
#include "views/model/report_data.h"
#include "views/model/value_mode.h"

namespace waitscope::views {

class Selection : public QObject {
  Q_OBJECT
 public:
  explicit Selection(QObject* parent = nullptr);

  // The shown report; while comparing, the run the compare view names.
  const ReportDataPtr& report() const { return report_; }
  // Shows one report, ending a comparison.
  void setReport(ReportDataPtr report);
  // A new report clears the picks, the highlighted call path and the time window; only
  // reportChanged is emitted (views refill from the report).
  // A newer version of the shown report with the same tree shapes (the next snapshot of a
  // live run): the picks, which name the same nodes, the flat-profile choice, the highlighted
  // call path and the time window stay; reportUpdated follows instead of reportChanged.
  void updateReport(ReportDataPtr report);

  // Two runs side by side (nullptr: one report). Starting one is like a new report (picks
  // cleared, reportChanged); comparisonChanged comes first. Ending one shows nothing until
  // setReport.
  const ComparisonDataPtr& comparison() const { return comparison_; }
  void setComparison(ComparisonDataPtr comparison);
  // Which run report() is while comparing. The runs share their tree shapes, so switching
  // keeps every pick: compareViewChanged, then reportUpdated.
  CompareView compareView() const { return compareView_; }
  void setCompareView(CompareView view);

  const TreePicks& metrics() const { return metrics_; }
  void setMetrics(const TreePicks& picks);

  // Call-tree picks, or region picks when `flatProfile` is set. Changing them also makes the
  // first picked call path the highlighted one (none in the flat profile or without picks).
  const TreePicks& callPaths() const { return callPaths_; }
  bool flatProfile() const { return flatProfile_; }
  void setCallPaths(const TreePicks& picks, bool flatProfile);

  // The call path whose occurrences the timeline and the critical-path pane light up
  // (kNoNode: none): the first call-tree pick, or a call path picked in the critical-path pane.
  std::uint32_t highlightedCallPath() const { return highlightedCallPath_; }
  void setHighlightedCallPath(std::uint32_t callPath);

  // System-tree picks (machines, nodes or locations).
  const TreePicks& systemItems() const { return systemItems_; }
  void setSystemItems(const TreePicks& picks);

  ValueMode mode() const { return mode_; }
  void setMode(ValueMode mode);

  // Items whose inclusive value is below this percentage of their tree's largest value are hidden.
  double threshold() const { return threshold_; }
  void setThreshold(double percent);

  // The time window the timeline shows (seconds, as in the trace); empty (start == end) until
  // a timeline has shown the report.
  double windowStart() const { return windowStart_; }
  double windowEnd() const { return windowEnd_; }
  bool hasTimeWindow() const { return windowEnd_ > windowStart_; }
  void setTimeWindow(double start, double end);

  // The time filter: the trees, charts and critical path show the values of [filterStart,
  // filterEnd] (docs/time-window.md) instead of the whole run. Unlike the time window above
  // (where the timeline is zoomed), it is set on purpose and stays until cleared. Setting it
  // emits timeFilterChanged; TimeWindowFilter then computes the restricted report and shows
  // it with showRestricted (reportUpdated, picks kept). A new report or a comparison clears it;
  // a newer version of the shown report (updateReport) keeps it and emits timeFilterChanged
  // again, so the restriction is computed anew.
  double filterStart() const { return filterStart_; }
  double filterEnd() const { return filterEnd_; }
  bool hasTimeFilter() const { return filterEnd_ > filterStart_; }
  void setTimeFilter(double start, double end);
  void clearTimeFilter();
  // The shown report without the time filter (== report() while none is applied).
  const ReportDataPtr& wholeReport() const { return whole_; }
  // Shows `restricted` (the whole report restricted to the filter, same tree shapes) in place.
  void showRestricted(ReportDataPtr restricted);

  // What the current picks stand for (empty when no report is loaded).
  std::vector<char> metricMask() const;
  std::vector<char> callPathMask() const;
  std::vector<std::uint32_t> selectedLocations() const;

 signals:
  void reportChanged();
  void reportUpdated();
  void comparisonChanged();
  void compareViewChanged();
  void metricsChanged();
  void callPathsChanged();
  void highlightedCallPathChanged(std::uint32_t callPath);
  void systemItemsChanged();
  void modeChanged();
  void thresholdChanged();
  void timeWindowChanged(double start, double end);
  void timeFilterChanged();

 private:
  void showNew(ReportDataPtr report);

  ReportDataPtr report_;
  ReportDataPtr whole_;
  ComparisonDataPtr comparison_;
  CompareView compareView_ = CompareView::Difference;
  TreePicks metrics_, callPaths_, systemItems_;
  bool flatProfile_ = false;
  std::uint32_t highlightedCallPath_ = kNoNode;
  ValueMode mode_ = ValueMode::Absolute;
  double threshold_ = 0.0;
  double windowStart_ = 0.0, windowEnd_ = 0.0;
  double filterStart_ = 0.0, filterEnd_ = 0.0;
};

}  // namespace waitscope::views
