#include "views/widgets/chart_pane.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>

#include <QAction>
#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QBoxPlotSeries>
#include <QBoxSet>
#include <QChart>
#include <QChartView>
#include <QCursor>
#include <QFontMetrics>
#include <QGraphicsLayout>
#include <QHBoxLayout>
#include <QLocale>
#include <QToolTip>
#include <QValueAxis>

#include "views/model/number_format.h"
#include "views/model/value_mode.h"

namespace waitscope::views {
namespace {

// Tukey's hinges on sorted data: the median of each half.
double medianOf(const std::vector<double>& sorted, std::size_t begin, std::size_t end) {
  const std::size_t n = end - begin;
  if (n == 0) return 0.0;
  const std::size_t mid = begin + n / 2;
  return n % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2.0;
}

// An axis from zero (or the smallest value, when negative: a difference of two runs) to the
// largest value, with a margin on the side away from zero.
std::pair<double, double> axisRange(double lowest, double highest) {
  const double from = std::min(0.0, lowest) * 1.05, to = std::max(0.0, highest) * 1.05;
  return {from, to > from ? to : from + 1.0};
}

// Ticks at round numbers, labelled with the decimals their spacing needs and the locale's
// thousands separators ("10,000", "2.5"), never "9.46e+03".
void setAxisRange(QValueAxis* axis, double from, double to) {
  axis->setTickCount(5);
  axis->setRange(from, to);
  axis->applyNiceNumbers();
  const double step = (axis->max() - axis->min()) / std::max(1, axis->tickCount() - 1);
  int decimals = 0;
  for (double scaled = step; decimals < 9 && std::fabs(scaled - std::round(scaled)) > 1e-6 * std::max(1.0, scaled);
       scaled *= 10.0)
    ++decimals;
  axis->setLabelFormat(QStringLiteral("%.") + QString::number(decimals) + QLatin1Char('f'));
}

// Charts follow the palette: a dark window gets dark charts.
QChart* plainChart(bool dark) {
  auto* chart = new QChart;
  chart->setTheme(dark ? QChart::ChartThemeDark : QChart::ChartThemeLight);
  chart->setLocalizeNumbers(true);  // axis labels in the application's locale, as the trees
  chart->setLocale(QLocale());
  chart->legend()->hide();
  chart->setMargins(QMargins(4, 4, 4, 4));
  chart->layout()->setContentsMargins(0, 0, 0, 0);  // the plots get the height, not a frame around them
  chart->setBackgroundRoundness(0);
  return chart;
}

}  // namespace

ChartPane::ChartPane(QWidget* parent) : QWidget(parent) {
  const bool dark = palette().color(QPalette::Window).lightness() < 128;
  barChart_ = plainChart(dark);
  barSet_ = new QBarSet(QString());
  auto* bars = new QBarSeries;
  bars->append(barSet_);
  bars->setBarWidth(0.9);
  barChart_->addSeries(bars);
  categoryAxis_ = new QBarCategoryAxis;
  valueAxis_ = new QValueAxis;
  barChart_->addAxis(categoryAxis_, Qt::AlignBottom);
  barChart_->addAxis(valueAxis_, Qt::AlignLeft);
  bars->attachAxis(categoryAxis_);
  bars->attachAxis(valueAxis_);
  barView_ = new QChartView(barChart_, this);

  boxChart_ = plainChart(dark);
  boxChart_->setTitle(tr("Distribution"));  // a quarter of the width: a longer title would be elided
  boxSet_ = new QBoxSet;
  auto* boxes = new QBoxPlotSeries;
  boxes->append(boxSet_);
  boxChart_->addSeries(boxes);
  auto* boxCategory = new QBarCategoryAxis;
  boxCategory->append(QStringLiteral(" "));
  boxCategory->setLabelsVisible(false);
  boxAxis_ = new QValueAxis;
  boxChart_->addAxis(boxCategory, Qt::AlignBottom);
  boxChart_->addAxis(boxAxis_, Qt::AlignLeft);
  boxes->attachAxis(boxCategory);
  boxes->attachAxis(boxAxis_);
  boxView_ = new QChartView(boxChart_, this);
  barView_->setRenderHint(QPainter::Antialiasing);
  boxView_->setRenderHint(QPainter::Antialiasing);
  connect(barChart_, &QChart::plotAreaChanged, this, [this] { fitCategoryLabels(); });
  connect(barSet_, &QBarSet::hovered, this, [this](bool entered, int index) {
    if (entered)
      QToolTip::showText(QCursor::pos(), barToolTip(index), barView_);
    else
      QToolTip::hideText();
  });
  // Sorting is in the charts' context menu (and View > Charts Sorted by Value), not in a
  // check box below them: every pixel of height goes to the plots, so that the trees above
  // keep theirs in small windows.
  sortAction_ = new QAction(tr("Sort by Value"), this);
  sortAction_->setCheckable(true);
  connect(sortAction_, &QAction::toggled, this, [this] { rebuild(); });
  for (QChartView* view : {barView_, boxView_}) {
    view->setContextMenuPolicy(Qt::ActionsContextMenu);
    view->addAction(sortAction_);
    // Below this the axes lose their labels and titles to "...": the splitter and the docks
    // around the browser must leave the charts at least this much.
    view->setMinimumHeight(kMinimumChartHeight);
  }
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(barView_, 3);
  layout->addWidget(boxView_, 1);
  rebuild();
}

void ChartPane::setValues(std::vector<double> values, QStringList labels, const QString& title,
                          report::MetricUnit unit) {
  values_ = std::move(values);
  labels_ = std::move(labels);
  title_ = title;
  unit_ = unit;
  rebuild();
}

void ChartPane::setSorted(bool sorted) { sortAction_->setChecked(sorted); }
bool ChartPane::sorted() const { return sortAction_->isChecked(); }

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

  // The charts are built once and updated in place: rebuilding axes and their
  // text layout on every selection would cost more than the trees' refill.
  barChart_->setTitle(title_);
  const auto [lowest, highest] = barValues_.empty() ? std::pair(0.0, 0.0) : [this] {
    const auto [lo, hi] = std::minmax_element(barValues_.begin(), barValues_.end());
    return std::pair(*lo, *hi);
  }();
  // Times and bytes in the unit of the largest magnitude, so that the labels need no exponent.
  const double largest = std::max(std::fabs(lowest), std::fabs(highest));
  const TimeScale scale = unit_ == report::MetricUnit::Seconds ? timeScaleFor(largest)
                          : unit_ == report::MetricUnit::Bytes ? byteScaleFor(largest)
                                                               : TimeScale{1.0, unitName(unit_)};
  QList<qreal> heights;
  heights.reserve(static_cast<qsizetype>(barValues_.size()));
  for (const double v : barValues_) heights.append(v * scale.factor);
  if (barSet_->count() == heights.size()) {
    for (qsizetype i = 0; i < heights.size(); ++i) barSet_->replace(i, heights[i]);
  } else {
    barSet_->remove(0, barSet_->count());
    barSet_->append(heights);
  }
  if (categoryAxis_->categories() != barLabels_) {
    categoryAxis_->clear();
    categoryAxis_->append(barLabels_);
  }
  fitCategoryLabels();
  valueAxis_->setTitleText(scale.unit);
  const auto [barFrom, barTo] = axisRange(lowest * scale.factor, highest * scale.factor);
  setAxisRange(valueAxis_, barFrom, barTo);

  std::vector<double> sortedValues = values_;
  std::sort(sortedValues.begin(), sortedValues.end());
  quartiles_.clear();
  if (!sortedValues.empty()) {
    const std::size_t n = sortedValues.size();
    quartiles_ = {sortedValues.front(), medianOf(sortedValues, 0, n / 2 + (n == 1 ? 1 : 0)),
                  medianOf(sortedValues, 0, n), medianOf(sortedValues, (n + 1) / 2 - (n == 1 ? 1 : 0), n),
                  sortedValues.back()};
  }
  const double q[5] = {0, 0, 0, 0, 0};
  const double* box = quartiles_.empty() ? q : quartiles_.data();
  for (int i = 0; i < 5; ++i) boxSet_->setValue(i, box[i] * scale.factor);
  boxAxis_->setTitleText(scale.unit);
  const auto [boxFrom, boxTo] = axisRange(box[0] * scale.factor, box[4] * scale.factor);
  setAxisRange(boxAxis_, boxFrom, boxTo);
}

QString ChartPane::barToolTip(int index) const {
  if (index < 0 || index >= barLabels_.size()) return {};
  const QString& label = barLabels_[index];
  bool rank = false;
  label.toInt(&rank);
  return (rank ? tr("Rank %1").arg(label) : label) + QStringLiteral(": ") +
         formatQuantity(barValues_[static_cast<std::size_t>(index)], unit_);
}

void ChartPane::fitCategoryLabels() {
  const QFontMetrics metrics(categoryAxis_->labelsFont());
  int widest = 0;
  for (const QString& label : barLabels_) widest = std::max(widest, metrics.horizontalAdvance(label));
  const qreal perBar = barChart_->plotArea().width() / std::max<qsizetype>(1, barLabels_.size());
  const bool fits = !barLabels_.isEmpty() && widest + metrics.averageCharWidth() <= perBar;
  if (categoryAxis_->labelsVisible() != fits) categoryAxis_->setLabelsVisible(fits);
}

}  // namespace waitscope::views
