#pragma once
// One browser tree (metrics, call paths, regions or system) as a Qt item model:
// column 0 the name, column 1 the value in the current mode with Cube's colour
// box. The view tells the model which items are expanded, because a collapsed
// item shows its inclusive value and an expanded one its exclusive value.
#include <cstdint>
#include <vector>

#include <QAbstractItemModel>

#include "views/model/report_data.h"
#include "views/model/value_mode.h"

namespace waitscope::views {

class ValueTreeModel : public QAbstractItemModel {
  Q_OBJECT
 public:
  enum Column { NameColumn = 0, ValueColumn = 1, ColumnCount = 2 };
  enum Role {
    NodeRole = Qt::UserRole + 1,  // the node number (quint32)
    ShownValueRole,               // the number shown, in the current mode (double)
    AbsoluteValueRole,            // the shown item's absolute value: inclusive or exclusive (double)
    InclusiveValueRole,           // the absolute inclusive value (double; sorting, thresholds, hot path)
  };

  // The references of the percentage modes.
  struct References {
    double total = 0.0;       // 100% of "percent of total"
    double selection = 0.0;   // 100% of "percent of selection"
    bool totalPerRoot = false;  // metric tree: every item relative to its own root's inclusive value
  };

  explicit ValueTreeModel(QString title, QObject* parent = nullptr);

  // A new tree shape (nullptr: empty). The tree must outlive its use by the model.
  void setTree(const ValueTree* tree);
  const ValueTree* tree() const { return tree_; }
  // Another tree of the same shape (sameShape, tree_matching.h), e.g. the next snapshot of a
  // live run: no reset, so views keep their expansion, selection and scroll position. The
  // values stay until setValues.
  void swapTree(const ValueTree* tree);
  // New exclusive values (indexed by node) and references; the shape stays.
  void setValues(std::vector<double> exclusive, References references, report::MetricUnit unit);
  // Per-node units for a tree that mixes them (the metric tree); empty: one unit for all.
  void setNodeUnits(std::vector<report::MetricUnit> units);
  report::MetricUnit unitOf(std::uint32_t node) const;
  void setMode(ValueMode mode);
  ValueMode mode() const { return mode_; }
  void setExpanded(std::uint32_t node, bool expanded);
  bool isExpanded(std::uint32_t node) const { return node < expanded_.size() && expanded_[node]; }

  double exclusiveValue(std::uint32_t node) const { return node < exclusive_.size() ? exclusive_[node] : 0.0; }
  double inclusiveValue(std::uint32_t node) const { return node < inclusive_.size() ? inclusive_[node] : 0.0; }
  // What the item shows, absolute (inclusive when collapsed, exclusive when expanded) and in the mode.
  double absoluteValue(std::uint32_t node) const;
  double shownValue(std::uint32_t node) const;
  // Share of the largest value in [0, 1], for the colour box.
  double colorShare(std::uint32_t node) const;
  double largestValue() const { return largest_; }
  report::MetricUnit unit() const { return unit_; }

  QModelIndex indexOfNode(std::uint32_t node, int column = NameColumn) const;
  static std::uint32_t nodeOf(const QModelIndex& index);

  QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
  QModelIndex parent(const QModelIndex& child) const override;
  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  double reference(std::uint32_t node) const;
  double rootInclusive(std::uint32_t node) const;
  void updatePeerMaxima();
  void emitValuesChanged();

  QString title_;
  const ValueTree* tree_ = nullptr;
  std::vector<double> exclusive_, inclusive_;
  std::vector<char> expanded_;
  std::vector<double> peerMax_;  // per depth: largest shown absolute value
  References references_;
  report::MetricUnit unit_ = report::MetricUnit::Seconds;
  std::vector<report::MetricUnit> nodeUnits_;
  ValueMode mode_ = ValueMode::Absolute;
  double largest_ = 0.0;
};

}  // namespace waitscope::views
