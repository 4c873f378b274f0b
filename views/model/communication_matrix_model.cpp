#include "views/model/communication_matrix_model.h"

#include <algorithm>

#include <QStringList>

#include "analysis/metrics/metric_table.h"
#include "views/model/color_scale.h"
#include "views/model/number_format.h"

namespace waitscope::views {

using timeline::MatrixQuantity;

namespace {

QString csvField(const QString& s) {
  if (!s.contains(QLatin1Char(',')) && !s.contains(QLatin1Char('"')) && !s.contains(QLatin1Char('\n'))) return s;
  QString q = s;
  q.replace(QLatin1Char('"'), QStringLiteral("\"\""));
  return QLatin1Char('"') + q + QLatin1Char('"');
}

}  // namespace

CommunicationMatrixModel::CommunicationMatrixModel(Selection* selection, QObject* parent)
    : QAbstractTableModel(parent), selection_(selection) {
  connect(selection_, &Selection::reportChanged, this, [this] {
    source_.reset();  // another report: its own timeline follows
    recompute();
  });
  for (auto changed : {&Selection::reportUpdated, &Selection::metricsChanged, &Selection::callPathsChanged,
                       &Selection::timeFilterChanged})
    connect(selection_, changed, this, &CommunicationMatrixModel::recompute);
}

const timeline::TimelineIndex* CommunicationMatrixModel::timelineIndex() const {
  const auto* local = dynamic_cast<const timeline::LocalSliceSource*>(source_.get());
  const ReportDataPtr& whole = selection_->wholeReport();
  if (!local || !whole || local->index().locations.size() != whole->report().locations.size()) return nullptr;
  return &local->index();
}

void CommunicationMatrixModel::setSource(std::shared_ptr<timeline::SliceSource> source) {
  source_ = std::move(source);
  recompute();
}

void CommunicationMatrixModel::setQuantity(MatrixQuantity quantity) {
  if (quantity == quantity_) return;
  quantity_ = quantity;
  recompute();
}

void CommunicationMatrixModel::setKinds(bool pointToPoint, bool rma) {
  if (pointToPoint == pointToPoint_ && rma == rma_) return;
  pointToPoint_ = pointToPoint;
  rma_ = rma;
  recompute();
}

bool CommunicationMatrixModel::waitingPicks(std::vector<char>* metricMask, std::vector<char>* callPathMask) const {
  const ReportDataPtr& whole = selection_->wholeReport();
  if (!whole) return false;
  const report::Report& r = whole->report();
  // The metric picks count where they pick a pattern whose instances name their cause.
  std::vector<char> m = whole->metricMask(selection_->metrics());
  bool anyPattern = false;
  for (std::size_t i = 0; i < m.size() && i < r.metrics.size(); ++i) {
    if (!m[i]) continue;
    for (const metrics::MetricDefinition& d : metrics::metricTable())
      if (d.uniqueName == r.metrics[i].uniqueName && metrics::waitFamily(d.id) != metrics::WaitFamily::None)
        anyPattern = true;
  }
  if (anyPattern) *metricMask = std::move(m);
  std::vector<char> c = selection_->flatProfile() ? whole->callPathMaskOfRegions(selection_->callPaths())
                                                  : whole->callPathMask(selection_->callPaths());
  if (std::find(c.begin(), c.end(), 1) != c.end()) *callPathMask = std::move(c);
  return anyPattern;
}

void CommunicationMatrixModel::recompute() {
  beginResetModel();
  const timeline::TimelineIndex* idx = timelineIndex();
  if (!idx) {
    matrix_ = timeline::CommunicationMatrix();
    size_ = 0;
  } else {
    timeline::MatrixFilter filter;
    if (selection_->hasTimeFilter()) {
      filter.from = selection_->filterStart();
      filter.to = selection_->filterEnd();
    }
    filter.pointToPoint = pointToPoint_;
    filter.rma = rma_;
    waitingPicks(&filter.metrics, &filter.callPaths);
    matrix_ = timeline::communicationMatrix(*idx, selection_->wholeReport()->report(), filter);
    size_ = static_cast<int>(matrix_.size());
  }
  endResetModel();
}

QString CommunicationMatrixModel::quantityTitle() const {
  switch (quantity_) {
    case MatrixQuantity::Count: return tr("Messages and transfers (count)");
    case MatrixQuantity::Bytes: return tr("Bytes (bytes)");
    case MatrixQuantity::WaitingTime: return tr("Waiting time (s)");
  }
  return {};
}

QString CommunicationMatrixModel::description() const {
  QStringList kinds;
  if (pointToPoint_) kinds << tr("point-to-point");
  if (rma_) kinds << tr("RMA");
  QString line = tr("quantity: %1; kinds: %2; %3")
                     .arg(quantityTitle(), kinds.isEmpty() ? tr("none") : kinds.join(QStringLiteral(", ")),
                          quantity_ == MatrixQuantity::WaitingTime
                              ? tr("rows: the rank that caused the waiting, columns: the rank that waited")
                              : tr("rows: sender, columns: receiver"));
  line += selection_->hasTimeFilter() ? tr("; window: %1 s to %2 s")
                                             .arg(selection_->filterStart(), 0, 'g', 17)
                                             .arg(selection_->filterEnd(), 0, 'g', 17)
                                       : tr("; window: whole run");
  std::vector<char> metricMask, callPathMask;
  if (quantity_ == MatrixQuantity::WaitingTime && waitingPicks(&metricMask, &callPathMask)) {
    const report::Report& r = selection_->wholeReport()->report();
    QStringList names;
    for (const TreePick& p : selection_->metrics())
      if (p.node < r.metrics.size()) names << QString::fromStdString(r.metrics[p.node].displayName);
    line += tr("; metric: %1").arg(names.join(QStringLiteral(" + ")));
  }
  if (quantity_ == MatrixQuantity::WaitingTime && !callPathMask.empty())
    line += tr("; call paths: %1 picked").arg(selection_->callPaths().size());
  return line;
}

QString CommunicationMatrixModel::locationName(int location) const {
  const ReportDataPtr& whole = selection_->wholeReport();
  if (!whole || location >= static_cast<int>(whole->report().locations.size())) return {};
  return tr("Rank %1").arg(whole->report().locations[static_cast<std::size_t>(location)].rank);
}

QString CommunicationMatrixModel::formatted(double value) const {
  switch (quantity_) {
    case MatrixQuantity::Count: return formatCount(value);
    case MatrixQuantity::Bytes: return formatQuantity(value, report::MetricUnit::Bytes);
    case MatrixQuantity::WaitingTime: return formatSeconds(value);
  }
  return {};
}

QString CommunicationMatrixModel::toCsv() const {
  QString out = QStringLiteral("# ") + description() + QLatin1Char('\n');
  out += QStringLiteral("sender\\receiver");
  for (int c = 0; c < size_; ++c) out += QLatin1Char(',') + csvField(locationName(c));
  out += QLatin1Char('\n');
  for (int r = 0; r < size_; ++r) {
    out += csvField(locationName(r));
    for (int c = 0; c < size_; ++c)
      out += QLatin1Char(',') +
             QString::number(matrix_.value(quantity_, static_cast<std::uint32_t>(r), static_cast<std::uint32_t>(c)),
                             'g', 17);
    out += QLatin1Char('\n');
  }
  return out;
}

int CommunicationMatrixModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : size_; }
int CommunicationMatrixModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : size_; }

QVariant CommunicationMatrixModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= size_ || index.column() >= size_) return {};
  const double v =
      matrix_.value(quantity_, static_cast<std::uint32_t>(index.row()), static_cast<std::uint32_t>(index.column()));
  const double largest = matrix_.largest(quantity_);
  const double share = largest > 0.0 ? v / largest : 0.0;
  switch (role) {
    case Qt::DisplayRole: return v == 0.0 ? QString() : formatted(v);
    case Qt::BackgroundRole: return v == 0.0 ? QVariant() : QVariant(severityColor(share));
    case Qt::ForegroundRole:  // readable on every colour of the scale
      if (v == 0.0) return {};
      {
        const QColor c = severityColor(share);
        return QColor(0.299 * c.redF() + 0.587 * c.greenF() + 0.114 * c.blueF() < 0.55 ? Qt::white : Qt::black);
      }
    case Qt::TextAlignmentRole: return int(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ToolTipRole:
      return tr("%1 → %2: %3").arg(locationName(index.row()), locationName(index.column()), formatted(v));
    case ValueRole: return v;
    case ShareRole: return share;
    default: return {};
  }
}

QVariant CommunicationMatrixModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (section < 0 || section >= size_) return {};
  if (role == Qt::DisplayRole) return locationName(section);
  if (role == Qt::ToolTipRole)
    return orientation == Qt::Vertical ? tr("sent by %1").arg(locationName(section))
                                       : tr("received by %1").arg(locationName(section));
  return {};
}

}  // namespace waitscope::views
