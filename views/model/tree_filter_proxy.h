#pragma once
// Sorting by value and hiding small items, on top of a ValueTreeModel. Sorting
// is explicit (not dynamic) so rows do not jump while the user expands items.
#include <QSortFilterProxyModel>

namespace waitscope::views {

class TreeFilterProxy : public QSortFilterProxyModel {
  Q_OBJECT
 public:
  explicit TreeFilterProxy(QObject* parent = nullptr);
  // Hide items whose inclusive value is below `percent` of the largest value of their unit
  // (ValueTreeModel::largestOfUnit: their root's in the metric tree, else the tree's; 0: show all).
  void setThreshold(double percent);
  double threshold() const { return threshold_; }
  // Hide items that are 0 in every value column (the flat profile lists what was measured).
  void setHideZeros(bool hide);
  bool hidesZeros() const { return hideZeros_; }

 protected:
  bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;
  // Roots that are units of their own (metrics) keep their order: seconds and visits do not compare.
  bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;

 private:
  double threshold_ = 0.0;
  bool hideZeros_ = false;
};

}  // namespace waitscope::views
