#pragma once
// The POP assessment of one report as a table: each efficiency of
// analysis/report/pop_metrics.h with its value, POP's traffic-light rating,
// one sentence on what it means and the metric to look at next. With a
// reference run (a run of the same program on fewer processes) Computation
// Scaling and Global Efficiency join. Rows follow POP's hierarchy: a factor is
// indented below the product it is a factor of.
#include <cstdint>
#include <vector>

#include <QAbstractTableModel>

#include "views/model/pop_rating.h"
#include "views/model/report_data.h"

namespace waitscope::views {

class AssessmentModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column { NameColumn, ValueColumn, MeaningColumn, LinkColumn, ColumnCount };
  static constexpr int ValueRole = Qt::UserRole;  // the efficiency as a fraction (double)

  struct Row {
    QString name;         // "Load Balance"
    int depth = 0;        // 0 for the top of the hierarchy
    double value = 0.0;   // a fraction, 0.8 = 80 %
    QString meaning;      // one sentence: what it measures and where the loss is
    QString linkText;     // the metric to look at next, as the metric tree names it
    std::uint32_t linkMetric = report::kNoId;  // index into the run's metrics; kNoId for none
  };

  explicit AssessmentModel(QObject* parent = nullptr);

  // The run to assess and, optionally, its reference run.
  void setReports(ReportDataPtr run, ReportDataPtr reference = nullptr);
  const ReportDataPtr& run() const { return run_; }
  const ReportDataPtr& reference() const { return reference_; }

  const std::vector<Row>& rows() const { return rows_; }
  // Why there is no assessment of a shown run (no "time" or "comp" metric, ...); empty otherwise.
  const QString& unavailableReason() const { return unavailable_; }
  // The index of a row's metric by name ("Load Balance"); -1 when not shown.
  int rowOf(const QString& name) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  void build();

  ReportDataPtr run_, reference_;
  std::vector<Row> rows_;
  QString unavailable_;
};

}  // namespace waitscope::views
