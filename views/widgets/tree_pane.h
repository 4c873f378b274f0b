#pragma once
// One of the three browser trees with its search bar: a QTreeView over a
// ValueTreeModel (through a sort/filter proxy) that reports what is picked,
// tells the model which items are expanded, and offers Cube's tree actions
// (find, hot path, sort by value, threshold, CSV of what is shown) and a
// context menu (expand or collapse a subtree, copy names and values).
#include <functional>

#include <QWidget>

#include "views/model/report_data.h"

class QAction;
class QLabel;
class QLineEdit;
class QMenu;
class QTimer;
class QTreeView;
class QToolButton;

namespace waitscope::views {

class TreeFilterProxy;
class ValueTreeModel;

class TreePane : public QWidget {
  Q_OBJECT
 public:
  explicit TreePane(QWidget* parent = nullptr);

  void setModel(ValueTreeModel* model);
  ValueTreeModel* model() const { return model_; }
  QTreeView* view() const { return view_; }
  QLineEdit* searchField() const { return search_; }
  // The pane's height with room for `rows` rows: the header, the frame and the find field too.
  int heightForRows(int rows) const;

  // What the selected items stand for: collapsed inclusive, expanded exclusive.
  TreePicks picks() const;
  // Selects these nodes (expanding their ancestors and scrolling to the first).
  void selectNodes(const std::vector<std::uint32_t>& nodes);
  void selectNode(std::uint32_t node) { selectNodes({node}); }
  void expandNode(std::uint32_t node, bool expanded);

  // The next (or previous) item whose name contains `text`, in tree order, wrapping
  // around; selects it and returns true, or false when no visible item matches.
  bool find(const QString& text, bool backwards = false);
  // Expands along the largest child from the largest root and selects the end ("hot path").
  void expandHotPath();
  void setSortByValue(bool byValue);
  void setThreshold(double percent);
  // A flat list (the flat profile, as Cube's flat view): rows that are 0 are hidden and the
  // rows are sorted by value, largest first, whatever Sort by Value says.
  void setFlatList(bool flat);
  bool flatList() const { return flatList_; }
  // Expands (or collapses) `node` and everything below it.
  void expandSubtree(std::uint32_t node, bool expanded);
  // The selected rows as text, one per line in the order shown: name, a tab, the value as
  // shown ("MPI_Recv\t4.77 ms"); the current row alone when nothing is selected.
  QString selectedText() const;
  void copySelection() const;
  // The context menu of `node`: Expand Subtree, Collapse Subtree, Copy, then what the
  // extension adds (the browser: find in the call tree), then the view's own actions.
  // The caller owns the menu.
  QMenu* contextMenu(std::uint32_t node);
  void setContextMenuExtension(std::function<void(QMenu*, std::uint32_t node)> extension) {
    menuExtension_ = std::move(extension);
  }
  // Re-applies sorting and the threshold after the model got new values.
  void refresh();

  // What the view shows (expanded and selected nodes, the current one, the scroll position),
  // to be put back after the model got a differently shaped tree (a live run's next snapshot).
  struct ViewState {
    std::vector<std::uint32_t> expanded, selected;  // nodes of the tree when saved
    std::uint32_t current = kNoNode;
    int scroll = 0;
  };
  ViewState saveState() const;
  // `oldToNew` maps the saved nodes to the model's tree (matchNodes); unmatched ones are
  // dropped. When none of the selected nodes is left, the selection stays as it is.
  void restoreState(const ViewState& state, const std::vector<std::uint32_t>& oldToNew);

  // Exactly the rows shown (expanded ancestors, threshold, order) as CSV:
  // depth,name,value with the value in the current mode (while comparing: depth,name,A,B,B − A).
  QString toCsv() const;
  // Exports of the pane (the CSV above, or the picture); empty on success, else one line.
  // The CSV file gets ".csv" when its name has no suffix, and starts with a "# " line
  // saying what the values are (the caption below).
  QString exportCsv(const QString& path) const;
  // Names the metric, unit and selection of the values, for the CSV file's first line.
  void setCsvCaption(std::function<QString()> caption) { csvCaption_ = std::move(caption); }
  QString exportPng(const QString& path);
  QString exportSvg(const QString& path);

 signals:
  void picksChanged();
  void focused();

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void onExpansion(const QModelIndex& proxyIndex, bool expanded);
  void sizeColumns();
  void fitColumns();
  QModelIndex proxyIndexOf(std::uint32_t node) const;
  std::vector<std::uint32_t> visibleOrder() const;

  ValueTreeModel* model_ = nullptr;
  TreeFilterProxy* proxy_ = nullptr;
  QTreeView* view_ = nullptr;
  QLineEdit* search_ = nullptr;
  QToolButton* previous_ = nullptr;
  QToolButton* next_ = nullptr;
  QLabel* notFound_ = nullptr;
  bool sortByValue_ = false;
  bool flatList_ = false;
  QAction* copyAction_ = nullptr;
  std::function<void(QMenu*, std::uint32_t)> menuExtension_;
  QTimer* fitTimer_ = nullptr;
  std::function<QString()> csvCaption_;
};

}  // namespace waitscope::views
