#pragma once
// Below the trees: the selected value over the processes (a bar chart, by rank
// or sorted) and its distribution (a box plot), following the selection.
#include <vector>

#include <QWidget>

class QBarCategoryAxis;
class QBarSet;
class QBoxSet;
class QChart;
class QChartView;
class QCheckBox;
class QValueAxis;

namespace waitscope::views {

class ChartPane : public QWidget {
  Q_OBJECT
 public:
  explicit ChartPane(QWidget* parent = nullptr);

  // One value per location with its label; `title` names metric and call path.
  void setValues(std::vector<double> values, QStringList labels, const QString& title, const QString& unit);
  void setSorted(bool sorted);
  bool sorted() const;

  // What the bar chart shows, in drawing order (tests and CSV).
  const std::vector<double>& barValues() const { return barValues_; }
  const QStringList& barLabels() const { return barLabels_; }
  // Min, lower quartile, median, upper quartile, max of the values.
  std::vector<double> quartiles() const { return quartiles_; }

 private:
  void rebuild();

  QChartView* barView_ = nullptr;
  QChartView* boxView_ = nullptr;
  QChart* barChart_ = nullptr;  // owned by its view, like everything below
  QChart* boxChart_ = nullptr;
  QBarSet* barSet_ = nullptr;
  QBarCategoryAxis* categoryAxis_ = nullptr;
  QValueAxis* valueAxis_ = nullptr;
  QBoxSet* boxSet_ = nullptr;
  QValueAxis* boxAxis_ = nullptr;
  QCheckBox* sortBox_ = nullptr;
  std::vector<double> values_, barValues_, quartiles_;
  QStringList labels_, barLabels_;
  QString title_, unit_;
};

}  // namespace waitscope::views
