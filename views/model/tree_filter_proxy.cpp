#include "views/model/tree_filter_proxy.h"

#include <cmath>

#include "views/model/value_tree_model.h"

namespace waitscope::views {

TreeFilterProxy::TreeFilterProxy(QObject* parent) : QSortFilterProxyModel(parent) {
  setDynamicSortFilter(false);
  setSortRole(ValueTreeModel::InclusiveValueRole);
}

void TreeFilterProxy::setThreshold(double percent) {
  if (percent == threshold_) return;
  threshold_ = percent;
  invalidateFilter();
}

void TreeFilterProxy::setHideZeros(bool hide) {
  if (hide == hideZeros_) return;
  hideZeros_ = hide;
  invalidateFilter();
}

bool TreeFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
  if (threshold_ <= 0.0 && !hideZeros_) return true;
  const auto* model = qobject_cast<const ValueTreeModel*>(sourceModel());
  if (!model) return true;
  const std::uint32_t node = ValueTreeModel::nodeOf(model->index(sourceRow, 0, sourceParent));
  if (hideZeros_) {
    bool zero = model->inclusiveValue(node) == 0.0;
    if (model->compared())  // a call only one run made is no zero
      for (const CompareView run : kCompareViews) zero = zero && model->runInclusiveValue(run, node) == 0.0;
    if (zero) return false;
  }
  if (threshold_ <= 0.0) return true;
  const double value = std::fabs(model->inclusiveValue(node));
  return value >= threshold_ / 100.0 * model->largestOfUnit(node);
}

bool TreeFilterProxy::lessThan(const QModelIndex& left, const QModelIndex& right) const {
  const auto* model = qobject_cast<const ValueTreeModel*>(sourceModel());
  if (model && model->rootsAreUnits() && !left.parent().isValid() && !right.parent().isValid())
    return sortOrder() == Qt::AscendingOrder ? left.row() < right.row() : right.row() < left.row();
  return QSortFilterProxyModel::lessThan(left, right);
}

}  // namespace waitscope::views
