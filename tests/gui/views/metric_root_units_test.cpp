// Every root of the metric tree is a unit of its own, as in Cube: sampleReport()
// has Time (8.75 s inclusive) and Visits (9 occurrences), so anything that
// compared the roots' numbers would rank the visits above the time. Thresholds,
// peer percent, colour boxes, sorting and the hot path must stay inside one root.
#include <QAbstractItemModelTester>
#include <QTest>
#include <QTreeView>

#include "tests/gui/views/sample_report.h"
#include "views/model/report_data.h"
#include "views/model/tree_filter_proxy.h"
#include "views/model/value_tree_model.h"
#include "views/widgets/tree_pane.h"

using namespace waitscope;
using namespace waitscope::views;
using namespace waitscope::test;

class MetricRootUnitsTest : public QObject {
  Q_OBJECT

  std::shared_ptr<ReportData> data_;

  // The metric tree's model as the browser fills it: per-node units, every root its own reference.
  void fillMetrics(ValueTreeModel& model) {
    model.setTree(&data_->metricTree());
    std::vector<report::MetricUnit> units;
    for (const report::Metric& m : data_->report().metrics) units.push_back(m.unit);
    model.setNodeUnits(units);
    ValueTreeModel::References references;
    references.totalPerRoot = true;
    model.setValues(data_->metricExclusive(), references, report::MetricUnit::Seconds);
  }

  static std::vector<std::uint32_t> shownRoots(const QAbstractItemModel& proxy) {
    std::vector<std::uint32_t> out;
    for (int r = 0; r < proxy.rowCount(); ++r)
      out.push_back(proxy.index(r, 0).data(ValueTreeModel::NodeRole).value<quint32>());
    return out;
  }

 private slots:
  void init() { data_ = std::make_shared<ReportData>(sampleReport(), QStringLiteral("sample.waitscope")); }

  void thresholdIsAShareOfTheItemsOwnRoot() {
    ValueTreeModel model(QStringLiteral("Metric"));
    fillMetrics(model);
    TreeFilterProxy proxy;
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    proxy.setSourceModel(&model);
    QCOMPARE(model.largestOfUnit(kLateSender), 8.75);  // Time's, not the visits' 9
    QCOMPARE(model.largestOfUnit(kVisits), 9.0);
    // 99 %: 8.75 s of Time is 100 % of Time (not 97 % of the 9 visits); MPI, 2.75 of 8.75, goes.
    proxy.setThreshold(99.0);
    QCOMPARE(shownRoots(proxy), (std::vector<std::uint32_t>{kTime, kVisits}));
    const QModelIndex time = proxy.index(0, 0);
    QCOMPARE(proxy.rowCount(time), 0);
    // 30 %: MPI (31 % of Time) stays, Late Sender (8.6 %) goes.
    proxy.setThreshold(30.0);
    QCOMPARE(proxy.rowCount(proxy.index(0, 0)), 1);
    QCOMPARE(proxy.rowCount(proxy.index(0, 0, proxy.index(0, 0))), 0);
  }

  void peerPercentComparesPeersOfOneRoot() {
    ValueTreeModel model(QStringLiteral("Metric"));
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    fillMetrics(model);
    model.setMode(ValueMode::PeerPercent);
    // Each root is the largest (the only) item of its unit at depth 0.
    QCOMPARE(model.shownValue(kTime), 100.0);
    QCOMPARE(model.shownValue(kVisits), 100.0);
    model.setExpanded(kTime, true);  // Time shows its exclusive 6 s: still alone in its unit
    QCOMPARE(model.shownValue(kTime), 100.0);
    QCOMPARE(model.shownValue(kMpi), 100.0);
    QCOMPARE(model.data(model.indexOfNode(kVisits, ValueTreeModel::ValueColumn)).toString(),
             formatValue(100.0, ValueMode::PeerPercent, report::MetricUnit::Occurrences));
  }

  void colourBoxesScaleToTheirRoot() {
    ValueTreeModel model(QStringLiteral("Metric"));
    fillMetrics(model);
    QCOMPARE(model.colorShare(kTime), 1.0);
    QCOMPARE(model.colorShare(kVisits), 1.0);
    QCOMPARE(model.colorShare(kMpi), 2.75 / 8.75);
  }

  void sortingKeepsTheRootsInOrder() {
    ValueTreeModel model(QStringLiteral("Metric"));
    fillMetrics(model);
    TreeFilterProxy proxy;
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    proxy.setSourceModel(&model);
    proxy.sort(ValueTreeModel::ValueColumn, Qt::DescendingOrder);
    QCOMPARE(shownRoots(proxy), (std::vector<std::uint32_t>{kTime, kVisits}));  // not Visits (9) first
    proxy.sort(ValueTreeModel::ValueColumn, Qt::AscendingOrder);
    QCOMPARE(shownRoots(proxy), (std::vector<std::uint32_t>{kTime, kVisits}));
    // A tree of one unit still sorts its roots: the call tree's flat profile, by region.
    ValueTreeModel regions(QStringLiteral("Region"));
    regions.setTree(&data_->regionTree());
    regions.setValues(data_->regionValues(data_->metricMask({{kTime, true}})), {}, report::MetricUnit::Seconds);
    TreeFilterProxy regionProxy;
    regionProxy.setSourceModel(&regions);
    regionProxy.sort(ValueTreeModel::ValueColumn, Qt::DescendingOrder);
    for (int r = 1; r < regionProxy.rowCount(); ++r)
      QVERIFY(regionProxy.index(r - 1, 0).data(ValueTreeModel::InclusiveValueRole).toDouble() >=
              regionProxy.index(r, 0).data(ValueTreeModel::InclusiveValueRole).toDouble());
  }

  void hotPathStaysInTheCurrentRoot() {
    ValueTreeModel model(QStringLiteral("Metric"));
    fillMetrics(model);
    TreePane pane;
    pane.setModel(&model);
    pane.selectNode(kTime);
    pane.expandHotPath();  // Time > MPI > Late Sender, not the visits (9 > 8.75)
    QCOMPARE(pane.picks(), (TreePicks{{kLateSender, true}}));
    pane.selectNode(kVisits);
    pane.expandHotPath();
    QCOMPARE(pane.picks(), (TreePicks{{kVisits, true}}));
  }

  void aTreeOfOneUnitComparesAllItems() {
    // The call tree: one unit, so the threshold is a share of the tree's largest value.
    ValueTreeModel model(QStringLiteral("Call path"));
    model.setTree(&data_->callTree());
    model.setValues(data_->callPathValues(data_->metricMask({{kMpi, true}})), {}, report::MetricUnit::Seconds);
    QVERIFY(!model.rootsAreUnits());
    QCOMPARE(model.largestOfUnit(kFooRecv), 2.75);
  }
};

QTEST_MAIN(MetricRootUnitsTest)
#include "metric_root_units_test.moc"
