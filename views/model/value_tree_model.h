#pragma once
// One browser tree (metrics, call paths, regions or system) as a Qt item model:
// column 0 the name, column 1 the value in the current mode with Cube's colour
// box. The view tells the model which items are expanded, because a collapsed
// item shows its inclusive value and an expanded one its exclusive value.
// While two runs are compared the value columns are the runs, A, B and B − A,
// each in the current mode; the shown run (the compare view) has the colour
// box and is what the Value roles, sorting, thresholds and the hot path use.
#include <cstdint>
#include <vector>

#include <QAbstractItemModel>

#include "analysis/report/report_algebra.h"
#include "views/model/compare_view.h"
#include "views/model/report_data.h"
#include "views/model/value_mode.h"

namespace waitscope::views {

class ValueTreeModel : public QAbstractItemModel {
  Q_OBJECT
 public:
  enum Column { NameColumn = 0, ValueColumn = 1, ColumnCount = 2 };
  // The value columns while comparing.
  enum CompareColumn { RunAColumn = 1, RunBColumn = 2, DifferenceColumn = 3, CompareColumnCount = 4 };
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
  // New exclusive values (indexed by node) and references; the shape stays. While comparing,
  // they are the shown run's.
  void setValues(std::vector<double> exclusive, References references, report::MetricUnit unit);
  // Per-node units for a tree that mixes them (the metric tree); empty: one unit for all.
  void setNodeUnits(std::vector<report::MetricUnit> units);
  report::MetricUnit unitOf(std::uint32_t node) const;
  void setMode(ValueMode mode);
  ValueMode mode() const { return mode_; }
  void setExpanded(std::uint32_t node, bool expanded);
  bool isExpanded(std::uint32_t node) const { return node < expanded_.size() && expanded_[node]; }

  // Comparing two runs: the value columns become A, B and B − A (a reset: the columns change).
  void setCompared(bool compared);
  bool compared() const { return sets_.size() > 1; }
  // One run's exclusive values while comparing, like setValues.
  void setRunValues(CompareView run, std::vector<double> exclusive, References references, report::MetricUnit unit);
  // The run whose column has the colour box and whose values the Value roles give.
  void setShownRun(CompareView run);
  CompareView shownRun() const { return shownRun_; }
  int shownColumn() const { return compared() ? columnOf(shownRun_) : ValueColumn; }
  static int columnOf(CompareView run) { return RunAColumn + static_cast<int>(run); }
  // What a run's column shows for `node`, in the current mode (0 when not comparing).
  double runValue(CompareView run, std::uint32_t node) const;
  // A run's absolute inclusive value of `node` (0 when not comparing).
  double runInclusiveValue(CompareView run, std::uint32_t node) const;
  // The runs' file names, for tooltips.
  void setRunFiles(QString fileA, QString fileB);
  // Where each node was found (the call tree: report::AlignedReports::callPathPresence); empty:
  // everywhere. Nodes of one run only are italic, say "only in A/B" and name the file in a tooltip.
  void setPresence(std::vector<report::Presence> presence);
  report::Presence presence(std::uint32_t node) const;

  // Nodes without a value (metrics a time window cannot restrict), one char per node; empty:
  // every node has one. As Cube shows absent values, they show a grey "n/a" without a colour
  // box, the name unchanged, and `reason` as their tooltip; they count as 0 for sorting,
  // thresholds and the hot path.
  void setUnavailable(std::vector<char> unavailable, QString reason);
  bool available(std::uint32_t node) const { return node >= unavailable_.size() || !unavailable_[node]; }

  double exclusiveValue(std::uint32_t node) const;
  double inclusiveValue(std::uint32_t node) const;
  // What the item shows, absolute (inclusive when collapsed, exclusive when expanded) and in the mode.
  double absoluteValue(std::uint32_t node) const { return absoluteIn(shown(), node); }
  double shownValue(std::uint32_t node) const { return shownIn(shown(), node); }
  // Share of the largest value in [0, 1] for the colour box; signed ([-1, 1]) for a difference.
  double colorShare(std::uint32_t node) const;
  double largestValue() const { return shown().largest; }
  // Whether every root is a unit of its own (the metric tree: time, visits, bytes), as in Cube:
  // percentages, thresholds, colour scales, peer percent and the hot path stay inside one root.
  bool rootsAreUnits() const { return shown().references.totalPerRoot; }
  // The largest absolute inclusive value that `node` is measured against: its root's
  // largest where roots are units, else the tree's (colour boxes, Hide Small Values).
  double largestOfUnit(std::uint32_t node) const { return largestIn(shown(), node); }
  report::MetricUnit unit() const { return unit_; }

  QModelIndex indexOfNode(std::uint32_t node, int column = NameColumn) const;
  static std::uint32_t nodeOf(const QModelIndex& index);

  QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
  QModelIndex parent(const QModelIndex& child) const override;
  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  // The value columns' headers name a unit only where the cells do not: percent modes and
  // counts. Times and bytes carry theirs in every cell, scaled to the value.
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
  // A column's header in a CSV file, naming the unit of the unscaled numbers there:
  // "Value (s)", "A (bytes)", "B − A (%)".
  QString csvHeader(int section) const;

 private:
  // The values of one value column.
  struct Values {
    std::vector<double> exclusive, inclusive;
    // Per unit (a root where roots are units, else one for the tree), per depth: the
    // largest shown absolute value.
    std::vector<std::vector<double>> peerMax;
    std::vector<double> rootLargest;  // per root: largest absolute inclusive value below it
    References references;
    double largest = 0.0;
  };
  const Values& shown() const { return sets_[compared() ? static_cast<std::size_t>(shownRun_) : 0]; }
  const Values* setOfColumn(int column) const;
  void assign(Values& values, std::vector<double> exclusive, References references, report::MetricUnit unit);
  double absoluteIn(const Values& values, std::uint32_t node) const;
  double shownIn(const Values& values, std::uint32_t node) const;
  double reference(const Values& values, std::uint32_t node) const;
  double rootInclusive(const Values& values, std::uint32_t node) const;
  double largestIn(const Values& values, std::uint32_t node) const;
  std::size_t unitOfPeers(const Values& values, std::uint32_t node) const;
  void updatePeerMaxima();
  void emitValuesChanged(int firstColumn = ValueColumn);
  void emitHeaderChanged();
  QString valueText(int column, std::uint32_t node) const;
  QString nameSuffix(std::uint32_t node) const;
  QString headerUnit(bool csv) const;

  QString title_;
  const ValueTree* tree_ = nullptr;
  std::vector<Values> sets_ = std::vector<Values>(1);  // one per value column
  std::vector<char> expanded_;
  report::MetricUnit unit_ = report::MetricUnit::Seconds;
  std::vector<report::MetricUnit> nodeUnits_;
  ValueMode mode_ = ValueMode::Absolute;
  CompareView shownRun_ = CompareView::Difference;
  std::vector<report::Presence> presence_;
  std::vector<char> unavailable_;
  QString unavailableReason_;
  QString fileA_, fileB_;
};

}  // namespace waitscope::views
