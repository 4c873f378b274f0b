#pragma once
// Below the trees: the selected value over the processes (a bar chart, by rank
// or sorted) and its distribution (a box plot), following the selection.
#include <vector>

#include <QWidget>

#include "analysis/report/report.h"

class QAction;
class QBarCategoryAxis;
class QBarSet;
class QBoxSet;
class QChart;
class QChartView;
class QValueAxis;

namespace waitscope::views {

class ChartPane : public QWidget {
  Q_OBJECT
 public:
  explicit ChartPane(QWidget* parent = nullptr);

  // Height of each chart below which its axis labels and titles no longer fit: the title,
  // a plot of 80 px (five value-axis labels), the rank labels and the margins.
  static constexpr int kMinimumChartHeight = 140;

  // One value per location with its label; `title` names metric and call path. Times are
  // drawn in the unit that fits the largest one (the value axis is titled "ms", "us", ...).
  void setValues(std::vector<double> values, QStringList labels, const QString& title,
                 report::MetricUnit unit = report::MetricUnit::Seconds);
  // Bars largest first (the charts' context menu: Sort by Value).
  void setSorted(bool sorted);
  bool sorted() const;
  QAction* sortAction() const { return sortAction_; }

  // What the bar chart shows, in drawing order (tests and CSV).
  const std::vector<double>& barValues() const { return barValues_; }
  const QStringList& barLabels() const { return barLabels_; }
  // Min, lower quartile, median, upper quartile, max of the values.
  std::vector<double> quartiles() const { return quartiles_; }
  // What hovering bar `index` (in drawing order) shows: "Rank 3: 4.77 ms".
  QString barToolTip(int index) const;
  QChart* barChart() const { return barChart_; }
  QChart* boxChart() const { return boxChart_; }

 private:
  void rebuild();
  // Rank labels only while each fits below its bar (else Qt Charts would elide them to "...").
  void fitCategoryLabels();

  QChartView* barView_ = nullptr;
  QChartView* boxView_ = nullptr;
  QChart* barChart_ = nullptr;  // owned by its view, like everything below
  QChart* boxChart_ = nullptr;
  QBarSet* barSet_ = nullptr;
  QBarCategoryAxis* categoryAxis_ = nullptr;
  QValueAxis* valueAxis_ = nullptr;
  QBoxSet* boxSet_ = nullptr;
  QValueAxis* boxAxis_ = nullptr;
  QAction* sortAction_ = nullptr;  // the charts' context menu
  std::vector<double> values_, barValues_, quartiles_;
  QStringList labels_, barLabels_;
  QString title_;
  report::MetricUnit unit_ = report::MetricUnit::Seconds;
};

}  // namespace waitscope::views
