// The browser's models against hand-computed values of sampleReport(): the
// inclusive/exclusive rule, every value mode, masks, the flat profile, and
// Qt's model consistency checks (QAbstractItemModelTester).
#include <QAbstractItemModelTester>
#include <QLocale>
#include <QSignalSpy>
#include <QTest>

#include "tests/gui/views/sample_report.h"
#include "views/model/report_data.h"
#include "views/model/selection.h"
#include "views/model/tree_filter_proxy.h"
#include "views/model/value_tree_model.h"

using namespace waitscope;
using namespace waitscope::views;
using namespace waitscope::test;

class ValueTreeModelTest : public QObject {
  Q_OBJECT

  std::shared_ptr<ReportData> data_;

  double sumOf(const std::vector<double>& v) {
    double s = 0;
    for (double x : v) s += x;
    return s;
  }

 private slots:
  void init() { data_ = std::make_shared<ReportData>(sampleReport(), QStringLiteral("sample.waitscope")); }

  void metricTreeInclusiveAndExclusive() {
    ValueTreeModel model(QStringLiteral("Metric"));
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setTree(&data_->metricTree());
    std::vector<report::MetricUnit> units;
    for (const report::Metric& m : data_->report().metrics) units.push_back(m.unit);
    model.setNodeUnits(units);
    model.setValues(data_->metricExclusive(), {0, 0, true}, report::MetricUnit::Seconds);
    QCOMPARE(model.rowCount(), 2);  // time, visits
    QCOMPARE(model.absoluteValue(kTime), 8.75);  // collapsed: inclusive
    model.setExpanded(kTime, true);
    QCOMPARE(model.absoluteValue(kTime), 6.0);   // expanded: exclusive
    QCOMPARE(model.absoluteValue(kMpi), 2.75);
    model.setExpanded(kMpi, true);
    QCOMPARE(model.absoluteValue(kMpi), 2.0);
    QCOMPARE(model.absoluteValue(kLateSender), 0.75);  // a leaf is the same either way
    QCOMPARE(model.absoluteValue(kVisits), 9.0);
    QCOMPARE(model.data(model.indexOfNode(kLateSender), Qt::DisplayRole).toString(), QStringLiteral("Late Sender"));
    QCOMPARE(model.data(model.indexOfNode(kVisits, ValueTreeModel::ValueColumn)).toString(), QStringLiteral("9"));

    // Percent of total: each metric against its own root.
    model.setMode(ValueMode::PercentOfTotal);
    QCOMPARE(model.shownValue(kLateSender), 100.0 * 0.75 / 8.75);
    QCOMPARE(model.shownValue(kVisits), 100.0);
    // Peer percent: against the largest shown value at the same depth of the same root (mpi 2.0
    // is alone at depth 1; Time is no peer of the 9 visits).
    model.setMode(ValueMode::PeerPercent);
    QCOMPARE(model.shownValue(kMpi), 100.0);
    QCOMPARE(model.shownValue(kTime), 100.0);
  }

  void swapTreeKeepsIndexesAndExpansion() {
    // A live run's next snapshot: same shape, new values; no reset, persistent indexes stay.
    report::Report doubled = sampleReport();
    for (report::SeverityRow& row : doubled.severities)
      for (double& v : row.values) v *= 2;
    const ReportData next(std::move(doubled), QStringLiteral("sample.waitscope"));
    ValueTreeModel model(QStringLiteral("Call path"));
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setTree(&data_->callTree());
    model.setExpanded(kFoo, true);
    const QPersistentModelIndex fooRecv = model.indexOfNode(kFooRecv);
    QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
    model.swapTree(&next.callTree());
    model.setValues(next.callPathValues(next.metricMask({{kTime, true}})), {}, report::MetricUnit::Seconds);
    QCOMPARE(resets.size(), 0);
    QCOMPARE(model.tree(), &next.callTree());
    QVERIFY(fooRecv.isValid());
    QCOMPARE(ValueTreeModel::nodeOf(fooRecv), std::uint32_t(kFooRecv));
    QVERIFY(model.isExpanded(kFoo));
    QCOMPARE(model.absoluteValue(kFooRecv), 2 * 1.5);  // time with MPI and Late Sender, doubled
    // A tree of another size is a new tree: reset.
    report::Report bigger = sampleReport();
    bigger.callPaths.push_back({0, 2, "app.c", 33});
    const ReportData other(std::move(bigger), QStringLiteral("sample.waitscope"));
    model.swapTree(&other.callTree());
    QCOMPARE(resets.size(), 1);
    QVERIFY(!model.isExpanded(kFoo));
  }

  void callTreeFollowsMetricPicks() {
    ValueTreeModel model(QStringLiteral("Call path"));
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setTree(&data_->callTree());

    // mpi collapsed = mpi + latesender.
    std::vector<double> values = data_->callPathValues(data_->metricMask({{kMpi, true}}));
    QCOMPARE(values, (std::vector<double>{0, 1.25, 0, 1.5}));
    model.setValues(values, {8.75, sumOf(values), false}, report::MetricUnit::Seconds);
    QCOMPARE(model.absoluteValue(kMain), 2.75);
    model.setExpanded(kMain, true);
    QCOMPARE(model.absoluteValue(kMain), 0.0);
    QCOMPARE(model.absoluteValue(kFoo), 1.5);
    model.setMode(ValueMode::PercentOfSelection);
    QCOMPARE(model.shownValue(kMainRecv), 100.0 * 1.25 / 2.75);
    model.setMode(ValueMode::PercentOfTotal);
    QCOMPARE(model.shownValue(kMainRecv), 100.0 * 1.25 / 8.75);
    QCOMPARE(model.data(model.indexOfNode(kMainRecv, ValueTreeModel::ValueColumn)).toString(),
             QLocale().toString(100.0 * 1.25 / 8.75, 'f', 2) + QStringLiteral(" %"));

    // mpi expanded = mpi alone.
    values = data_->callPathValues(data_->metricMask({{kMpi, false}}));
    QCOMPARE(values, (std::vector<double>{0, 1.0, 0, 1.0}));
    // Two picks sum.
    values = data_->callPathValues(data_->metricMask({{kLateSender, true}, {kVisits, true}}));
    QCOMPARE(values, (std::vector<double>{3, 6.25, 0, 0.5}));
  }

  void systemTreeFollowsCallPathPicks() {
    ValueTreeModel model(QStringLiteral("System"));
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setTree(&data_->systemTree());
    const std::vector<char> metrics = data_->metricMask({{kMpi, true}});
    // main collapsed: every call path.
    std::vector<double> values = data_->systemValues(data_->locationValues(metrics, data_->callPathMask({{kMain, true}})));
    QCOMPARE(values, (std::vector<double>{0, 0, 0, 0.75, 2.0, 0}));
    model.setValues(values, {8.75, 2.75, false}, report::MetricUnit::Seconds);
    QCOMPARE(model.absoluteValue(kMachine), 2.75);
    QCOMPARE(model.absoluteValue(kNodeA), 2.75);
    QCOMPARE(model.absoluteValue(kNodeB), 0.0);
    model.setMode(ValueMode::PeerPercent);
    QCOMPARE(model.shownValue(kRank0), 37.5);
    QCOMPARE(model.shownValue(kRank1), 100.0);
    // foo expanded: foo alone has no MPI time; foo collapsed includes its MPI_Recv.
    QCOMPARE(data_->locationValues(metrics, data_->callPathMask({{kFoo, false}})), (std::vector<double>{0, 0, 0}));
    QCOMPARE(data_->locationValues(metrics, data_->callPathMask({{kFoo, true}})), (std::vector<double>{0, 1.5, 0}));
    QCOMPARE(data_->locationOfSystemNode(kRank2), 2u);
    QCOMPARE(data_->systemNodeOfLocation(2), static_cast<std::uint32_t>(kRank2));
  }

  void flatProfileSumsCallPathsOfARegion() {
    const std::vector<char> metrics = data_->metricMask({{kMpi, true}});
    QCOMPARE(data_->regionValues(metrics), (std::vector<double>{0, 2.75, 0}));  // main, MPI_Recv, foo
    const std::vector<char> recv = data_->callPathMaskOfRegions({{1, true}});
    QCOMPARE(recv, (std::vector<char>{0, 1, 0, 1}));
    QCOMPARE(data_->locationValues(metrics, recv), (std::vector<double>{0.75, 2.0, 0}));
    ValueTreeModel model(QStringLiteral("Region"));
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setTree(&data_->regionTree());
    model.setValues(data_->regionValues(metrics), {8.75, 2.75, false}, report::MetricUnit::Seconds);
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.absoluteValue(1), 2.75);
  }

  void thresholdHidesSmallItems() {
    ValueTreeModel model(QStringLiteral("Call path"));
    model.setTree(&data_->callTree());
    model.setValues(data_->callPathValues(data_->metricMask({{kMpi, true}})), {8.75, 2.75, false},
                    report::MetricUnit::Seconds);
    TreeFilterProxy proxy;
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    proxy.setSourceModel(&model);
    const QModelIndex main = proxy.index(0, 0);
    QCOMPARE(proxy.rowCount(main), 2);
    proxy.setThreshold(50.0);  // 50% of 2.75: MPI_Recv (1.25) goes, foo (1.5) stays
    QCOMPARE(proxy.rowCount(proxy.index(0, 0)), 1);
    QCOMPARE(proxy.index(0, 0, proxy.index(0, 0)).data().toString(), QStringLiteral("foo"));
    proxy.sort(ValueTreeModel::ValueColumn, Qt::DescendingOrder);
    proxy.setThreshold(0.0);
    proxy.sort(ValueTreeModel::ValueColumn, Qt::DescendingOrder);
    QCOMPARE(proxy.index(0, 0, proxy.index(0, 0)).data().toString(), QStringLiteral("foo"));
  }

  void selectionMasksAndSignals() {
    Selection selection;
    QSignalSpy reportSpy(&selection, &Selection::reportChanged);
    QSignalSpy metricSpy(&selection, &Selection::metricsChanged);
    selection.setReport(data_);
    QCOMPARE(reportSpy.count(), 1);
    selection.setMetrics({{kMpi, true}});
    selection.setMetrics({{kMpi, true}});  // unchanged: no second signal
    QCOMPARE(metricSpy.count(), 1);
    QCOMPARE(selection.metricMask(), (std::vector<char>{0, 1, 1, 0}));
    selection.setCallPaths({{1, true}}, true);  // region MPI_Recv in the flat profile
    QCOMPARE(selection.callPathMask(), (std::vector<char>{0, 1, 0, 1}));
    selection.setSystemItems({{kNodeA, true}});
    QCOMPARE(selection.selectedLocations(), (std::vector<std::uint32_t>{0, 1}));
  }

  void unitsAndRootTotals() {
    bool mixed = false;
    QCOMPARE(data_->rootTotal({{kLateSender, true}}), 8.75);
    QCOMPARE(data_->rootTotal({{kLateSender, true}, {kVisits, true}}), 17.75);
    QVERIFY(data_->unit({{kLateSender, true}, {kVisits, true}}, &mixed) == report::MetricUnit::Seconds);
    QVERIFY(mixed);
    QVERIFY(data_->unit({{kVisits, true}}, &mixed) == report::MetricUnit::Occurrences);
    QVERIFY(!mixed);
  }
};

QTEST_MAIN(ValueTreeModelTest)
#include "value_tree_model_test.moc"
