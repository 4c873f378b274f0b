// The scaling series (model and window) on runs of 2, 4 and 8 ranks whose
// metrics are known by construction (tests/gui/views/pop_report.h): sorting by
// process count, the first run as reference, the values and colours, the CSV,
// the charts' points, and the lines naming files that could not be used.
#include <QAbstractItemModelTester>
#include <QBrush>
#include <QChart>
#include <QFile>
#include <QHeaderView>
#include <QImage>
#include <QLineSeries>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include "tests/gui/views/pop_report.h"
#include "views/model/pop_rating.h"
#include "views/model/scaling_series_model.h"
#include "views/widgets/header_fit.h"
#include "views/widgets/scaling_series_window.h"

using namespace waitscope;
using namespace waitscope::views;
using namespace waitscope::test;
using Model = ScalingSeriesModel;

namespace {

SeriesRun run(const QString& label, const PopRanks& ranks, bool withComp = true) {
  return {label, std::make_shared<ReportData>(popReport(ranks, withComp), QStringLiteral("/runs/") + label +
                                                                             QStringLiteral(".waitscope"))};
}

// Given out of order, with one run the POP metrics cannot use.
std::vector<SeriesRun> runs() {
  return {run(QStringLiteral("four"), fourRanks()), run(QStringLiteral("eight"), eightRanks()),
          run(QStringLiteral("nocomp"), twoRanks(), false), run(QStringLiteral("two"), twoRanks())};
}

double cell(const Model& model, int row, int column) {
  return model.data(model.index(row, column), Model::ValueRole).toDouble();
}

QList<QPointF> points(QChart* chart, const QString& name) {
  for (QAbstractSeries* s : chart->series())
    if (s->name() == name) return static_cast<QLineSeries*>(s)->points();
  return {};
}

}  // namespace

class ScalingSeriesTest : public QObject {
  Q_OBJECT

 private slots:
  void sortedByProcessesAgainstTheFirst() {
    Model model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setRuns(runs());
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.columnCount(), int{Model::ColumnCount});
    QCOMPARE(model.errors().size(), 1);
    QVERIFY2(model.errors().front().startsWith(QStringLiteral("/runs/nocomp.waitscope: ")),
             qPrintable(model.errors().front()));
    QCOMPARE(model.data(model.index(0, Model::RunColumn)).toString(), QStringLiteral("two (reference)"));
    QCOMPARE(model.data(model.index(1, Model::RunColumn)).toString(), QStringLiteral("four"));
    QCOMPARE(model.data(model.index(2, Model::RunColumn)).toString(), QStringLiteral("eight"));
    QCOMPARE(cell(model, 0, Model::ProcessesColumn), 2.0);
    QCOMPARE(cell(model, 2, Model::ProcessesColumn), 8.0);

    // The reference: runtime 13 s, comparisons 1 by definition, global = parallel efficiency.
    QCOMPARE(cell(model, 0, Model::RuntimeColumn), 13.0);
    QCOMPARE(cell(model, 0, Model::SpeedupColumn), 1.0);
    QCOMPARE(cell(model, 0, Model::ScalingEfficiencyColumn), 1.0);
    QCOMPARE(cell(model, 0, Model::ComputationScalingColumn), 1.0);
    QCOMPARE(cell(model, 0, Model::GlobalEfficiencyColumn), cell(model, 0, Model::ParallelEfficiencyColumn));
    QCOMPARE(cell(model, 0, Model::ParallelEfficiencyColumn), 12.0 / 13.0);

    // Four ranks: 12.5 s; eight ranks: 5 s.
    QCOMPARE(cell(model, 1, Model::SpeedupColumn), 13.0 / 12.5);
    QCOMPARE(cell(model, 1, Model::ScalingEfficiencyColumn), 13.0 / 12.5 * 2.0 / 4.0);
    QCOMPARE(cell(model, 1, Model::LoadBalanceColumn), 0.8);
    QCOMPARE(cell(model, 1, Model::SerialisationEfficiencyColumn), 10.0 / 12.0);
    QCOMPARE(cell(model, 1, Model::TransferEfficiencyColumn), 12.0 / 12.5);
    QCOMPARE(cell(model, 1, Model::ComputationScalingColumn), 24.0 / 32.0);
    QCOMPARE(cell(model, 2, Model::SpeedupColumn), 13.0 / 5.0);
    QCOMPARE(cell(model, 2, Model::ScalingEfficiencyColumn), 13.0 / 5.0 * 2.0 / 8.0);
    QCOMPARE(cell(model, 2, Model::ComputationScalingColumn), 24.0 / 28.0);
    QCOMPARE(cell(model, 2, Model::TransferEfficiencyColumn), (5.0 - 0.75) / 5.0);

    QCOMPARE(model.data(model.index(1, Model::SpeedupColumn)).toString(), QStringLiteral("1.04"));
    QCOMPARE(model.data(model.index(1, Model::ScalingEfficiencyColumn)).toString(), QStringLiteral("52.0 %"));
    const auto colour = [&](int row, int column) {
      return model.data(model.index(row, column), Qt::BackgroundRole).value<QBrush>().color();
    };
    QCOMPARE(colour(1, Model::LoadBalanceColumn), popRatingColor(PopRating::Good));         // exactly 0.8
    QCOMPARE(colour(1, Model::ComputationScalingColumn), popRatingColor(PopRating::Fair));  // 0.75
    QCOMPARE(colour(1, Model::ScalingEfficiencyColumn), popRatingColor(PopRating::Poor));   // 0.52
    QCOMPARE(model.data(model.index(1, Model::SpeedupColumn), Qt::BackgroundRole), QVariant());  // not an efficiency
  }

  void equalProcessCountsKeepTheirOrder() {
    Model model;
    model.setRuns({run(QStringLiteral("b"), fourRanks()), run(QStringLiteral("a"), fourRanks()),
                   run(QStringLiteral("c"), twoRanks())});
    QCOMPARE(model.data(model.index(0, Model::RunColumn), Model::ValueRole).toString(), QStringLiteral("c"));
    QCOMPARE(model.data(model.index(1, Model::RunColumn), Model::ValueRole).toString(), QStringLiteral("b"));
    QCOMPARE(model.data(model.index(2, Model::RunColumn), Model::ValueRole).toString(), QStringLiteral("a"));
    model.setRuns({});
    QCOMPARE(model.rowCount(), 0);
    QCOMPARE(model.toCsv().count(QLatin1Char('\n')), 1);  // the header alone
  }

  void csvNamesColumnsAndUnits() {
    Model model;
    model.setRuns(runs());
    const QStringList lines = model.toCsv().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 4);
    QCOMPARE(lines[0], QStringLiteral("run,processes,runtime_s,speedup,scaling_efficiency_percent,"
                                      "parallel_efficiency_percent,load_balance_percent,"
                                      "communication_efficiency_percent,serialisation_efficiency_percent,"
                                      "transfer_efficiency_percent,computation_scaling_percent,"
                                      "global_efficiency_percent"));
    const QStringList four = lines[2].split(QLatin1Char(','));
    QCOMPARE(four.size(), int{Model::ColumnCount});
    QCOMPARE(four[0], QStringLiteral("four"));
    QCOMPARE(four[1], QStringLiteral("4"));
    QCOMPARE(four[2].toDouble(), 12.5);
    QCOMPARE(four[3].toDouble(), 13.0 / 12.5);
    QCOMPARE(four[4].toDouble(), 100.0 * 13.0 / 12.5 * 2.0 / 4.0);
    QCOMPARE(four[6].toDouble(), 80.0);
    QCOMPARE(four[10].toDouble(), 75.0);
    QCOMPARE(lines[1].section(QLatin1Char(','), 0, 1), QStringLiteral("two,2"));
    QCOMPARE(lines[3].section(QLatin1Char(','), 0, 1), QStringLiteral("eight,8"));

    // A label with a comma stays one field.
    model.setRuns({run(QStringLiteral("n=2, fast"), twoRanks())});
    QVERIFY(model.toCsv().contains(QStringLiteral("\n\"n=2, fast\",2,")));
  }

  void windowShowsTableChartsAndProblems() {
    ScalingSeriesWindow window;
    window.resize(1024, 700);
    window.setRuns(runs(), {QStringLiteral("/runs/missing.waitscope: no such file (check the path)")});
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QCOMPARE(window.table()->model()->rowCount(), 3);
    QCOMPARE(window.problems().size(), 2);
    QVERIFY(window.problems()[0].startsWith(QStringLiteral("/runs/missing.waitscope")));
    QVERIFY(window.problems()[1].startsWith(QStringLiteral("/runs/nocomp.waitscope")));
    QCOMPARE(elidedHeaderTexts(window.table()->horizontalHeader()), QStringList());

    const QList<QPointF> balance = points(window.efficiencyChart(), QStringLiteral("Load balance"));
    QCOMPARE(balance.size(), 3);
    QCOMPARE(balance[0], QPointF(2, 100.0 * 12.0 / 12.0));
    QCOMPARE(balance[1], QPointF(4, 80.0));
    QCOMPARE(balance[2], QPointF(8, 100.0));
    QCOMPARE(points(window.efficiencyChart(), QStringLiteral("POP threshold")).front().y(), 80.0);
    const QList<QPointF> measured = points(window.speedupChart(), QStringLiteral("Measured"));
    const QList<QPointF> ideal = points(window.speedupChart(), QStringLiteral("Ideal"));
    QCOMPARE(measured, (QList<QPointF>{{2, 1.0}, {4, 13.0 / 12.5}, {8, 13.0 / 5.0}}));
    QCOMPARE(ideal, (QList<QPointF>{{2, 1.0}, {4, 2.0}, {8, 4.0}}));

    QTemporaryDir dir;
    const QString csv = dir.filePath(QStringLiteral("series.csv"));
    QCOMPARE(window.exportCsv(csv), QString());
    QFile file(csv);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(QString::fromUtf8(file.readAll()), window.model()->toCsv());
    const QString png = dir.filePath(QStringLiteral("series.png"));
    QCOMPARE(window.exportPng(png), QString());
    QCOMPARE(QImage(png).size(), window.size() * window.devicePixelRatio());
    QVERIFY(window.exportCsv(dir.filePath(QStringLiteral("no/such/dir/x.csv"))).contains(QStringLiteral("x.csv")));
  }
};

QTEST_MAIN(ScalingSeriesTest)
#include "scaling_series_test.moc"
