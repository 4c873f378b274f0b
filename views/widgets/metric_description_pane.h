#pragma once
// Below the metric tree: what the selected metric is, as Cube's online
// description does: its name and path in the metric tree, its unit, the
// metric table's description and, for a wait-state pattern, what to change
// (the pattern advice, analysis/metrics/pattern_advice.h).
#include <QTextBrowser>

#include "views/model/report_data.h"

namespace waitscope::views {

class MetricDescriptionPane : public QTextBrowser {
  Q_OBJECT
 public:
  explicit MetricDescriptionPane(QWidget* parent = nullptr);

  // Describes these metrics of `report` (nullptr or no picks: a hint to select one;
  // several: each in turn).
  void describe(const ReportData* report, const TreePicks& metrics);

  // The HTML for one metric (tests, tooltips).
  static QString describeMetric(const report::Report& report, std::uint32_t metric);

  // About five lines: the name, the path and a short description without scrolling.
  QSize sizeHint() const override;
  // Two lines (the name and the path): any smaller and the pane is better collapsed.
  int minimumUsefulHeight() const;
  QSize minimumSizeHint() const override;
};

}  // namespace waitscope::views
