#pragma once
// Cube's three coupled trees left to right (metrics, call tree or flat
// profile, system tree) with the chart pane below. It follows one Selection:
// picking a metric fills the call tree with that metric's values, picking call
// paths fills the system tree and the charts. Picks written into the Selection
// elsewhere are selected in the trees.
#include <QWidget>

#include "views/model/report_data.h"

class QSplitter;

namespace waitscope::views {

class ChartPane;
class Selection;
class TreePane;
class ValueTreeModel;

class ReportBrowser : public QWidget {
  Q_OBJECT
 public:
  explicit ReportBrowser(Selection* selection, QWidget* parent = nullptr);

  TreePane* metricPane() const { return metricPane_; }
  TreePane* callPane() const { return callPane_; }
  TreePane* systemPane() const { return systemPane_; }
  ChartPane* chartPane() const { return chartPane_; }
  QSplitter* treeSplitter() const { return treeSplitter_; }
  QSplitter* chartSplitter() const { return chartSplitter_; }
  ValueTreeModel* metricModel() const { return metricModel_; }
  ValueTreeModel* callModel() const { return callModel_; }
  ValueTreeModel* systemModel() const { return systemModel_; }

  // The tree pane that last had the keyboard focus (for Find, Hot path, CSV export).
  TreePane* activePane() const { return activePane_; }

  // Shows the call tree or the flat profile (by region) in the middle pane.
  void setFlatProfile(bool flat);
  bool flatProfile() const;

  // Selects a metric by unique name / a call path by "main/foo/MPI_Recv"; false when there is none.
  bool selectMetric(const QString& uniqueName);
  bool selectCallPath(const QString& path);

  // Shows a newer version of the shown report (the next snapshot of a live run) in place:
  // the same items stay selected and expanded, the scroll positions stay, values change.
  // Items are matched by name path, so trees that gained or lost items keep what still
  // exists. Without a shown report it is Selection::setReport.
  void updateReport(ReportDataPtr report);

 private:
  // A pane's picks into the selection, and the selection's picks into a pane (which decides
  // inclusive or exclusive by its expansion and writes that back).
  void writePicks(TreePane* pane);
  void showPicks(TreePane* pane, const TreePicks& wanted);
  void onReport();
  void onReportUpdated();
  void onMetrics();
  void onCallPaths();
  void onMode();
  void updateCharts(std::vector<double> byLocation);

  Selection* selection_;
  ValueTreeModel* metricModel_;
  ValueTreeModel* callModel_;
  ValueTreeModel* regionModel_;
  ValueTreeModel* systemModel_;
  TreePane* metricPane_;
  TreePane* callPane_;
  TreePane* systemPane_;
  TreePane* activePane_;
  ChartPane* chartPane_;
  QSplitter* treeSplitter_;
  QSplitter* chartSplitter_;
};

}  // namespace waitscope::views
