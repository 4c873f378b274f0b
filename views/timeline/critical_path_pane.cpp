#include "views/timeline/critical_path_pane.h"

#include <algorithm>
#include <map>

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QEvent>
#include <QFileInfo>
#include <QHeaderView>
#include <QHorizontalBarSeries>
#include <QItemSelectionModel>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTableView>
#include <QValueAxis>
#include <QVBoxLayout>

#include "analysis/report/critical_path_profile.h"
#include "analysis/report/report_queries.h"
#include "views/model/selection.h"

namespace waitscope::views {

namespace {

constexpr int kChartRows = 10;
constexpr int kCallPathRole = Qt::UserRole + 1;
constexpr int kSegmentsRole = Qt::UserRole + 2;  // the call path's names from the root (QStringList)

QStandardItem* number(double value) {
  auto* item = new QStandardItem;
  item->setData(value, Qt::DisplayRole);  // a number, so the column sorts numerically
  item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
  item->setEditable(false);
  return item;
}

// Each call path's segments from the root: the region's name, followed by its call
// site ("MPI_Win_fence (fence.c:42)") where a sibling has the same name, so that two
// calls of one function from one caller are told apart (as Cube shows them).
std::vector<QStringList> callPathSegments(const report::Report& report) {
  std::map<std::pair<std::uint32_t, std::uint32_t>, int> siblingsByName;  // (parent, region) -> count
  for (const report::CallPath& c : report.callPaths) ++siblingsByName[{c.parent, c.region}];
  std::vector<QStringList> segments(report.callPaths.size());
  for (std::uint32_t i = 0; i < report.callPaths.size(); ++i) {  // parents come before their children
    const report::CallPath& c = report.callPaths[i];
    QString name = c.region < report.regions.size() ? QString::fromStdString(report.regions[c.region].name) : QStringLiteral("?");
    if (siblingsByName[{c.parent, c.region}] > 1 && !c.callSiteFile.empty())
      name += QStringLiteral(" (%1:%2)").arg(QFileInfo(QString::fromStdString(c.callSiteFile)).fileName()).arg(c.callSiteLine);
    if (c.parent < i) segments[i] = segments[c.parent];
    segments[i] << name;
  }
  return segments;
}

// Short labels for the chart, one per row and all different (a bar axis merges equal
// categories, which would put one row's bar under another's name): the last segment,
// with as many callers in front as it takes to tell the rows apart.
QStringList distinctLabels(const std::vector<QStringList>& paths) {
  QStringList labels;
  for (const QStringList& p : paths) labels << p.value(p.size() - 1);
  for (qsizetype depth = 2;; ++depth) {
    std::map<QString, int> uses;
    for (const QString& l : labels) ++uses[l];
    bool clash = false;
    for (std::size_t i = 0; i < paths.size(); ++i) {
      if (uses[labels[static_cast<qsizetype>(i)]] < 2) continue;
      clash = true;
      const QStringList& p = paths[i];
      if (depth <= p.size()) labels[static_cast<qsizetype>(i)] = p.mid(p.size() - depth).join(QLatin1Char('/'));
    }
    if (!clash) return labels;
    bool longer = false;
    for (const QStringList& p : paths) longer = longer || p.size() >= depth;
    if (!longer) break;
  }
  // Equal whole paths (call sites unknown): numbered.
  std::map<QString, int> seen;
  for (QString& l : labels)
    if (const int n = ++seen[l]; n > 1) l += QStringLiteral(" [%1]").arg(n);
  return labels;
}

}  // namespace

CriticalPathPane::CriticalPathPane(Selection* selection, QWidget* parent)
    : QWidget(parent),
      selection_(selection),
      model_(new QStandardItemModel(this)),
      proxy_(new QSortFilterProxyModel(this)),
      table_(new QTableView(this)),
      chart_(new QChart) {
  // Short headers, each wide enough for its text; the whole sentence is the tooltip.
  model_->setHorizontalHeaderLabels({tr("Call path"), tr("On path (s)"), tr("Share (%)"), tr("Imbalance (s)")});
  const QStringList tips = {tr("The call path, with its call site where a sibling has the same name"),
                            tr("Time on the critical path (s)"), tr("Share of the whole critical path (%)"),
                            tr("Time on the path beyond the average over the processes (s)")};
  for (int c = 0; c < tips.size(); ++c) model_->horizontalHeaderItem(c)->setToolTip(tips[c]);
  proxy_->setSourceModel(model_);
  proxy_->setSortRole(Qt::DisplayRole);
  table_->setModel(proxy_);
  table_->setSortingEnabled(true);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  table_->horizontalHeader()->setSectionResizeMode(CallPathColumn, QHeaderView::Stretch);
  table_->horizontalHeader()->setMinimumSectionSize(
      table_->horizontalHeader()->fontMetrics().horizontalAdvance(tr("Call path")) + 4 * table_->fontMetrics().averageCharWidth());
  table_->verticalHeader()->hide();
  connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& current) {
            if (!current.isValid()) return;
            const QModelIndex source = proxy_->mapToSource(current);
            const QVariant id = model_->item(source.row(), CallPathColumn)->data(kCallPathRole);
            emit callPathSelected(id.value<std::uint32_t>());
          });
  chart_->legend()->hide();
  chart_->setTitle(tr("Time on the critical path"));
  chartView_ = new QChartView(chart_, this);
  chartView_->setRenderHint(QPainter::Antialiasing);
  // Room for the title, a few bars and the value axis: never squashed to a strip with "..."
  // labels (the width follows the labels, rebuildChart; the bar count the height, fitChartRows).
  chartView_->setMinimumHeight(chartReserve() + 3 * barHeight());
  chartView_->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
  chartView_->installEventFilter(this);
  split_ = new QSplitter(Qt::Vertical, this);
  split_->setChildrenCollapsible(false);
  split_->addWidget(table_);
  split_->addWidget(chartView_);
  split_->setStretchFactor(0, 1);
  split_->setStretchFactor(1, 1);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(split_);
  applyPalette();
  followSelection();
}

void CriticalPathPane::resizeEvent(QResizeEvent* event) {
  // Side by side in a wide, low dock (the default, below the trees); stacked in a tall one.
  split_->setOrientation(width() > 2 * height() ? Qt::Horizontal : Qt::Vertical);
  QWidget::resizeEvent(event);
}

// Qt Charts shortens a category label to "..." when its share of the axis is lower than the
// text: the chart shows as many of the largest rows as it has room for (at most ten).
int CriticalPathPane::barHeight() const { return 2 * fontMetrics().lineSpacing(); }
int CriticalPathPane::chartReserve() const { return 7 * fontMetrics().lineSpacing() + 40; }

bool CriticalPathPane::eventFilter(QObject* watched, QEvent* event) {
  if (watched == chartView_ && event->type() == QEvent::Resize) {
    const int fit = std::clamp((chartView_->height() - chartReserve()) / barHeight(), 1, kChartRows);
    if (fit != chartRows_) {
      chartRows_ = fit;
      rebuildChart();
    }
  }
  return QWidget::eventFilter(watched, event);
}

void CriticalPathPane::changeEvent(QEvent* event) {
  if (event->type() == QEvent::PaletteChange) applyPalette();
  QWidget::changeEvent(event);
}

// The chart in the widget's colours (a dark palette gets a dark chart), not the chart theme's white.
void CriticalPathPane::applyPalette() {
  const QPalette p = palette();
  chart_->setBackgroundBrush(p.color(QPalette::Base));
  chart_->setBackgroundPen(Qt::NoPen);
  chart_->setPlotAreaBackgroundVisible(false);
  chart_->setTitleBrush(p.color(QPalette::WindowText));
  chartView_->setBackgroundBrush(p.color(QPalette::Window));
  for (QAbstractAxis* axis : chart_->axes()) {
    axis->setLabelsBrush(p.color(QPalette::Text));
    axis->setTitleBrush(p.color(QPalette::Text));
    axis->setLinePenColor(p.color(QPalette::Mid));
    axis->setGridLineColor(p.color(QPalette::Mid));
  }
  for (QAbstractSeries* series : chart_->series())
    if (auto* bars = qobject_cast<QHorizontalBarSeries*>(series))
      for (QBarSet* set : bars->barSets()) {
        set->setColor(p.color(QPalette::Highlight));
        set->setBorderColor(p.color(QPalette::Highlight));
      }
}

void CriticalPathPane::followSelection() {
  const auto showReport = [this] {
    const ReportDataPtr& shown = selection_->report();
    setReport(shown ? std::shared_ptr<const report::Report>(shown, &shown->report()) : nullptr);
  };
  connect(selection_, &Selection::reportChanged, this, showReport);
  connect(selection_, &Selection::reportUpdated, this, showReport);
  // A picked row: its segments light up in the timeline and the call tree selects it.
  connect(this, &CriticalPathPane::callPathSelected, selection_, [this](std::uint32_t callPath) {
    selection_->setHighlightedCallPath(callPath);
    selection_->setCallPaths({{callPath, true}}, false);
  });
}

void CriticalPathPane::setReport(std::shared_ptr<const report::Report> report) {
  report_ = std::move(report);
  model_->removeRows(0, model_->rowCount());
  if (report_) {
    const std::vector<QStringList> paths = callPathSegments(*report_);
    for (const report::PathProfileRow& row : report::criticalPathProfile(*report_)) {
      const QStringList& path = paths[row.callPath];
      auto* name = new QStandardItem(path.join(QLatin1Char('/')));
      name->setData(row.callPath, kCallPathRole);
      name->setData(path, kSegmentsRole);
      name->setEditable(false);
      model_->appendRow({name, number(row.onPath), number(row.share * 100.0), number(row.imbalance)});
    }
  }
  table_->sortByColumn(OnPathColumn, Qt::DescendingOrder);
  rebuildChart();
}

void CriticalPathPane::rebuildChart() {
  chart_->removeAllSeries();
  for (QAbstractAxis* axis : chart_->axes()) chart_->removeAxis(axis);
  auto* series = new QHorizontalBarSeries;
  auto* set = new QBarSet(tr("On the critical path (s)"));
  // The largest rows, each its own bar with exactly the table's value.
  struct Row {
    double onPath;
    QStringList path;
  };
  std::vector<Row> top;
  for (int r = 0; r < model_->rowCount(); ++r)
    top.push_back({model_->item(r, OnPathColumn)->data(Qt::DisplayRole).toDouble(),
                   model_->item(r, CallPathColumn)->data(kSegmentsRole).toStringList()});
  std::stable_sort(top.begin(), top.end(), [](const Row& a, const Row& b) { return a.onPath > b.onPath; });
  top.resize(std::min<std::size_t>(static_cast<std::size_t>(chartRows_), top.size()));
  std::vector<QStringList> paths;
  for (const Row& row : top) paths.push_back(row.path);
  const QStringList labels = distinctLabels(paths);
  // Qt Charts gives the category axis at most 40% of the chart's width: make room for the longest label.
  int widest = QFontMetrics(chart_->titleFont()).horizontalAdvance(chart_->title());
  for (const QString& label : labels) widest = std::max(widest, 3 * fontMetrics().horizontalAdvance(label));
  // Capped, so that a very long (template) name cannot make the window wider than a screen.
  const int chars = fontMetrics().averageCharWidth();
  chartView_->setMinimumWidth(std::clamp(widest + 80, 24 * chars, 110 * chars));
  // The largest at the top: horizontal bars run bottom-up, so add them smallest first.
  QStringList names;
  for (std::size_t i = top.size(); i-- > 0;) {
    *set << top[i].onPath;
    names << labels[static_cast<qsizetype>(i)];
  }
  series->append(set);
  chart_->addSeries(series);
  auto* categories = new QBarCategoryAxis;
  categories->setLabelsFont(font());  // the widget's, as barHeight and the width above assume
  categories->append(names);
  chart_->addAxis(categories, Qt::AlignLeft);
  series->attachAxis(categories);
  auto* values = new QValueAxis;
  values->setTitleText(tr("seconds"));
  values->setLabelsFont(font());
  values->setLabelFormat(QStringLiteral("%.3g"));
  chart_->addAxis(values, Qt::AlignBottom);
  series->attachAxis(values);
  applyPalette();
}

QString CriticalPathPane::toCsv() const {
  QString csv = QStringLiteral("call_path,on_path_s,share,imbalance_s\n");
  for (int r = 0; r < model_->rowCount(); ++r) {
    QString name = model_->index(r, CallPathColumn).data().toString();
    csv += QStringLiteral("\"%1\"").arg(name.replace(QLatin1Char('"'), QStringLiteral("\"\"")));
    for (const int c : {OnPathColumn, ShareColumn, ImbalanceColumn})
      csv += QLatin1Char(',') + QString::number(model_->index(r, c).data(Qt::EditRole).toDouble(), 'g', 17);
    csv += QLatin1Char('\n');
  }
  return csv;
}

}  // namespace waitscope::views
