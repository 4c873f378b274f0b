#include "views/timeline/critical_path_pane.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
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

QStandardItem* number(double value) {
  auto* item = new QStandardItem;
  item->setData(value, Qt::DisplayRole);  // a number, so the column sorts numerically
  item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
  item->setEditable(false);
  return item;
}

}  // namespace

CriticalPathPane::CriticalPathPane(Selection* selection, QWidget* parent)
    : QWidget(parent),
      selection_(selection),
      model_(new QStandardItemModel(this)),
      proxy_(new QSortFilterProxyModel(this)),
      table_(new QTableView(this)),
      chart_(new QChart) {
  model_->setHorizontalHeaderLabels(
      {tr("Call path"), tr("On the critical path (s)"), tr("Share of the path (%)"), tr("Imbalance (s)")});
  proxy_->setSourceModel(model_);
  proxy_->setSortRole(Qt::DisplayRole);
  table_->setModel(proxy_);
  table_->setSortingEnabled(true);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->horizontalHeader()->setSectionResizeMode(CallPathColumn, QHeaderView::Stretch);
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
  auto* chartView = new QChartView(chart_, this);
  chartView->setRenderHint(QPainter::Antialiasing);
  auto* split = new QSplitter(Qt::Vertical, this);
  split->addWidget(table_);
  split->addWidget(chartView);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(split);
  followSelection();
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
    for (const report::PathProfileRow& row : report::criticalPathProfile(*report_)) {
      auto* name = new QStandardItem(QString::fromStdString(report::callPathString(*report_, row.callPath)));
      name->setData(row.callPath, kCallPathRole);
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
  QStringList names;
  // The largest at the top: horizontal bars run bottom-up, so add them smallest first.
  const int n = std::min(kChartRows, model_->rowCount());
  std::vector<std::pair<double, QString>> top;
  for (int r = 0; r < model_->rowCount(); ++r)
    top.emplace_back(model_->item(r, OnPathColumn)->data(Qt::DisplayRole).toDouble(),
                     model_->item(r, CallPathColumn)->text().section(QLatin1Char('/'), -1));
  std::stable_sort(top.begin(), top.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  for (int i = n - 1; i >= 0; --i) {
    *set << top[static_cast<std::size_t>(i)].first;
    names << top[static_cast<std::size_t>(i)].second;
  }
  series->append(set);
  chart_->addSeries(series);
  auto* categories = new QBarCategoryAxis;
  categories->append(names);
  chart_->addAxis(categories, Qt::AlignLeft);
  series->attachAxis(categories);
  auto* values = new QValueAxis;
  values->setTitleText(tr("seconds"));
  chart_->addAxis(values, Qt::AlignBottom);
  series->attachAxis(values);
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
