#include "views/widgets/scaling_series_window.h"

#include <algorithm>
#include <cmath>

#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLegendMarker>
#include <QLineSeries>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollBar>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>
#include <QValueAxis>

#include "analysis/report/pop_metrics.h"
#include "views/widgets/widget_export.h"

namespace waitscope::views {
namespace {

// The efficiencies the chart draws, in legend order.
constexpr int kCharted[] = {ScalingSeriesModel::ParallelEfficiencyColumn,
                            ScalingSeriesModel::LoadBalanceColumn,
                            ScalingSeriesModel::CommunicationEfficiencyColumn,
                            ScalingSeriesModel::SerialisationEfficiencyColumn,
                            ScalingSeriesModel::TransferEfficiencyColumn,
                            ScalingSeriesModel::ComputationScalingColumn,
                            ScalingSeriesModel::GlobalEfficiencyColumn};

// A chart in the palette's lightness, with its legend on the right.
QChart* seriesChart(const QString& title, bool dark) {
  auto* chart = new QChart;
  chart->setTheme(dark ? QChart::ChartThemeDark : QChart::ChartThemeLight);
  chart->setTitle(title);
  chart->setMargins(QMargins(4, 4, 4, 4));
  chart->setBackgroundRoundness(0);
  chart->legend()->setAlignment(Qt::AlignRight);
  return chart;
}

// The process counts of the runs as labels on the x axis, at their values.
QCategoryAxis* processAxis(const std::vector<report::PopMetrics>& runs) {
  auto* axis = new QCategoryAxis;
  axis->setTitleText(QObject::tr("Processes"));
  axis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
  std::uint32_t low = runs.empty() ? 1 : runs.front().processes, high = low;
  for (const report::PopMetrics& run : runs) {
    const QString label = QString::number(run.processes);
    if (!axis->categoriesLabels().contains(label)) axis->append(label, run.processes);
    low = std::min(low, run.processes);
    high = std::max(high, run.processes);
  }
  const double pad = std::max(0.5, (high - low) * 0.05);
  axis->setRange(low - pad, high + pad);
  return axis;
}

// Seven colours told apart also by most colour-blind readers (Okabe and Ito's palette and black).
constexpr QRgb kLineColours[] = {0x000000, 0xe69f00, 0x56b4e9, 0x009e73, 0xd55e00, 0x0072b2, 0xcc79a7};

QLineSeries* line(const QString& name, bool points) {
  auto* series = new QLineSeries;
  series->setName(name);
  series->setPointsVisible(points);
  return series;
}

void dash(QLineSeries* series) {
  QPen pen = series->pen();
  pen.setStyle(Qt::DashLine);
  series->setPen(pen);
}

void attach(QChart* chart, QLineSeries* series, QAbstractAxis* x, QAbstractAxis* y) {
  chart->addSeries(series);
  series->attachAxis(x);
  series->attachAxis(y);
}

}  // namespace

ScalingSeriesWindow::ScalingSeriesWindow(QWidget* parent)
    : QWidget(parent, Qt::Window),
      model_(new ScalingSeriesModel(this)),
      table_(new QTableView(this)),
      problemsLabel_(new QLabel(this)) {
  setObjectName(QStringLiteral("scalingSeriesWindow"));
  setWindowTitle(tr("Scaling Series — Waitscope"));
  resize(1100, 750);
  table_->setModel(model_);
  table_->verticalHeader()->hide();
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  problemsLabel_->setObjectName(QStringLiteral("seriesProblems"));
  problemsLabel_->setWordWrap(true);
  problemsLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  problemsLabel_->setStyleSheet(QStringLiteral("color: #b3261e"));

  const bool dark = palette().color(QPalette::Window).lightness() < 128;
  efficiencyChart_ = seriesChart(tr("POP efficiencies (dashed: the 80 % threshold)"), dark);
  speedupChart_ = seriesChart(tr("Speed-up against the reference"), dark);
  auto* efficiencyView = new QChartView(efficiencyChart_, this);
  auto* speedupView = new QChartView(speedupChart_, this);
  efficiencyView->setRenderHint(QPainter::Antialiasing);
  speedupView->setRenderHint(QPainter::Antialiasing);
  auto* charts = new QWidget(this);
  auto* chartLayout = new QHBoxLayout(charts);
  chartLayout->setContentsMargins(0, 0, 0, 0);
  chartLayout->addWidget(efficiencyView, 3);
  chartLayout->addWidget(speedupView, 2);
  splitter_ = new QSplitter(Qt::Vertical, this);
  splitter_->addWidget(table_);
  splitter_->addWidget(charts);
  splitter_->setStretchFactor(0, 0);
  splitter_->setStretchFactor(1, 1);

  auto* exportCsvButton = new QPushButton(tr("Export &CSV…"), this);
  auto* exportPngButton = new QPushButton(tr("Export &PNG…"), this);
  connect(exportCsvButton, &QPushButton::clicked, this, [this] { exportInteractively(false); });
  connect(exportPngButton, &QPushButton::clicked, this, [this] { exportInteractively(true); });
  auto* buttons = new QHBoxLayout;
  buttons->addStretch(1);
  buttons->addWidget(exportCsvButton);
  buttons->addWidget(exportPngButton);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(problemsLabel_);
  layout->addWidget(splitter_, 1);
  layout->addLayout(buttons);
  setRuns({}, {});
}

void ScalingSeriesWindow::setRuns(std::vector<SeriesRun> runs, const QStringList& unreadable) {
  model_->setRuns(std::move(runs));
  problems_ = unreadable + model_->errors();
  problemsLabel_->setText(problems_.join(QLatin1Char('\n')));
  problemsLabel_->setVisible(!problems_.isEmpty());
  setWindowTitle(model_->rowCount() ? tr("Scaling Series of %n Runs — Waitscope", nullptr, model_->rowCount())
                                    : tr("Scaling Series — Waitscope"));
  rebuildCharts();
  fitTable();
}

void ScalingSeriesWindow::fitTable() {
  // The table as tall as its rows (up to 40 % of the splitter), the charts get the rest.
  if (!splitter_) return;
  table_->resizeColumnsToContents();
  const int rows = table_->verticalHeader()->length();
  const int wanted = table_->horizontalHeader()->sizeHint().height() + rows + 2 * table_->frameWidth() +
                     (table_->horizontalScrollBar()->isVisible() ? table_->horizontalScrollBar()->height() : 0);
  const int total = std::max(splitter_->height(), 400);
  const int tableHeight = std::min(wanted + 2, total * 2 / 5);
  splitter_->setSizes({tableHeight, total - tableHeight});
}

void ScalingSeriesWindow::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  fitTable();
}

void ScalingSeriesWindow::rebuildCharts() {
  for (QChart* chart : {efficiencyChart_, speedupChart_}) {
    chart->removeAllSeries();
    for (QAbstractAxis* axis : chart->axes()) {
      chart->removeAxis(axis);
      delete axis;
    }
  }
  const std::vector<report::PopMetrics>& runs = model_->metrics();

  QCategoryAxis* x = processAxis(runs);
  auto* y = new QValueAxis;
  y->setTitleText(tr("Efficiency (%)"));
  y->setLabelFormat(QStringLiteral("%d"));
  double top = 100.0;
  for (const report::PopMetrics& run : runs)
    for (const int column : kCharted) top = std::max(top, ScalingSeriesModel::value(run, column) * 100.0);
  const int steps = static_cast<int>(std::ceil(top * 1.02 / 20.0));  // ticks every 20 %
  y->setRange(0.0, steps * 20.0);
  y->setTickCount(steps + 1);
  efficiencyChart_->addAxis(x, Qt::AlignBottom);
  efficiencyChart_->addAxis(y, Qt::AlignLeft);
  for (std::size_t i = 0; i < std::size(kCharted); ++i) {
    const int column = kCharted[i];
    QLineSeries* series = line(ScalingSeriesModel::columnName(column), true);
    for (const report::PopMetrics& run : runs)
      series->append(run.processes, ScalingSeriesModel::value(run, column) * 100.0);
    attach(efficiencyChart_, series, x, y);  // the chart's theme colours it; then ours
    series->setColor(QColor::fromRgb(kLineColours[i]));
  }
  // POP's line: below it an efficiency needs attention.
  QLineSeries* threshold = line(tr("POP threshold"), false);
  threshold->append(x->min(), report::kPopThreshold * 100.0);
  threshold->append(x->max(), report::kPopThreshold * 100.0);
  attach(efficiencyChart_, threshold, x, y);
  threshold->setColor(Qt::gray);
  dash(threshold);
  for (QLegendMarker* marker : efficiencyChart_->legend()->markers(threshold)) marker->setVisible(false);

  QCategoryAxis* sx = processAxis(runs);
  auto* sy = new QValueAxis;
  sy->setTitleText(tr("Speed-up"));
  sy->setLabelFormat(QStringLiteral("%.1f"));
  speedupChart_->addAxis(sx, Qt::AlignBottom);
  speedupChart_->addAxis(sy, Qt::AlignLeft);
  QLineSeries* measured = line(tr("Measured"), true);
  QLineSeries* ideal = line(tr("Ideal"), false);
  double highest = 1.0;
  for (const report::PopMetrics& run : runs) {
    const double perfect = static_cast<double>(run.processes) / runs.front().processes;
    measured->append(run.processes, run.speedup.value_or(1.0));
    ideal->append(run.processes, perfect);
    highest = std::max({highest, perfect, run.speedup.value_or(1.0)});
  }
  sy->setRange(0.0, highest * 1.1);
  sy->applyNiceNumbers();
  attach(speedupChart_, measured, sx, sy);
  attach(speedupChart_, ideal, sx, sy);
  ideal->setColor(Qt::gray);
  dash(ideal);
}

QString ScalingSeriesWindow::exportCsv(const QString& path) const { return writeTextFile(model_->toCsv(), path); }

QString ScalingSeriesWindow::exportPng(const QString& path) { return views::exportPng(this, path); }

void ScalingSeriesWindow::exportInteractively(bool png) {
  const QString path = QFileDialog::getSaveFileName(this, tr("Export the scaling series"), QString(),
                                                    png ? tr("PNG images (*.png)") : tr("CSV tables (*.csv)"));
  if (path.isEmpty()) return;
  const QString error = png ? exportPng(path) : exportCsv(path);
  if (!error.isEmpty()) QMessageBox::warning(this, tr("Export failed"), error);
}

}  // namespace waitscope::views
