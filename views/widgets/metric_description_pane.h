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

  QSize sizeHint() const override;
};

}  // namespace waitscope::views
