#pragma once
// Sorting by value and hiding small items, on top of a ValueTreeModel. Sorting
// is explicit (not dynamic) so rows do not jump while the user expands items.
#include <QSortFilterProxyModel>

namespace waitscope::views {

class TreeFilterProxy : public QSortFilterProxyModel {
  Q_OBJECT
 public:
  explicit TreeFilterProxy(QObject* parent = nullptr);
  // Hide items whose inclusive value is below `percent` of the tree's largest value (0: show all).
  void setThreshold(double percent);
  double threshold() const { return threshold_; }

 protected:
  bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

 private:
  double threshold_ = 0.0;
};

}  // namespace waitscope::views
