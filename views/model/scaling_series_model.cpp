#include "views/model/scaling_series_model.h"

#include <algorithm>
#include <array>

#include <QBrush>

#include "views/model/number_format.h"
#include "views/model/pop_rating.h"

namespace waitscope::views {
namespace {

struct ColumnText {
  const char* header;  // as the table shows it, on two lines where it is wide
  const char* name;    // on one line
  const char* csv;     // the CSV column, with its unit
};

constexpr std::array<ColumnText, ScalingSeriesModel::ColumnCount> kColumns = {{
    {"Run", "Run", "run"},
    {"Processes", "Processes", "processes"},
    {"Runtime", "Runtime", "runtime_s"},  // the unit is in every cell (formatSeconds)
    {"Speed-up", "Speed-up", "speedup"},
    {"Scaling\nefficiency", "Scaling efficiency", "scaling_efficiency_percent"},
    {"Parallel\nefficiency", "Parallel efficiency", "parallel_efficiency_percent"},
    {"Load\nbalance", "Load balance", "load_balance_percent"},
    {"Communication\nefficiency", "Communication efficiency", "communication_efficiency_percent"},
    {"Serialisation\nefficiency", "Serialisation efficiency", "serialisation_efficiency_percent"},
    {"Transfer\nefficiency", "Transfer efficiency", "transfer_efficiency_percent"},
    {"Computation\nscaling", "Computation scaling", "computation_scaling_percent"},
    {"Global\nefficiency", "Global efficiency", "global_efficiency_percent"},
}};

QString csvField(const QString& text) {
  if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')) && !text.contains(QLatin1Char('\n')))
    return text;
  return QLatin1Char('"') + QString(text).replace(QLatin1Char('"'), QStringLiteral("\"\"")) + QLatin1Char('"');
}

}  // namespace

ScalingSeriesModel::ScalingSeriesModel(QObject* parent) : QAbstractTableModel(parent) {}

void ScalingSeriesModel::setRuns(std::vector<SeriesRun> runs) {
  beginResetModel();
  metrics_.clear();
  errors_.clear();
  std::vector<std::pair<SeriesRun, std::uint32_t>> usable;  // with its process count
  for (SeriesRun& run : runs) {
    try {
      const report::PopMetrics alone = report::popMetrics(run.data->report(), run.label.toStdString());
      usable.emplace_back(std::move(run), alone.processes);
    } catch (const std::exception& e) {
      errors_ << tr("%1: left out of the series: %2").arg(run.data->path(), QString::fromStdString(e.what()));
    }
  }
  std::stable_sort(usable.begin(), usable.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
  std::vector<const report::Report*> reports;
  std::vector<std::string> labels;
  for (const auto& [run, processes] : usable) {
    reports.push_back(&run.data->report());
    labels.push_back(run.label.toStdString());
  }
  if (!reports.empty()) {
    metrics_ = report::popSeries(reports, labels);
    report::PopMetrics& reference = metrics_.front();
    reference.speedup = reference.speedup.value_or(1.0);
    reference.scalingEfficiency = reference.scalingEfficiency.value_or(1.0);
    reference.computationScaling = reference.computationScaling.value_or(1.0);
    reference.globalEfficiency = reference.globalEfficiency.value_or(reference.parallelEfficiency);
  }
  endResetModel();
}

double ScalingSeriesModel::value(const report::PopMetrics& run, int column) {
  switch (column) {
    case ProcessesColumn: return run.processes;
    case RuntimeColumn: return run.runtime;
    case SpeedupColumn: return run.speedup.value_or(0.0);
    case ScalingEfficiencyColumn: return run.scalingEfficiency.value_or(0.0);
    case ParallelEfficiencyColumn: return run.parallelEfficiency;
    case LoadBalanceColumn: return run.loadBalance;
    case CommunicationEfficiencyColumn: return run.communicationEfficiency;
    case SerialisationEfficiencyColumn: return run.serialisationEfficiency;
    case TransferEfficiencyColumn: return run.transferEfficiency;
    case ComputationScalingColumn: return run.computationScaling.value_or(0.0);
    case GlobalEfficiencyColumn: return run.globalEfficiency.value_or(0.0);
    default: return 0.0;
  }
}

QString ScalingSeriesModel::columnName(int column) {
  return column >= 0 && column < ColumnCount ? tr(kColumns[static_cast<std::size_t>(column)].name) : QString();
}

QString ScalingSeriesModel::toCsv() const {
  QStringList header;
  for (const ColumnText& c : kColumns) header << QString::fromLatin1(c.csv);
  QString out = header.join(QLatin1Char(',')) + QLatin1Char('\n');
  for (const report::PopMetrics& run : metrics_) {
    QStringList fields{csvField(QString::fromStdString(run.label)), QString::number(run.processes)};
    for (int column = RuntimeColumn; column < ColumnCount; ++column) {
      const double v = value(run, column);
      fields << QString::number(isEfficiency(column) ? v * 100.0 : v, 'g', 15);
    }
    out += fields.join(QLatin1Char(',')) + QLatin1Char('\n');
  }
  return out;
}

int ScalingSeriesModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(metrics_.size());
}

int ScalingSeriesModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant ScalingSeriesModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  const report::PopMetrics& run = metrics_[static_cast<std::size_t>(index.row())];
  const int column = index.column();
  if (column == RunColumn) {
    if (role == Qt::DisplayRole)
      return index.row() == 0 ? tr("%1 (reference)").arg(QString::fromStdString(run.label))
                              : QString::fromStdString(run.label);
    if (role == ValueRole) return QString::fromStdString(run.label);
    return {};
  }
  const double v = value(run, column);
  switch (role) {
    case Qt::DisplayRole:
      if (column == ProcessesColumn) return formatCount(run.processes);
      if (column == RuntimeColumn) return formatSeconds(v);
      if (column == SpeedupColumn) return formatDecimal(v, 2);
      return formatDecimal(v * 100.0, 1) + QStringLiteral(" %");
    case ValueRole:
      return v;
    case Qt::TextAlignmentRole:
      return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::BackgroundRole:
      if (isEfficiency(column)) return QBrush(popRatingColor(popRating(v)));
      return {};
    case Qt::ForegroundRole:
      if (isEfficiency(column)) return QBrush(Qt::black);
      return {};
    default:
      return {};
  }
}

QVariant ScalingSeriesModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount) return {};
  if (role == Qt::DisplayRole) return tr(kColumns[static_cast<std::size_t>(section)].header);
  if (role == Qt::ToolTipRole) return columnName(section);
  return {};
}

}  // namespace waitscope::views
