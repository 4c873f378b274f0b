#pragma once
// Cube's three coupled trees left to right (metrics, call tree or flat
// profile, system tree) with the chart pane below. It follows one Selection:
// picking a metric fills the call tree with that metric's values, picking call
// paths fills the system tree and the charts. Picks written into the Selection
// elsewhere are selected in the trees. While two runs are compared, a bar above
// the trees names them and picks the run shown (A, B or B − A); every tree gets
// the columns A, B and B − A.
#include <functional>
#include <vector>

#include <QWidget>

#include "views/model/report_data.h"
#include "views/model/value_tree_model.h"

class QComboBox;
class QLabel;
class QSplitter;

namespace waitscope::views {

class ChartPane;
class MetricDescriptionPane;
class Selection;
class TreePane;

class ReportBrowser : public QWidget {
  Q_OBJECT
 public:
  explicit ReportBrowser(Selection* selection, QWidget* parent = nullptr);

  TreePane* metricPane() const { return metricPane_; }
  TreePane* callPane() const { return callPane_; }
  TreePane* systemPane() const { return systemPane_; }
  ChartPane* chartPane() const { return chartPane_; }
  // Below the metric tree: what the selected metric measures and what to change.
  MetricDescriptionPane* descriptionPane() const { return descriptionPane_; }
  // The metric tree above its description. The description takes its height (about five
  // lines) only where the tree keeps kTreeRows rows beside it, else it starts collapsed to
  // the splitter's handle; once the handle is dragged, the user's sizes stay.
  QSplitter* metricSplitter() const { return metricSplitter_; }
  static constexpr int kTreeRows = 7;
  QSplitter* treeSplitter() const { return treeSplitter_; }
  QSplitter* chartSplitter() const { return chartSplitter_; }
  ValueTreeModel* metricModel() const { return metricModel_; }
  ValueTreeModel* callModel() const { return callModel_; }
  ValueTreeModel* systemModel() const { return systemModel_; }

  // The compare bar (shown while comparing): the compared files, the run shown, and why
  // per-rank values are not compared when the rank counts differ.
  QWidget* compareBar() const { return compareBar_; }
  QComboBox* compareSelector() const { return compareSelector_; }
  QLabel* compareNotice() const { return compareNotice_; }

  // The tree pane that last had the keyboard focus (for Find, Hot path, CSV export).
  TreePane* activePane() const { return activePane_; }

  // Shows the call tree or the flat profile (by region) in the middle pane. The picks go
  // along: call paths become their regions, regions all their call paths.
  void setFlatProfile(bool flat);
  bool flatProfile() const;
  // Shows these call paths in the call tree (leaving the flat profile): the call paths of a
  // region picked in the flat profile, or the call paths the system tree shows.
  void showInCallTree(const std::vector<std::uint32_t>& callPaths);
  // The call paths of these regions, and the regions of these call paths.
  std::vector<std::uint32_t> callPathsOfRegions(const std::vector<std::uint32_t>& regions) const;
  std::vector<std::uint32_t> regionsOfCallPaths(const std::vector<std::uint32_t>& callPaths) const;

  // Selects a metric by unique name / a call path by "main/foo/MPI_Recv"; false when there is none.
  bool selectMetric(const QString& uniqueName);
  bool selectCallPath(const QString& path);

  // Shows a newer version of the shown report (the next snapshot of a live run) in place:
  // the same items stay selected and expanded, the scroll positions stay, values change.
  // Items are matched by name path, so trees that gained or lost items keep what still
  // exists. Without a shown report it is Selection::setReport.
  void updateReport(ReportDataPtr report);

 signals:
  // The middle pane switched between the call tree and the flat profile (also from a
  // context menu's Find in Call Tree).
  void flatProfileChanged(bool flat);

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
  // "metric: Late Sender (seconds); call path: main/MPI_Recv; values: Absolute".
  QString csvCaption() const;
  bool eventFilter(QObject* watched, QEvent* event) override;
  void fitDescription();
  void updateCompareBar();
  void fillMetrics();
  // Metrics a time window cannot restrict: "n/a" in the metric tree, and everywhere in the
  // other trees while one of them is picked.
  void markUnavailable();
  bool pickedUnavailable() const;
  // The middle pane's tree, without carrying picks over.
  void switchMiddleTree(bool flat);
  // What the system tree's context menu offers: the call paths whose values it shows.
  std::vector<std::uint32_t> shownCallPaths() const;
  // Gives `model` the values `valuesOf` computes from a report: the shown report's, or every
  // run's while comparing (the runs share the picks' node numbers).
  struct Filled {
    std::vector<double> exclusive;
    ValueTreeModel::References references;
  };
  // Values of the trees right of the metric tree, with the references for the picked metrics.
  static Filled picked(const ReportData& run, const TreePicks& metricPicks, std::vector<double> exclusive);
  void fill(ValueTreeModel* model, const std::function<Filled(const ReportData&)>& valuesOf, report::MetricUnit unit);

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
  MetricDescriptionPane* descriptionPane_;
  QSplitter* metricSplitter_;
  bool descriptionSized_ = false;  // the user dragged the description's handle
  QSplitter* treeSplitter_;
  QSplitter* chartSplitter_;
  QWidget* compareBar_;
  QLabel* compareTitle_;
  QComboBox* compareSelector_;
  QLabel* compareNotice_;
};

}  // namespace waitscope::views
