#pragma once
// The critical-path view beside the timeline: per call path its time on the
// critical path, share of the path and imbalance, as a sortable table and a
// bar chart of the ten largest (one row and one bar per call path: two calls of
// one function from one caller are told apart by their call sites). Selecting a row emits callPathSelected.
// Constructed with the app's Selection, it shows the selection's report and
// writes a selected row there as the highlighted call path and the call-tree
// pick (its segments on the path light up in the timeline).
#include <cstdint>
#include <memory>

#include <QWidget>

#include "analysis/report/report.h"

class QChart;
class QChartView;
class QSortFilterProxyModel;
class QSplitter;
class QStandardItemModel;
class QTableView;

namespace waitscope::views {

class Selection;

class CriticalPathPane : public QWidget {
  Q_OBJECT

 public:
  enum Column { CallPathColumn, OnPathColumn, ShareColumn, ImbalanceColumn };

  // Follows `selection`'s report and writes the selected row to it (see above).
  explicit CriticalPathPane(Selection* selection, QWidget* parent = nullptr);

  QTableView* table() const { return table_; }
  QStandardItemModel* model() const { return model_; }
  QChart* chart() const { return chart_; }
  QChartView* chartView() const { return chartView_; }
  // The profile as CSV (call path, time on the path, share, imbalance), full precision.
  QString toCsv() const;

 signals:
  void callPathSelected(std::uint32_t callPath);

 private:
  void followSelection();
  void setReport(std::shared_ptr<const report::Report> report);
  void rebuildChart();
  void applyPalette();
  int barHeight() const;
  int chartReserve() const;
  bool eventFilter(QObject* watched, QEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void changeEvent(QEvent* event) override;

  Selection* selection_ = nullptr;
  std::shared_ptr<const report::Report> report_;
  QStandardItemModel* model_;
  QSortFilterProxyModel* proxy_;
  QTableView* table_;
  QChart* chart_;
  QChartView* chartView_ = nullptr;
  QSplitter* split_ = nullptr;
  int chartRows_ = 10;  // bars the chart has room for
};

}  // namespace waitscope::views
