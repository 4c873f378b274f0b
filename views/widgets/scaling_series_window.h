#pragma once
// A scaling series in its own window: the table of ScalingSeriesModel, a chart
// of the efficiencies over the process count, a chart of the speed-up against
// the ideal one, one line per file that could not be used, and CSV and PNG
// export.
#include <vector>

#include <QWidget>

#include "views/model/scaling_series_model.h"

class QChart;
class QLabel;
class QSplitter;
class QTableView;

namespace waitscope::views {

class ScalingSeriesWindow : public QWidget {
  Q_OBJECT
 public:
  explicit ScalingSeriesWindow(QWidget* parent = nullptr);

  // The runs that could be read and one line for each file that could not; runs the model
  // cannot use add their own line.
  void setRuns(std::vector<SeriesRun> runs, const QStringList& unreadable);

  ScalingSeriesModel* model() const { return model_; }
  QTableView* table() const { return table_; }
  QChart* efficiencyChart() const { return efficiencyChart_; }
  QChart* speedupChart() const { return speedupChart_; }
  // Every file left out, one line each (empty when all were used).
  QStringList problems() const { return problems_; }

  // Each returns an empty string on success, else one line naming the file.
  QString exportCsv(const QString& path) const;
  QString exportPng(const QString& path);

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  void rebuildCharts();
  void fitTable();
  void exportInteractively(bool png);

  ScalingSeriesModel* model_;
  QTableView* table_;
  QLabel* problemsLabel_;
  QSplitter* splitter_ = nullptr;
  QChart* efficiencyChart_;
  QChart* speedupChart_;
  QStringList problems_;
};

}  // namespace waitscope::views
