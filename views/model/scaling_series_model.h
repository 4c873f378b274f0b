#pragma once
// A scaling series as a table: one row per run of the same program on more and
// more processes, sorted by process count, the first being the reference of the
// others. Per run its processes, runtime, speed-up and scaling efficiency against
// the reference, and every POP efficiency of analysis/report/pop_metrics.h,
// coloured by POP's thresholds. Writes itself as CSV.
#include <vector>

#include <QAbstractTableModel>
#include <QStringList>

#include "analysis/report/pop_metrics.h"
#include "views/model/report_data.h"

namespace waitscope::views {

struct SeriesRun {
  QString label;  // what the table calls the run: its file name without .waitscope
  ReportDataPtr data;
};

class ScalingSeriesModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column {
    RunColumn,
    ProcessesColumn,
    RuntimeColumn,
    SpeedupColumn,
    ScalingEfficiencyColumn,
    ParallelEfficiencyColumn,
    LoadBalanceColumn,
    CommunicationEfficiencyColumn,
    SerialisationEfficiencyColumn,
    TransferEfficiencyColumn,
    ComputationScalingColumn,
    GlobalEfficiencyColumn,
    ColumnCount
  };
  static constexpr int ValueRole = Qt::UserRole;  // the cell as a number (fractions for efficiencies)

  explicit ScalingSeriesModel(QObject* parent = nullptr);

  // Sorts the runs by process count (stably: equal counts keep the given order) and computes
  // their metrics against the first. A run whose metrics cannot be computed (no "comp"
  // metric, ...) is left out with one line in errors() naming it.
  void setRuns(std::vector<SeriesRun> runs);
  // The shown runs' metrics, in row order. The reference's comparisons are filled in as they
  // are by definition: speed-up, scaling efficiency and computation scaling 1, global
  // efficiency = parallel efficiency.
  const std::vector<report::PopMetrics>& metrics() const { return metrics_; }
  const QStringList& errors() const { return errors_; }

  // A column's value for a run (runtime in seconds, speed-up as a factor, efficiencies as fractions).
  static double value(const report::PopMetrics& run, int column);
  static bool isEfficiency(int column) { return column >= ScalingEfficiencyColumn && column < ColumnCount; }
  // A column's name for a legend or tooltip, on one line ("Scaling efficiency").
  static QString columnName(int column);

  // Header `run,processes,runtime_s,speedup,<efficiency>_percent,...`, one line per row, full precision.
  QString toCsv() const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  std::vector<report::PopMetrics> metrics_;
  QStringList errors_;
};

}  // namespace waitscope::views
