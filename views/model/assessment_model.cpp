#include "views/model/assessment_model.h"

#include <algorithm>

#include <QBrush>
#include <QFileInfo>
#include <QFont>

#include "analysis/metrics/metric_table.h"
#include "analysis/report/pop_metrics.h"

namespace waitscope::views {
namespace {

QString percent(double fraction) { return QStringLiteral("%1 %").arg(fraction * 100.0, 0, 'f', 1); }

// Whether a metric of the run is one of the wait-state patterns popMetrics counts as waiting
// time: a time metric that is part of its parent's value, in the tree below "time".
bool isWaitState(const report::Report& r, std::uint32_t m) {
  const auto& table = metrics::metricTable();
  const auto known = std::find_if(table.begin(), table.end(), [&](const metrics::MetricDefinition& d) {
    return d.uniqueName == r.metrics[m].uniqueName;
  });
  if (known == table.end() || !known->partOfParent || known->unit != metrics::Unit::Seconds) return false;
  std::uint32_t root = m;
  while (r.metrics[root].parent != report::kNoId) root = r.metrics[root].parent;
  return r.metrics[root].uniqueName == "time";
}

// The wait-state pattern with the most waiting time in the run (kNoId when it has none). A
// sub-pattern is part of its parent pattern, so the parent wins a tie.
std::uint32_t largestWaitState(const ReportData& run) {
  const std::vector<double>& inclusive = run.metricInclusive();
  std::uint32_t best = report::kNoId;
  for (std::uint32_t m = 0; m < run.report().metrics.size(); ++m)
    if (inclusive[m] > 0.0 && isWaitState(run.report(), m) && (best == report::kNoId || inclusive[m] > inclusive[best]))
      best = m;
  return best;
}

// The first of the named metrics the run has (kNoId for none).
std::uint32_t firstMetric(const report::Report& r, std::initializer_list<const char*> names) {
  for (const char* name : names)
    if (const std::uint32_t m = r.findMetric(name); m != report::kNoId) return m;
  return report::kNoId;
}

QString displayName(const report::Report& r, std::uint32_t metric) {
  if (metric == report::kNoId) return {};
  const report::Metric& m = r.metrics[metric];
  return QString::fromStdString(m.displayName.empty() ? m.uniqueName : m.displayName);
}

// A product of two factors points where its larger loss is: to its weaker factor's metric.
AssessmentModel::Row productOf(const QString& name, double value, const QString& meaning, const AssessmentModel::Row& a,
                               const AssessmentModel::Row& b) {
  const AssessmentModel::Row& loss = b.value < a.value ? b : a;
  return {name, 0, value, meaning.arg(loss.name), loss.linkText, loss.linkMetric};
}

}  // namespace

AssessmentModel::AssessmentModel(QObject* parent) : QAbstractTableModel(parent) {}

void AssessmentModel::setReports(ReportDataPtr run, ReportDataPtr reference) {
  beginResetModel();
  run_ = std::move(run);
  reference_ = std::move(reference);
  build();
  endResetModel();
}

int AssessmentModel::rowOf(const QString& name) const {
  for (std::size_t i = 0; i < rows_.size(); ++i)
    if (rows_[i].name == name) return static_cast<int>(i);
  return -1;
}

void AssessmentModel::build() {
  rows_.clear();
  unavailable_.clear();
  if (!run_) return;
  const report::Report& r = run_->report();
  const QString file = QFileInfo(run_->path()).fileName();
  for (const char* needed : {"time", "comp"}) {
    if (r.findMetric(needed) == report::kNoId) {
      unavailable_ = tr("No POP assessment for %1: it has no \"%2\" metric, and the efficiencies need the time "
                        "and the computation time of every process (a Waitscope trace analysis has both).")
                         .arg(file, QString::fromLatin1(needed));
      return;
    }
  }
  report::PopMetrics m;
  QString failed;  // which run the metrics could not be computed for
  try {
    failed = file;
    m = report::popMetrics(r, file.toStdString());
    if (reference_) {
      failed = QFileInfo(reference_->path()).fileName();
      const std::string refLabel = failed.toStdString();
      m = report::popSeries({&reference_->report(), &r}, {refLabel, file.toStdString()}).at(1);
    }
  } catch (const std::exception& e) {
    unavailable_ = tr("No POP assessment: %1: %2").arg(failed, QString::fromStdString(e.what()));
    return;
  }

  const std::uint32_t comp = r.findMetric("comp");
  const std::uint32_t wait = largestWaitState(*run_);
  const std::uint32_t transfer = firstMetric(r, {"mpi_communication", "mpi"});
  const QString compName = displayName(r, comp);
  Row lb{tr("Load Balance"), 0, m.loadBalance,
         tr("How evenly the computation is spread: the average process computes %1 as long as the busiest; "
            "compare %2 per process in the system tree and the chart.")
             .arg(percent(m.loadBalance), compName),
         compName, comp};
  Row ser{tr("Serialisation Efficiency"), 0, m.serialisationEfficiency,
          wait == report::kNoId
              ? tr("The loss to processes waiting for each other (wait states); this run has no wait states.")
              : tr("The loss to processes waiting for each other (wait states); the largest wait state here is %1.")
                    .arg(displayName(r, wait)),
          displayName(r, wait), wait};
  Row trans{tr("Transfer Efficiency"), 0, m.transferEfficiency,
            tr("The loss to moving data even without waiting: MPI time that no wait state explains; see %1.")
                .arg(displayName(r, transfer)),
            displayName(r, transfer), transfer};
  Row comm = productOf(tr("Communication Efficiency"), m.communicationEfficiency,
                       tr("The share of the runtime the busiest process computes; the rest is MPI: Serialisation "
                          "× Transfer Efficiency, the larger loss being %1."),
                       ser, trans);
  Row pe = productOf(tr("Parallel Efficiency"), m.parallelEfficiency,
                     tr("The share of the runtime spent computing: Load Balance × Communication Efficiency, the "
                        "larger loss being %1."),
                     lb, comm);

  if (!m.computationScaling || !m.globalEfficiency) {
    pe.depth = 0, lb.depth = comm.depth = 1, ser.depth = trans.depth = 2;
    rows_ = {pe, lb, comm, ser, trans};
    return;
  }
  Row cs{tr("Computation Scaling"), 1, *m.computationScaling,
         tr("The reference run's total computation over this run's: below 100 % this run computes more in all "
            "(replicated work, worse cache use); compare %1 with the reference.")
             .arg(compName),
         compName, comp};
  Row ge = productOf(tr("Global Efficiency"), *m.globalEfficiency,
                     tr("The efficiency against the reference run: Parallel Efficiency × Computation Scaling, the "
                        "larger loss being %1."),
                     pe, cs);
  pe.depth = 1, lb.depth = comm.depth = 2, ser.depth = trans.depth = 3;
  rows_ = {ge, pe, lb, comm, ser, trans, cs};
}

int AssessmentModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int AssessmentModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant AssessmentModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  const Row& row = rows_[static_cast<std::size_t>(index.row())];
  switch (index.column()) {
    case NameColumn:
      if (role == Qt::DisplayRole) return QString(row.depth * 4, QLatin1Char(' ')) + row.name;
      break;
    case ValueColumn:
      if (role == Qt::DisplayRole) return percent(row.value);
      if (role == ValueRole) return row.value;
      if (role == Qt::BackgroundRole) return QBrush(popRatingColor(popRating(row.value)));
      if (role == Qt::ForegroundRole) return QBrush(Qt::black);
      if (role == Qt::TextAlignmentRole) return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
      break;
    case MeaningColumn:
      if (role == Qt::DisplayRole || role == Qt::ToolTipRole) return row.meaning;
      break;
    case LinkColumn:
      if (row.linkMetric == report::kNoId) break;
      if (role == Qt::DisplayRole) return tr("Show %1").arg(row.linkText);
      if (role == Qt::ToolTipRole) return tr("Select %1 in the metric tree").arg(row.linkText);
      if (role == Qt::ForegroundRole) return QBrush(QColor(0x1a, 0x5f, 0xb4));
      if (role == Qt::FontRole) {
        QFont font;
        font.setUnderline(true);
        return font;
      }
      break;
    default:
      break;
  }
  return {};
}

QVariant AssessmentModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case NameColumn: return tr("Efficiency");
    case ValueColumn: return tr("Value");
    case MeaningColumn: return tr("What it means");
    case LinkColumn: return tr("Where to look");
    default: return {};
  }
}

}  // namespace waitscope::views
