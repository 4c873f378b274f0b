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

bool TreeFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
  if (threshold_ <= 0.0) return true;
  const auto* model = qobject_cast<const ValueTreeModel*>(sourceModel());
  if (!model) return true;
  const QModelIndex index = model->index(sourceRow, 0, sourceParent);
  const double value = std::fabs(model->inclusiveValue(ValueTreeModel::nodeOf(index)));
  return value >= threshold_ / 100.0 * model->largestValue();
}

}  // namespace waitscope::views
