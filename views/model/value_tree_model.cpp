#include "views/model/value_tree_model.h"

#include <algorithm>
#include <cmath>

#include "views/model/color_scale.h"

namespace waitscope::views {

ValueTreeModel::ValueTreeModel(QString title, QObject* parent) : QAbstractItemModel(parent), title_(std::move(title)) {}

void ValueTreeModel::setTree(const ValueTree* tree) {
  beginResetModel();
  tree_ = tree;
  const std::size_t n = tree ? tree->size() : 0;
  exclusive_.assign(n, 0.0);
  inclusive_.assign(n, 0.0);
  expanded_.assign(n, 0);
  largest_ = 0.0;
  references_ = {};
  updatePeerMaxima();
  endResetModel();
}

void ValueTreeModel::swapTree(const ValueTree* tree) {
  if (!tree_ || !tree || tree->size() != tree_->size()) return setTree(tree);
  tree_ = tree;
}

void ValueTreeModel::setValues(std::vector<double> exclusive, References references, report::MetricUnit unit) {
  if (!tree_) return;
  exclusive.resize(tree_->size(), 0.0);
  exclusive_ = std::move(exclusive);
  inclusive_ = tree_->inclusive(exclusive_);
  references_ = references;
  const bool unitChanged = unit != unit_;
  unit_ = unit;
  largest_ = 0.0;
  for (const double v : inclusive_) largest_ = std::max(largest_, std::fabs(v));
  updatePeerMaxima();
  emitValuesChanged();
  if (unitChanged) emit headerDataChanged(Qt::Horizontal, ValueColumn, ValueColumn);
}

void ValueTreeModel::setNodeUnits(std::vector<report::MetricUnit> units) {
  nodeUnits_ = std::move(units);
  emitValuesChanged();
  emit headerDataChanged(Qt::Horizontal, ValueColumn, ValueColumn);
}

report::MetricUnit ValueTreeModel::unitOf(std::uint32_t node) const {
  return node < nodeUnits_.size() ? nodeUnits_[node] : unit_;
}

void ValueTreeModel::setMode(ValueMode mode) {
  if (mode == mode_) return;
  mode_ = mode;
  emitValuesChanged();
  emit headerDataChanged(Qt::Horizontal, ValueColumn, ValueColumn);
}

void ValueTreeModel::setExpanded(std::uint32_t node, bool expanded) {
  if (!tree_ || node >= expanded_.size() || bool(expanded_[node]) == expanded) return;
  expanded_[node] = expanded;
  updatePeerMaxima();
  if (mode_ == ValueMode::PeerPercent) {  // every peer's share may change
    emitValuesChanged();
    return;
  }
  const QModelIndex changed = indexOfNode(node, ValueColumn);
  emit dataChanged(changed, changed);
}

double ValueTreeModel::absoluteValue(std::uint32_t node) const {
  if (node >= inclusive_.size()) return 0.0;
  return expanded_[node] && !tree_->children[node].empty() ? exclusive_[node] : inclusive_[node];
}

double ValueTreeModel::rootInclusive(std::uint32_t node) const {
  while (tree_->parent[node] != kNoNode) node = tree_->parent[node];
  return inclusive_[node];
}

double ValueTreeModel::reference(std::uint32_t node) const {
  switch (mode_) {
    case ValueMode::Absolute: return 1.0;
    // The metric tree has no tree to its left: both references are its own root.
    case ValueMode::PercentOfTotal: return references_.totalPerRoot ? rootInclusive(node) : references_.total;
    case ValueMode::PercentOfSelection:
      return references_.totalPerRoot ? rootInclusive(node) : references_.selection;
    case ValueMode::PeerPercent: return peerMax_[tree_->depth[node]];
  }
  return 1.0;
}

double ValueTreeModel::colorShare(std::uint32_t node) const {
  // A tree that mixes units (metrics) scales each item to its own root.
  const double scale = references_.totalPerRoot ? std::fabs(rootInclusive(node)) : largest_;
  return scale > 0.0 ? std::fabs(absoluteValue(node)) / scale : 0.0;
}

double ValueTreeModel::shownValue(std::uint32_t node) const {
  const double value = absoluteValue(node);
  if (mode_ == ValueMode::Absolute) return value;
  const double ref = reference(node);
  return ref != 0.0 ? 100.0 * value / ref : 0.0;
}

void ValueTreeModel::updatePeerMaxima() {
  peerMax_.clear();
  if (!tree_) return;
  for (std::uint32_t n = 0; n < tree_->size(); ++n) {
    const std::uint32_t d = tree_->depth[n];
    if (peerMax_.size() <= d) peerMax_.resize(d + 1, 0.0);
    peerMax_[d] = std::max(peerMax_[d], std::fabs(absoluteValue(n)));
  }
}

void ValueTreeModel::emitValuesChanged() {
  if (!tree_ || tree_->size() == 0) return;
  // One signal per group of siblings (dataChanged needs a common parent), and
  // only for groups a view can show: children of collapsed items are fetched
  // afresh when they are expanded. Large call trees refill in a few signals.
  if (!tree_->roots.empty())
    emit dataChanged(index(0, ValueColumn), index(static_cast<int>(tree_->roots.size()) - 1, ValueColumn));
  for (std::uint32_t n = 0; n < tree_->size(); ++n) {
    const auto& kids = tree_->children[n];
    if (kids.empty() || !expanded_[n]) continue;
    emit dataChanged(indexOfNode(kids.front(), ValueColumn), indexOfNode(kids.back(), ValueColumn));
  }
}

QModelIndex ValueTreeModel::indexOfNode(std::uint32_t node, int column) const {
  if (!tree_ || node >= tree_->size()) return {};
  return createIndex(static_cast<int>(tree_->rowInParent[node]), column, static_cast<quintptr>(node));
}

std::uint32_t ValueTreeModel::nodeOf(const QModelIndex& index) {
  return index.isValid() ? static_cast<std::uint32_t>(index.internalId()) : kNoNode;
}

QModelIndex ValueTreeModel::index(int row, int column, const QModelIndex& parent) const {
  if (!tree_ || row < 0 || column < 0 || column >= ColumnCount) return {};
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

int ValueTreeModel::columnCount(const QModelIndex&) const { return ColumnCount; }

QVariant ValueTreeModel::data(const QModelIndex& index, int role) const {
  if (!tree_ || !checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
  const std::uint32_t node = nodeOf(index);
  switch (role) {
    case Qt::DisplayRole:
      if (index.column() == NameColumn) return tree_->names[node];
      return formatValue(shownValue(node), mode_, unitOf(node));
    case Qt::DecorationRole:
      if (index.column() != ValueColumn) return {};
      return severityColor(colorShare(node));
    case Qt::ToolTipRole: return tree_->toolTips[node].isEmpty() ? QVariant() : QVariant(tree_->toolTips[node]);
    case Qt::TextAlignmentRole:
      return index.column() == ValueColumn ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    case NodeRole: return QVariant::fromValue<quint32>(node);
    case ShownValueRole: return shownValue(node);
    case AbsoluteValueRole: return absoluteValue(node);
    case InclusiveValueRole: return inclusiveValue(node);
    default: return {};
  }
}

QVariant ValueTreeModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  if (section == NameColumn) return title_;
  if (section != ValueColumn) return {};
  if (mode_ != ValueMode::Absolute) return QStringLiteral("Value (%1)").arg(modeName(mode_).toLower());
  return nodeUnits_.empty() ? QStringLiteral("Value (%1)").arg(unitName(unit_)) : QStringLiteral("Value");
}

}  // namespace waitscope::views
