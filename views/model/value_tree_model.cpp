#include "views/model/value_tree_model.h"

#include <algorithm>
#include <cmath>

#include <QColor>
#include <QFont>

#include "views/model/color_scale.h"

namespace waitscope::views {
namespace {

// Differences read as changes: "+1.500 s", "−0.250 s" (the minus of the number itself).
QString signedText(double value, ValueMode mode, report::MetricUnit unit) {
  const QString text = formatValue(value, mode, unit);
  return value > 0.0 ? QStringLiteral("+") + text : text;
}

}  // namespace

ValueTreeModel::ValueTreeModel(QString title, QObject* parent) : QAbstractItemModel(parent), title_(std::move(title)) {}

void ValueTreeModel::setTree(const ValueTree* tree) {
  beginResetModel();
  tree_ = tree;
  const std::size_t n = tree ? tree->size() : 0;
  for (Values& values : sets_) {
    values.exclusive.assign(n, 0.0);
    values.inclusive.assign(n, 0.0);
    values.largest = 0.0;
    values.rootLargest.clear();
    values.references = {};
  }
  expanded_.assign(n, 0);
  presence_.clear();
  unavailable_.clear();
  updatePeerMaxima();
  endResetModel();
}

void ValueTreeModel::swapTree(const ValueTree* tree) {
  if (!tree_ || !tree || tree->size() != tree_->size()) return setTree(tree);
  tree_ = tree;
}

void ValueTreeModel::setCompared(bool compared) {
  if (compared == this->compared()) return;
  beginResetModel();
  sets_.assign(compared ? 3 : 1, Values{});
  const std::size_t n = tree_ ? tree_->size() : 0;
  for (Values& values : sets_) {
    values.exclusive.assign(n, 0.0);
    values.inclusive.assign(n, 0.0);
  }
  if (!compared) presence_.clear();
  updatePeerMaxima();
  endResetModel();
}

void ValueTreeModel::assign(Values& values, std::vector<double> exclusive, References references,
                            report::MetricUnit unit) {
  exclusive.resize(tree_->size(), 0.0);
  values.exclusive = std::move(exclusive);
  values.inclusive = tree_->inclusive(values.exclusive);
  values.references = references;
  values.largest = 0.0;
  values.rootLargest.assign(tree_->roots.size(), 0.0);
  for (std::uint32_t n = 0; n < values.inclusive.size(); ++n) {
    const double v = std::fabs(values.inclusive[n]);
    values.largest = std::max(values.largest, v);
    double& root = values.rootLargest[tree_->rowInParent[tree_->rootOf[n]]];
    root = std::max(root, v);
  }
  const bool unitChanged = unit != unit_;
  unit_ = unit;
  updatePeerMaxima();
  emitValuesChanged();
  if (unitChanged) emitHeaderChanged();
}

void ValueTreeModel::setValues(std::vector<double> exclusive, References references, report::MetricUnit unit) {
  if (!tree_) return;
  assign(sets_[compared() ? static_cast<std::size_t>(shownRun_) : 0], std::move(exclusive), references, unit);
}

void ValueTreeModel::setRunValues(CompareView run, std::vector<double> exclusive, References references,
                                  report::MetricUnit unit) {
  if (!tree_ || !compared()) return;
  assign(sets_[static_cast<std::size_t>(run)], std::move(exclusive), references, unit);
}

void ValueTreeModel::setShownRun(CompareView run) {
  if (run == shownRun_) return;
  shownRun_ = run;
  emitValuesChanged();
  emitHeaderChanged();
}

double ValueTreeModel::runValue(CompareView run, std::uint32_t node) const {
  return compared() ? shownIn(sets_[static_cast<std::size_t>(run)], node) : 0.0;
}

double ValueTreeModel::runInclusiveValue(CompareView run, std::uint32_t node) const {
  if (!compared()) return 0.0;
  const Values& values = sets_[static_cast<std::size_t>(run)];
  return node < values.inclusive.size() ? values.inclusive[node] : 0.0;
}

void ValueTreeModel::setRunFiles(QString fileA, QString fileB) {
  fileA_ = std::move(fileA);
  fileB_ = std::move(fileB);
  emitHeaderChanged();
}

void ValueTreeModel::setPresence(std::vector<report::Presence> presence) {
  presence_ = std::move(presence);
  if (tree_ && tree_->size() > 0) emitValuesChanged();
}

void ValueTreeModel::setUnavailable(std::vector<char> unavailable, QString reason) {
  if (std::find(unavailable.begin(), unavailable.end(), 1) == unavailable.end()) unavailable.clear();
  if (unavailable == unavailable_ && reason == unavailableReason_) return;
  unavailable_ = std::move(unavailable);
  unavailableReason_ = std::move(reason);
  if (tree_ && tree_->size() > 0) emitValuesChanged(NameColumn);
}

report::Presence ValueTreeModel::presence(std::uint32_t node) const {
  return node < presence_.size() ? presence_[node] : report::Presence::Both;
}

void ValueTreeModel::setNodeUnits(std::vector<report::MetricUnit> units) {
  nodeUnits_ = std::move(units);
  emitValuesChanged();
  emitHeaderChanged();
}

report::MetricUnit ValueTreeModel::unitOf(std::uint32_t node) const {
  return node < nodeUnits_.size() ? nodeUnits_[node] : unit_;
}

void ValueTreeModel::setMode(ValueMode mode) {
  if (mode == mode_) return;
  mode_ = mode;
  emitValuesChanged();
  emitHeaderChanged();
}

void ValueTreeModel::setExpanded(std::uint32_t node, bool expanded) {
  if (!tree_ || node >= expanded_.size() || bool(expanded_[node]) == expanded) return;
  expanded_[node] = expanded;
  updatePeerMaxima();
  if (mode_ == ValueMode::PeerPercent) {  // every peer's share may change
    emitValuesChanged();
    return;
  }
  emit dataChanged(indexOfNode(node, ValueColumn), indexOfNode(node, columnCount() - 1));
}

double ValueTreeModel::exclusiveValue(std::uint32_t node) const {
  const Values& values = shown();
  return node < values.exclusive.size() ? values.exclusive[node] : 0.0;
}

double ValueTreeModel::inclusiveValue(std::uint32_t node) const {
  const Values& values = shown();
  return node < values.inclusive.size() ? values.inclusive[node] : 0.0;
}

double ValueTreeModel::absoluteIn(const Values& values, std::uint32_t node) const {
  if (node >= values.inclusive.size()) return 0.0;
  return expanded_[node] && !tree_->children[node].empty() ? values.exclusive[node] : values.inclusive[node];
}

double ValueTreeModel::rootInclusive(const Values& values, std::uint32_t node) const {
  return values.inclusive[tree_->rootOf[node]];
}

double ValueTreeModel::largestIn(const Values& values, std::uint32_t node) const {
  if (!values.references.totalPerRoot || !tree_ || node >= tree_->size()) return values.largest;
  const std::uint32_t root = tree_->rowInParent[tree_->rootOf[node]];
  return root < values.rootLargest.size() ? values.rootLargest[root] : 0.0;
}

std::size_t ValueTreeModel::unitOfPeers(const Values& values, std::uint32_t node) const {
  return values.references.totalPerRoot ? tree_->rowInParent[tree_->rootOf[node]] : 0;
}

double ValueTreeModel::reference(const Values& shownValues, std::uint32_t node) const {
  // A difference is a change of run A: its percentages are of A's references.
  const bool difference = compared() && &shownValues == &sets_[static_cast<std::size_t>(CompareView::Difference)];
  const Values& values = difference ? sets_[static_cast<std::size_t>(CompareView::RunA)] : shownValues;
  const References& references = values.references;
  switch (mode_) {
    case ValueMode::Absolute: return 1.0;
    // The metric tree has no tree to its left: both references are its own root.
    case ValueMode::PercentOfTotal: return references.totalPerRoot ? rootInclusive(values, node) : references.total;
    case ValueMode::PercentOfSelection:
      return references.totalPerRoot ? rootInclusive(values, node) : references.selection;
    case ValueMode::PeerPercent: {
      const std::size_t unit = unitOfPeers(values, node);
      return unit < values.peerMax.size() && tree_->depth[node] < values.peerMax[unit].size()
                 ? values.peerMax[unit][tree_->depth[node]]
                 : 0.0;
    }
  }
  return 1.0;
}

double ValueTreeModel::colorShare(std::uint32_t node) const {
  const Values& values = shown();
  // A tree that mixes units (metrics) scales each item to its own root.
  double scale = largestIn(values, node);
  const double value = absoluteIn(values, node);
  if (compared() && shownRun_ == CompareView::Difference) {
    // Signed; below a root whose parts cancel out, the largest part saturates the colour.
    scale = std::max(scale, std::fabs(value));
    return scale > 0.0 ? value / scale : 0.0;
  }
  return scale > 0.0 ? std::fabs(value) / scale : 0.0;
}

double ValueTreeModel::shownIn(const Values& values, std::uint32_t node) const {
  const double value = absoluteIn(values, node);
  if (mode_ == ValueMode::Absolute) return value;
  const double ref = reference(values, node);
  return ref != 0.0 ? 100.0 * value / ref : 0.0;
}

void ValueTreeModel::updatePeerMaxima() {
  for (Values& values : sets_) {
    values.peerMax.clear();
    if (!tree_) continue;
    values.peerMax.resize(values.references.totalPerRoot ? tree_->roots.size() : 1);
    for (std::uint32_t n = 0; n < tree_->size(); ++n) {
      std::vector<double>& peers = values.peerMax[unitOfPeers(values, n)];
      const std::uint32_t d = tree_->depth[n];
      if (peers.size() <= d) peers.resize(d + 1, 0.0);
      peers[d] = std::max(peers[d], std::fabs(absoluteIn(values, n)));
    }
  }
}

void ValueTreeModel::emitValuesChanged(int firstColumn) {
  if (!tree_ || tree_->size() == 0) return;
  // One signal per group of siblings (dataChanged needs a common parent), and
  // only for groups a view can show: children of collapsed items are fetched
  // afresh when they are expanded. Large call trees refill in a few signals.
  // The name column changes too while comparing (marks of one run only) or
  // while some nodes have no value (grey names).
  const int first = presence_.empty() && unavailable_.empty() ? firstColumn : NameColumn;
  const int last = columnCount() - 1;
  if (!tree_->roots.empty())
    emit dataChanged(index(0, first), index(static_cast<int>(tree_->roots.size()) - 1, last));
  for (std::uint32_t n = 0; n < tree_->size(); ++n) {
    const auto& kids = tree_->children[n];
    if (kids.empty() || !expanded_[n]) continue;
    emit dataChanged(indexOfNode(kids.front(), first), indexOfNode(kids.back(), last));
  }
}

void ValueTreeModel::emitHeaderChanged() { emit headerDataChanged(Qt::Horizontal, ValueColumn, columnCount() - 1); }

QModelIndex ValueTreeModel::indexOfNode(std::uint32_t node, int column) const {
  if (!tree_ || node >= tree_->size()) return {};
  return createIndex(static_cast<int>(tree_->rowInParent[node]), column, static_cast<quintptr>(node));
}

std::uint32_t ValueTreeModel::nodeOf(const QModelIndex& index) {
  return index.isValid() ? static_cast<std::uint32_t>(index.internalId()) : kNoNode;
}

QModelIndex ValueTreeModel::index(int row, int column, const QModelIndex& parent) const {
  if (!tree_ || row < 0 || column < 0 || column >= columnCount()) return {};
  if (parent.isValid() && parent.column() != NameColumn) return {};
  const auto& siblings = parent.isValid() ? tree_->children[nodeOf(parent)] : tree_->roots;
  if (static_cast<std::size_t>(row) >= siblings.size()) return {};
  return createIndex(row, column, static_cast<quintptr>(siblings[static_cast<std::size_t>(row)]));
}

QModelIndex ValueTreeModel::parent(const QModelIndex& child) const {
  if (!tree_ || !child.isValid()) return {};
  const std::uint32_t p = tree_->parent[nodeOf(child)];
  return p == kNoNode ? QModelIndex() : indexOfNode(p, NameColumn);
}

int ValueTreeModel::rowCount(const QModelIndex& parent) const {
  if (!tree_) return 0;
  if (!parent.isValid()) return static_cast<int>(tree_->roots.size());
  if (parent.column() != NameColumn) return 0;
  return static_cast<int>(tree_->children[nodeOf(parent)].size());
}

int ValueTreeModel::columnCount(const QModelIndex&) const {
  return compared() ? int{CompareColumnCount} : int{ColumnCount};
}

const ValueTreeModel::Values* ValueTreeModel::setOfColumn(int column) const {
  const int set = column - ValueColumn;
  return set >= 0 && set < static_cast<int>(sets_.size()) ? &sets_[static_cast<std::size_t>(set)] : nullptr;
}

QString ValueTreeModel::valueText(int column, std::uint32_t node) const {
  const Values* values = setOfColumn(column);
  if (!values) return {};
  const double value = shownIn(*values, node);
  return compared() && column == DifferenceColumn ? signedText(value, mode_, unitOf(node))
                                                  : formatValue(value, mode_, unitOf(node));
}

QString ValueTreeModel::nameSuffix(std::uint32_t node) const {
  switch (presence(node)) {
    case report::Presence::OnlyA: return tr(" (only in A)");
    case report::Presence::OnlyB: return tr(" (only in B)");
    case report::Presence::Both: break;
  }
  return {};
}

QVariant ValueTreeModel::data(const QModelIndex& index, int role) const {
  if (!tree_ || !checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
  const std::uint32_t node = nodeOf(index);
  const bool name = index.column() == NameColumn;
  switch (role) {
    case Qt::DisplayRole:
      if (name) return tree_->names[node] + nameSuffix(node);
      return available(node) ? valueText(index.column(), node) : tr("n/a");
    case Qt::DecorationRole:
      if (index.column() != shownColumn() || !available(node)) return {};
      return compared() && shownRun_ == CompareView::Difference ? differenceColor(colorShare(node))
                                                                 : severityColor(colorShare(node));
    case Qt::ForegroundRole: {
      if (!available(node)) return QColor(Qt::gray);
      // B − A in blue where B is smaller, red where it is larger, like its colour box.
      if (!compared() || index.column() != DifferenceColumn) return {};
      const double value = absoluteIn(sets_[static_cast<std::size_t>(CompareView::Difference)], node);
      if (value == 0.0) return {};
      return value < 0.0 ? QColor(0x1f, 0x5f, 0xbf) : QColor(0xc0, 0x20, 0x20);
    }
    case Qt::FontRole: {
      if (!name || presence(node) == report::Presence::Both) return {};
      QFont font;
      font.setItalic(true);
      return font;
    }
    case Qt::ToolTipRole: {
      if (!available(node))
        return tree_->toolTips[node].isEmpty() || !name ? unavailableReason_
                                                        : tree_->toolTips[node] + QStringLiteral("<br>") + unavailableReason_;
      if (compared() && !name) {  // all three, also where narrow panes show only one column
        QStringList runs;
        for (const CompareView run : kCompareViews)
          runs << QStringLiteral("%1: %2").arg(compareViewShort(run), valueText(columnOf(run), node));
        return runs.join(QStringLiteral(" · "));
      }
      QString tip = tree_->toolTips[node];
      if (name && presence(node) != report::Presence::Both) {
        const bool onlyA = presence(node) == report::Presence::OnlyA;
        const QString only = onlyA ? tr("Only in run A (%1): run B never called it here; B's values are 0.").arg(fileA_)
                                   : tr("Only in run B (%1): run A never called it here; A's values are 0.").arg(fileB_);
        tip = tip.isEmpty() ? only : tip + QStringLiteral("<br>") + only;
      }
      return tip.isEmpty() ? QVariant() : QVariant(tip);
    }
    case Qt::TextAlignmentRole: return name ? QVariant() : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case NodeRole: return QVariant::fromValue<quint32>(node);
    case ShownValueRole: return shownValue(node);
    case AbsoluteValueRole: return absoluteValue(node);
    case InclusiveValueRole: return inclusiveValue(node);
    default: return {};
  }
}

QString ValueTreeModel::headerUnit(bool csv) const {
  if (mode_ != ValueMode::Absolute) return QStringLiteral("%");
  if (!nodeUnits_.empty()) return {};  // the metric tree: each item in its own unit
  // The cells of times and bytes carry their unit, scaled to each value ("4.77 ms", "1.50 KiB");
  // counts carry none. The CSV file keeps unscaled seconds, bytes and counts and says so.
  if (csv || unit_ == report::MetricUnit::Occurrences) return unitName(unit_);
  return {};
}

QString ValueTreeModel::csvHeader(int section) const {
  if (section == NameColumn) return title_;
  const QString unit = headerUnit(true);
  const QString name = compared() ? compareViewShort(static_cast<CompareView>(std::max(section - RunAColumn, 0)))
                                  : QStringLiteral("Value");
  return unit.isEmpty() ? name : QStringLiteral("%1 (%2)").arg(name, unit);
}

QVariant ValueTreeModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || section < 0 || section >= columnCount()) return {};
  const QString unit = headerUnit(false);
  if (!compared()) {
    if (role != Qt::DisplayRole) return {};
    if (section == NameColumn) return title_;
    if (mode_ != ValueMode::Absolute) return QStringLiteral("Value (%1)").arg(modeName(mode_).toLower());
    return unit.isEmpty() ? QStringLiteral("Value") : QStringLiteral("Value (%1)").arg(unit);
  }
  // Comparing: short headers ("B − A", "B − A (%)") that fit narrow panes; the shown run's is bold.
  const CompareView run = static_cast<CompareView>(std::max(section - RunAColumn, 0));
  switch (role) {
    case Qt::DisplayRole:
      if (section == NameColumn) return title_;
      return unit.isEmpty() ? compareViewShort(run) : QStringLiteral("%1 (%2)").arg(compareViewShort(run), unit);
    case Qt::FontRole: {
      if (section != shownColumn()) return {};
      QFont font;
      font.setBold(true);
      return font;
    }
    case Qt::ToolTipRole: {
      if (section == NameColumn) return {};
      const QString file = run == CompareView::RunA ? fileA_ : run == CompareView::RunB ? fileB_ : QString();
      QString tip = compareViewName(run) + (file.isEmpty() ? QString() : QStringLiteral(": ") + file);
      if (mode_ != ValueMode::Absolute)
        tip += QStringLiteral(" · ") + modeName(mode_) +
               (run == CompareView::Difference ? tr(" (of run A's reference)") : QString());
      return tip;
    }
    default: return {};
  }
}

}  // namespace waitscope::views
