#include "chart_pane.h"

#include <algorithm>
#include <numeric>

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QBoxPlotSeries>
#include <QBoxSet>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QHBoxLayout>
#include <QValueAxis>
#include <QVBoxLayout>

namespace waitscope::views {
namespace {

// Tukey's hinges on sorted data: the median of each half.
double medianOf(const std::vector<double>& sorted, std::size_t begin, std::size_t end) {
  const std::size_t n = end - begin;
  if (n == 0) return 0.0;
  const std::size_t mid = begin + n / 2;
  return n % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2.0;
}

// Charts follow the palette: a dark window gets dark charts.
QChart* plainChart(bool dark) {
  auto* chart = new QChart;
  chart->setTheme(dark ? QChart::ChartThemeDark : QChart::ChartThemeLight);
  chart->legend()->hide();
  chart->setMargins(QMargins(4, 4, 4, 4));
  chart->setBackgroundRoundness(0);
  return chart;
}

}  // namespace

ChartPane::ChartPane(QWidget* parent) : QWidget(parent) {
  barView_ = new QChartView(this);
  boxView_ = new QChartView(this);
  barView_->setRenderHint(QPainter::Antialiasing);
  boxView_->setRenderHint(QPainter::Antialiasing);
  sortBox_ = new QCheckBox(tr("Sort by value"), this);
  connect(sortBox_, &QCheckBox::toggled, this, [this] { rebuild(); });

  auto* charts = new QHBoxLayout;
  charts->addWidget(barView_, 3);
  charts->addWidget(boxView_, 1);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addLayout(charts, 1);
  layout->addWidget(sortBox_);
  rebuild();
}

void ChartPane::setValues(std::vector<double> values, QStringList labels, const QString& title, const QString& unit) {
  values_ = std::move(values);
  labels_ = std::move(labels);
  title_ = title;
  unit_ = unit;
  rebuild();
}

void ChartPane::setSorted(bool sorted) { sortBox_->setChecked(sorted); }
bool ChartPane::sorted() const { return sortBox_->isChecked(); }

void ChartPane::rebuild() {
  std::vector<std::size_t> order(values_.size());
  std::iota(order.begin(), order.end(), 0);
  if (sorted())
    std::stable_sort(order.begin(), order.end(), [this](std::size_t a, std::size_t b) { return values_[a] > values_[b]; });
  barValues_.clear();
  barLabels_.clear();
  for (const std::size_t i : order) {
    barValues_.push_back(values_[i]);
    barLabels_.push_back(i < static_cast<std::size_t>(labels_.size()) ? labels_[static_cast<qsizetype>(i)] : QString::number(i));
  }

  // Fresh charts each time: reusing one leaves stale axes behind in Qt 6.4.
  const bool dark = palette().color(QPalette::Window).lightness() < 128;
  // The view owns the chart it shows and releases the one it replaces.
  QChart* bars = plainChart(dark);
  QChart* oldBars = barView_->chart();
  barView_->setChart(bars);
  delete oldBars;
  bars->setTitle(title_);
  auto* set = new QBarSet(title_);
  for (const double v : barValues_) *set << v;
  auto* series = new QBarSeries;
  series->append(set);
  series->setBarWidth(0.9);
  bars->addSeries(series);
  auto* categories = new QBarCategoryAxis;
  categories->append(barLabels_);
  categories->setLabelsVisible(barLabels_.size() <= 64);  // more labels than pixels help nobody
  auto* valueAxis = new QValueAxis;
  valueAxis->setTitleText(unit_);
  valueAxis->setLabelFormat(QStringLiteral("%.3g"));
  bars->addAxis(categories, Qt::AlignBottom);
  bars->addAxis(valueAxis, Qt::AlignLeft);
  series->attachAxis(categories);
  series->attachAxis(valueAxis);
  const double top = barValues_.empty() ? 0.0 : *std::max_element(barValues_.begin(), barValues_.end());
  valueAxis->setRange(std::min(0.0, top), top > 0.0 ? top * 1.05 : 1.0);

  std::vector<double> sortedValues = values_;
  std::sort(sortedValues.begin(), sortedValues.end());
  quartiles_.clear();
  if (!sortedValues.empty()) {
    const std::size_t n = sortedValues.size();
    quartiles_ = {sortedValues.front(), medianOf(sortedValues, 0, n / 2 + (n == 1 ? 1 : 0)),
                  medianOf(sortedValues, 0, n), medianOf(sortedValues, (n + 1) / 2 - (n == 1 ? 1 : 0), n),
                  sortedValues.back()};
  }
  QChart* box = plainChart(dark);
  QChart* oldBox = boxView_->chart();
  boxView_->setChart(box);
  delete oldBox;
  box->setTitle(tr("Distribution over processes"));
  if (!quartiles_.empty()) {
    auto* boxSet = new QBoxSet(quartiles_[0], quartiles_[1], quartiles_[2], quartiles_[3], quartiles_[4]);
    auto* boxSeries = new QBoxPlotSeries;
    boxSeries->append(boxSet);
    box->addSeries(boxSeries);
    box->createDefaultAxes();
    for (QAbstractAxis* axis : box->axes(Qt::Horizontal)) axis->setLabelsVisible(false);
    for (QAbstractAxis* axis : box->axes(Qt::Vertical)) {
      if (auto* v = qobject_cast<QValueAxis*>(axis)) {
        v->setRange(std::min(0.0, quartiles_[0]), quartiles_[4] > 0.0 ? quartiles_[4] * 1.05 : 1.0);
        v->setLabelFormat(QStringLiteral("%.3g"));
      }
    }
  }
}

}  // namespace waitscope::views
