#include "views/widgets/tree_pane.h"

#include <algorithm>

#include <QAction>
#include <QClipboard>
#include <QEvent>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QScrollBar>
#include <QTimer>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

#include "views/model/tree_filter_proxy.h"
#include "views/model/value_tree_model.h"
#include "views/widgets/widget_export.h"

namespace waitscope::views {

TreePane::TreePane(QWidget* parent) : QWidget(parent) {
  proxy_ = new TreeFilterProxy(this);
  view_ = new QTreeView(this);
  view_->setModel(proxy_);
  view_->setSelectionMode(QAbstractItemView::ExtendedSelection);
  view_->setUniformRowHeights(true);  // constant-time layout for large call trees
  view_->setAlternatingRowColors(true);
  view_->header()->setStretchLastSection(false);
  view_->installEventFilter(this);
  view_->setContextMenuPolicy(Qt::CustomContextMenu);
  connect(view_, &QWidget::customContextMenuRequested, this, [this](const QPoint& at) {
    const QModelIndex index = view_->indexAt(at);
    if (!index.isValid()) return;
    QMenu* menu = contextMenu(ValueTreeModel::nodeOf(proxy_->mapToSource(index)));
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->popup(view_->viewport()->mapToGlobal(at));
  });
  copyAction_ = new QAction(tr("Copy"), view_);
  copyAction_->setShortcut(QKeySequence::Copy);
  copyAction_->setShortcutContext(Qt::WidgetShortcut);
  connect(copyAction_, &QAction::triggered, this, &TreePane::copySelection);
  view_->addAction(copyAction_);

  search_ = new QLineEdit(this);
  search_->setPlaceholderText(tr("Find…"));
  search_->setClearButtonEnabled(true);
  previous_ = new QToolButton(this);
  previous_->setArrowType(Qt::UpArrow);
  previous_->setToolTip(tr("Previous match (Shift+F3)"));
  next_ = new QToolButton(this);
  next_->setArrowType(Qt::DownArrow);
  next_->setToolTip(tr("Next match (F3)"));
  notFound_ = new QLabel(this);

  auto* searchRow = new QHBoxLayout;
  searchRow->setContentsMargins(0, 0, 0, 0);
  searchRow->addWidget(search_, 1);
  searchRow->addWidget(notFound_);
  searchRow->addWidget(previous_);
  searchRow->addWidget(next_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(view_, 1);
  layout->addLayout(searchRow);

  connect(search_, &QLineEdit::returnPressed, this, [this] { find(search_->text()); });
  connect(next_, &QToolButton::clicked, this, [this] { find(search_->text()); });
  connect(previous_, &QToolButton::clicked, this, [this] { find(search_->text(), true); });
  connect(view_, &QTreeView::expanded, this, [this](const QModelIndex& i) { onExpansion(i, true); });
  connect(view_, &QTreeView::collapsed, this, [this](const QModelIndex& i) { onExpansion(i, false); });
  connect(proxy_, &QAbstractItemModel::modelReset, this, &TreePane::sizeColumns);
  // What decides whether the runs' columns fit changes often and in bursts: fit once after.
  fitTimer_ = new QTimer(this);
  fitTimer_->setSingleShot(true);
  fitTimer_->setInterval(0);
  connect(fitTimer_, &QTimer::timeout, this, &TreePane::fitColumns);
  const auto fitSoon = [this] { fitTimer_->start(); };
  connect(proxy_, &QAbstractItemModel::dataChanged, this, fitSoon);
  connect(proxy_, &QAbstractItemModel::headerDataChanged, this, fitSoon);
  connect(proxy_, &QAbstractItemModel::layoutChanged, this, fitSoon);
  connect(view_, &QTreeView::expanded, this, fitSoon);
  connect(view_, &QTreeView::collapsed, this, fitSoon);
  view_->viewport()->installEventFilter(this);
}

void TreePane::setModel(ValueTreeModel* model) {
  if (model == model_) return;
  if (view_->selectionModel()) disconnect(view_->selectionModel(), nullptr, this, nullptr);
  model_ = model;
  proxy_->setSourceModel(model);
  connect(view_->selectionModel(), &QItemSelectionModel::selectionChanged, this, &TreePane::picksChanged);
  connect(proxy_, &QAbstractItemModel::modelReset, this, &TreePane::picksChanged);
  sizeColumns();
  // The view's expansion state must match the model's after a switch.
  if (model_ && model_->tree()) {
    for (std::uint32_t n = 0; n < model_->tree()->size(); ++n)
      if (model_->isExpanded(n)) view_->setExpanded(proxyIndexOf(n), true);
  }
  refresh();
  emit picksChanged();
}

void TreePane::sizeColumns() {
  // The header has sections only once there are columns; comparing adds two.
  for (int c = 0; c < proxy_->columnCount(); ++c)
    view_->header()->setSectionResizeMode(c, c == 0 ? QHeaderView::Stretch : QHeaderView::ResizeToContents);
  fitColumns();
}

void TreePane::fitColumns() {
  QHeaderView* header = view_->header();
  const int columns = proxy_->columnCount();
  const int shown = model_ ? model_->shownColumn() : int{ValueTreeModel::ValueColumn};
  for (int c = ValueTreeModel::ValueColumn; c < columns; ++c) header->setSectionHidden(c, false);
  if (!model_ || !model_->compared()) return;
  // The runs' columns need room: where names would get less than about twelve characters
  // beside a few levels of indentation, only the shown run's column stays (a value's tooltip
  // still gives all three).
  int values = 0;
  for (int c = ValueTreeModel::ValueColumn; c < columns; ++c)
    values += std::max(static_cast<const QAbstractItemView*>(view_)->sizeHintForColumn(c), header->sectionSizeHint(c));
  const int name = view_->fontMetrics().averageCharWidth() * 12 + view_->indentation() * 3;
  if (view_->viewport()->width() - values >= name) return;
  for (int c = ValueTreeModel::ValueColumn; c < columns; ++c) header->setSectionHidden(c, c != shown);
}

TreePicks TreePane::picks() const {
  TreePicks out;
  if (!model_) return out;
  for (const QModelIndex& proxyIndex : view_->selectionModel()->selectedRows(0)) {
    const std::uint32_t node = ValueTreeModel::nodeOf(proxy_->mapToSource(proxyIndex));
    if (node == kNoNode) continue;
    const bool leaf = model_->tree()->children[node].empty();
    out.push_back({node, leaf || !view_->isExpanded(proxyIndex)});
  }
  std::sort(out.begin(), out.end(), [](const TreePick& a, const TreePick& b) { return a.node < b.node; });
  return out;
}

QModelIndex TreePane::proxyIndexOf(std::uint32_t node) const {
  return model_ ? proxy_->mapFromSource(model_->indexOfNode(node)) : QModelIndex();
}

void TreePane::expandNode(std::uint32_t node, bool expanded) {
  const QModelIndex index = proxyIndexOf(node);
  if (index.isValid()) view_->setExpanded(index, expanded);
}

void TreePane::selectNodes(const std::vector<std::uint32_t>& nodes) {
  if (!model_) return;
  QItemSelection selection;
  QModelIndex first;
  for (const std::uint32_t node : nodes) {
    // Expand the ancestors so the item is visible.
    for (std::uint32_t p = model_->tree()->parent[node]; p != kNoNode; p = model_->tree()->parent[p]) expandNode(p, true);
    const QModelIndex index = proxyIndexOf(node);
    if (!index.isValid()) continue;
    if (!first.isValid()) first = index;
    selection.select(index, index.siblingAtColumn(ValueTreeModel::ValueColumn));
  }
  view_->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
  if (first.isValid()) {
    view_->selectionModel()->setCurrentIndex(first, QItemSelectionModel::NoUpdate);
    view_->scrollTo(first);
  }
}

void TreePane::onExpansion(const QModelIndex& proxyIndex, bool expanded) {
  if (!model_) return;
  const std::uint32_t node = ValueTreeModel::nodeOf(proxy_->mapToSource(proxyIndex));
  model_->setExpanded(node, expanded);
  // A selected item switches between its inclusive and exclusive value.
  if (view_->selectionModel()->isRowSelected(proxyIndex.row(), proxyIndex.parent())) emit picksChanged();
}

std::vector<std::uint32_t> TreePane::visibleOrder() const {
  std::vector<std::uint32_t> out;
  if (!model_) return out;
  std::vector<QModelIndex> stack;
  for (int r = proxy_->rowCount() - 1; r >= 0; --r) stack.push_back(proxy_->index(r, 0));
  while (!stack.empty()) {
    const QModelIndex index = stack.back();
    stack.pop_back();
    out.push_back(ValueTreeModel::nodeOf(proxy_->mapToSource(index)));
    if (!view_->isExpanded(index)) continue;
    for (int r = proxy_->rowCount(index) - 1; r >= 0; --r) stack.push_back(proxy_->index(r, 0, index));
  }
  return out;
}

bool TreePane::find(const QString& text, bool backwards) {
  notFound_->clear();
  if (!model_ || !model_->tree() || text.isEmpty()) return false;
  // Search the whole tree in display order (collapsed items too), not only what is expanded.
  std::vector<std::uint32_t> order;
  std::vector<QModelIndex> stack;
  for (int r = proxy_->rowCount() - 1; r >= 0; --r) stack.push_back(proxy_->index(r, 0));
  while (!stack.empty()) {
    const QModelIndex index = stack.back();
    stack.pop_back();
    order.push_back(ValueTreeModel::nodeOf(proxy_->mapToSource(index)));
    for (int r = proxy_->rowCount(index) - 1; r >= 0; --r) stack.push_back(proxy_->index(r, 0, index));
  }
  if (order.empty()) return false;
  const std::uint32_t current = ValueTreeModel::nodeOf(proxy_->mapToSource(view_->currentIndex()));
  std::size_t start = 0;
  const auto at = std::find(order.begin(), order.end(), current);
  if (at != order.end()) start = static_cast<std::size_t>(at - order.begin());
  const std::size_t n = order.size();
  for (std::size_t step = 1; step <= n; ++step) {
    const std::size_t i = backwards ? (start + n - step % n) % n : (start + step) % n;
    if (model_->tree()->names[order[i]].contains(text, Qt::CaseInsensitive)) {
      selectNode(order[i]);
      return true;
    }
  }
  notFound_->setText(tr("not found"));
  return false;
}

void TreePane::expandHotPath() {
  if (!model_ || proxy_->rowCount() == 0) return;
  auto largest = [this](const QModelIndex& parent) {
    QModelIndex best;
    double bestValue = -1.0;
    for (int r = 0; r < proxy_->rowCount(parent); ++r) {
      const QModelIndex child = proxy_->index(r, 0, parent);
      const double v = std::fabs(model_->inclusiveValue(ValueTreeModel::nodeOf(proxy_->mapToSource(child))));
      if (v > bestValue) {
        bestValue = v;
        best = child;
      }
    }
    return best;
  };
  // Where roots are units of their own (metrics), the path stays in the current item's root:
  // the largest root by number would compare bytes with seconds.
  QModelIndex at = largest({});
  if (model_->rootsAreUnits()) {
    const std::uint32_t current = ValueTreeModel::nodeOf(proxy_->mapToSource(view_->currentIndex()));
    const std::uint32_t root = current != kNoNode ? model_->tree()->rootOf[current] : model_->tree()->roots.front();
    if (proxyIndexOf(root).isValid()) at = proxyIndexOf(root);
  }
  while (proxy_->rowCount(at) > 0) {
    view_->setExpanded(at, true);
    at = largest(at);
  }
  selectNode(ValueTreeModel::nodeOf(proxy_->mapToSource(at)));
}

void TreePane::setSortByValue(bool byValue) {
  sortByValue_ = byValue;
  view_->setSortingEnabled(false);
  if (byValue || flatList_)
    proxy_->sort(ValueTreeModel::ValueColumn, Qt::DescendingOrder);
  else
    proxy_->sort(-1);  // the tree's own order
}

void TreePane::setThreshold(double percent) { proxy_->setThreshold(percent); }

void TreePane::setFlatList(bool flat) {
  flatList_ = flat;
  proxy_->setHideZeros(flat);
  setSortByValue(sortByValue_);
}

void TreePane::refresh() {
  if (proxy_->threshold() > 0.0 || proxy_->hidesZeros()) proxy_->invalidate();
  if (sortByValue_ || flatList_) proxy_->sort(ValueTreeModel::ValueColumn, Qt::DescendingOrder);
  fitColumns();
}

void TreePane::expandSubtree(std::uint32_t node, bool expanded) {
  const QModelIndex index = proxyIndexOf(node);
  if (!index.isValid()) return;
  // Item by item (not QTreeView::expandRecursively), so that the model hears of each one:
  // an expanded item shows its exclusive value. Leaves have nothing to expand.
  std::vector<QModelIndex> stack{index}, order;
  while (!stack.empty()) {
    const QModelIndex at = stack.back();
    stack.pop_back();
    if (proxy_->rowCount(at) == 0) continue;
    order.push_back(at);
    for (int r = 0; r < proxy_->rowCount(at); ++r) stack.push_back(proxy_->index(r, 0, at));
  }
  if (expanded)
    for (const QModelIndex& at : order) view_->setExpanded(at, true);
  else  // children first: expanding `node` again later shows them collapsed
    for (auto it = order.rbegin(); it != order.rend(); ++it) view_->setExpanded(*it, false);
}

int TreePane::heightForRows(int rows) const {
  const int row = view_->sizeHintForRow(0) > 0 ? view_->sizeHintForRow(0) : view_->fontMetrics().lineSpacing() + 2;
  const int findRow = std::max({search_->sizeHint().height(), previous_->sizeHint().height(), next_->sizeHint().height()});
  return view_->header()->sizeHint().height() + 2 * view_->frameWidth() + rows * row + layout()->spacing() + findRow;
}

QString TreePane::selectedText() const {
  if (!model_ || !model_->tree()) return {};
  std::vector<char> selected(model_->tree()->size(), 0);
  for (const QModelIndex& proxyIndex : view_->selectionModel()->selectedRows(0))
    selected[ValueTreeModel::nodeOf(proxy_->mapToSource(proxyIndex))] = 1;
  const std::uint32_t current = ValueTreeModel::nodeOf(proxy_->mapToSource(view_->currentIndex()));
  if (std::find(selected.begin(), selected.end(), 1) == selected.end() && current != kNoNode) selected[current] = 1;
  QStringList lines;
  for (const std::uint32_t node : visibleOrder()) {
    if (!selected[node]) continue;
    QStringList fields{model_->data(model_->indexOfNode(node)).toString()};
    for (int c = ValueTreeModel::ValueColumn; c < model_->columnCount(); ++c)
      fields << model_->data(model_->indexOfNode(node, c)).toString();
    lines << fields.join(QLatin1Char('\t'));
  }
  return lines.join(QLatin1Char('\n'));
}

void TreePane::copySelection() const {
  const QString text = selectedText();
  if (!text.isEmpty()) QGuiApplication::clipboard()->setText(text);
}

QMenu* TreePane::contextMenu(std::uint32_t node) {
  auto* menu = new QMenu(this);
  const bool hasChildren = model_ && model_->tree() && node < model_->tree()->size() &&
                           !model_->tree()->children[node].empty();
  QAction* expand = menu->addAction(tr("Expand Subtree"), this, [this, node] { expandSubtree(node, true); });
  QAction* collapse = menu->addAction(tr("Collapse Subtree"), this, [this, node] { expandSubtree(node, false); });
  expand->setEnabled(hasChildren);
  collapse->setEnabled(hasChildren);
  menu->addAction(tr("Copy"), this, [this, node] {
    // The row right-clicked, with the rest of the selection when it is part of it.
    const QModelIndex index = proxyIndexOf(node);
    if (!view_->selectionModel()->isRowSelected(index.row(), index.parent())) selectNode(node);
    copySelection();
  });
  if (menuExtension_) menuExtension_(menu, node);
  bool separated = false;
  for (QAction* action : view_->actions()) {
    if (action == copyAction_) continue;  // the shortcut's, offered above
    if (!separated) menu->addSeparator();
    separated = true;
    menu->addAction(action);
  }
  return menu;
}

TreePane::ViewState TreePane::saveState() const {
  ViewState state;
  if (!model_ || !model_->tree()) return state;
  for (std::uint32_t n = 0; n < model_->tree()->size(); ++n)
    if (model_->isExpanded(n)) state.expanded.push_back(n);
  for (const QModelIndex& proxyIndex : view_->selectionModel()->selectedRows(0))
    state.selected.push_back(ValueTreeModel::nodeOf(proxy_->mapToSource(proxyIndex)));
  state.current = ValueTreeModel::nodeOf(proxy_->mapToSource(view_->currentIndex()));
  state.scroll = view_->verticalScrollBar()->value();
  return state;
}

void TreePane::restoreState(const ViewState& state, const std::vector<std::uint32_t>& oldToNew) {
  if (!model_ || !model_->tree()) return;
  auto mapped = [&oldToNew](std::uint32_t node) { return node < oldToNew.size() ? oldToNew[node] : kNoNode; };
  std::vector<char> expand(model_->tree()->size(), 0);
  for (const std::uint32_t node : state.expanded)
    if (mapped(node) != kNoNode) expand[mapped(node)] = 1;
  for (std::uint32_t n = 0; n < expand.size(); ++n)
    if (bool(expand[n]) != model_->isExpanded(n)) expandNode(n, expand[n]);
  QItemSelection selection;
  for (const std::uint32_t node : state.selected) {
    const QModelIndex index = proxyIndexOf(mapped(node));
    if (index.isValid()) selection.select(index, index.siblingAtColumn(ValueTreeModel::ValueColumn));
  }
  if (!selection.isEmpty())
    view_->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
  const QModelIndex current = proxyIndexOf(mapped(state.current));
  if (current.isValid()) view_->selectionModel()->setCurrentIndex(current, QItemSelectionModel::NoUpdate);
  view_->doItemsLayout();  // the scroll range must include the rows just expanded
  view_->verticalScrollBar()->setValue(state.scroll);
}

QString TreePane::toCsv() const {
  auto quote = [](QString s) {
    if (s.contains(QLatin1Char(',')) || s.contains(QLatin1Char('"')) || s.contains(QLatin1Char('\n')))
      s = QLatin1Char('"') + s.replace(QLatin1Char('"'), QStringLiteral("\"\"")) + QLatin1Char('"');
    return s;
  };
  if (!model_) return QStringLiteral("depth,name,value\n");
  // One column per value column: the value, or A, B and B − A while comparing.
  QString out = QStringLiteral("depth,name");
  const int columns = model_->columnCount();
  for (int c = ValueTreeModel::ValueColumn; c < columns; ++c)
    out += QLatin1Char(',') + quote(model_->csvHeader(c));
  out += QLatin1Char('\n');
  for (const std::uint32_t node : visibleOrder()) {
    out += QStringLiteral("%1,%2").arg(model_->tree()->depth[node]).arg(quote(model_->tree()->names[node]));
    // A node without a value (n/a in a time window) has an empty cell.
    if (!model_->compared())
      out += QLatin1Char(',') +
             (model_->available(node) ? QString::number(model_->shownValue(node), 'g', 17) : QString());
    for (const CompareView run : kCompareViews)
      if (model_->compared()) out += QLatin1Char(',') + QString::number(model_->runValue(run, node), 'g', 17);
    out += QLatin1Char('\n');
  }
  return out;
}

bool TreePane::eventFilter(QObject* watched, QEvent* event) {
  if (watched == view_ && event->type() == QEvent::FocusIn) emit focused();
  if (watched == view_->viewport() && event->type() == QEvent::Resize) fitColumns();
  return QWidget::eventFilter(watched, event);
}

QString TreePane::exportCsv(const QString& path) const {
  const QString caption = csvCaption_ ? csvCaption_() : QString();
  return writeTextFile((caption.isEmpty() ? QString() : QStringLiteral("# ") + caption + QLatin1Char('\n')) + toCsv(),
                       withDefaultSuffix(path, QStringLiteral("csv")));
}
QString TreePane::exportPng(const QString& path) { return views::exportPng(this, path); }
QString TreePane::exportSvg(const QString& path) { return views::exportSvg(this, path, window()->windowTitle()); }

}  // namespace waitscope::views
