#include "views/model/selection.h"

namespace waitscope::views {

Selection::Selection(QObject* parent) : QObject(parent) {}

void Selection::setReport(ReportDataPtr report) {
  if (comparison_) {
    comparison_.reset();
    emit comparisonChanged();
  }
  showNew(std::move(report));
}

void Selection::setComparison(ComparisonDataPtr comparison) {
  comparison_ = std::move(comparison);
  emit comparisonChanged();
  showNew(comparison_ ? comparison_->run(compareView_) : nullptr);
}

void Selection::setCompareView(CompareView view) {
  if (view == compareView_) return;
  compareView_ = view;
  emit compareViewChanged();
  if (comparison_) updateReport(comparison_->run(view));
}

void Selection::showNew(ReportDataPtr report) {
  report_ = std::move(report);
  whole_ = report_;
  filterStart_ = filterEnd_ = 0.0;
  metrics_.clear();
  callPaths_.clear();
  systemItems_.clear();
  flatProfile_ = false;
  highlightedCallPath_ = kNoNode;
  windowStart_ = windowEnd_ = 0.0;
  emit reportChanged();
}

void Selection::updateReport(ReportDataPtr report) {
  report_ = std::move(report);
  whole_ = report_;
  emit reportUpdated();
  if (hasTimeFilter()) emit timeFilterChanged();
}

void Selection::setTimeFilter(double start, double end) {
  if (!(end > start) || comparison_ || !whole_) return;  // a comparison aligns whole runs only
  if (start == filterStart_ && end == filterEnd_) return;
  filterStart_ = start;
  filterEnd_ = end;
  emit timeFilterChanged();
}

void Selection::clearTimeFilter() {
  if (!hasTimeFilter()) return;
  filterStart_ = filterEnd_ = 0.0;
  emit timeFilterChanged();
  if (report_ != whole_) {
    report_ = whole_;
    emit reportUpdated();
  }
}

void Selection::showRestricted(ReportDataPtr restricted) {
  if (!hasTimeFilter() || !restricted) return;
  report_ = std::move(restricted);
  emit reportUpdated();
}

void Selection::setMetrics(const TreePicks& picks) {
  if (picks == metrics_) return;
  metrics_ = picks;
  emit metricsChanged();
}

void Selection::setCallPaths(const TreePicks& picks, bool flatProfile) {
  if (picks == callPaths_ && flatProfile == flatProfile_) return;
  callPaths_ = picks;
  flatProfile_ = flatProfile;
  emit callPathsChanged();
  setHighlightedCallPath(picks.empty() || flatProfile ? kNoNode : picks.front().node);
}

void Selection::setHighlightedCallPath(std::uint32_t callPath) {
  if (callPath == highlightedCallPath_) return;
  highlightedCallPath_ = callPath;
  emit highlightedCallPathChanged(callPath);
}

void Selection::setSystemItems(const TreePicks& picks) {
  if (picks == systemItems_) return;
  systemItems_ = picks;
  emit systemItemsChanged();
}

void Selection::setMode(ValueMode mode) {
  if (mode == mode_) return;
  mode_ = mode;
  emit modeChanged();
}

void Selection::setThreshold(double percent) {
  if (percent == threshold_) return;
  threshold_ = percent;
  emit thresholdChanged();
}

void Selection::setTimeWindow(double start, double end) {
  if (start == windowStart_ && end == windowEnd_) return;
  windowStart_ = start;
  windowEnd_ = end;
  emit timeWindowChanged(start, end);
}

std::vector<char> Selection::metricMask() const { return report_ ? report_->metricMask(metrics_) : std::vector<char>{}; }

std::vector<char> Selection::callPathMask() const {
  if (!report_) return {};
  return flatProfile_ ? report_->callPathMaskOfRegions(callPaths_) : report_->callPathMask(callPaths_);
}

std::vector<std::uint32_t> Selection::selectedLocations() const {
  std::vector<std::uint32_t> out;
  if (!report_) return out;
  std::vector<char> mask(report_->systemTree().size(), 0);
  for (const TreePick& p : systemItems_) report_->systemTree().markSubtree(p.node, mask);
  for (std::uint32_t n = 0; n < mask.size(); ++n) {
    const std::uint32_t location = report_->locationOfSystemNode(n);
    if (mask[n] && location != kNoNode) out.push_back(location);
  }
  return out;
}

}  // namespace waitscope::views
