// What a Cube user reaches for beside the numbers: the trees' context menus
// (expand or collapse a subtree, copy, find a region's or the system tree's call
// paths in the call tree), the description of the selected metric, and column
// headers that name a unit only where the cells do not. On sampleReport() plus
// a bytes root (320 B at main) and a defined but unused region.
#include <QAction>
#include <QClipboard>
#include <QGuiApplication>
#include <QMenu>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

#include "analysis/metrics/pattern_advice.h"
#include "analysis/report/report_io.h"
#include "app/main_window.h"
#include "tests/gui/support/opened_window.h"
#include "tests/gui/views/sample_report.h"
#include "views/model/number_format.h"
#include "views/model/selection.h"
#include "views/widgets/metric_description_pane.h"
#include "views/widgets/report_browser.h"
#include "views/widgets/tree_pane.h"

using namespace waitscope;
using namespace waitscope::views;
using namespace waitscope::test;
using waitscope::app::MainWindow;

namespace {
constexpr std::uint32_t kBytes = 4;  // the root added below
constexpr std::uint32_t kRegionRecv = 1;

QAction* actionNamed(QMenu* menu, const QString& text) {
  for (QAction* a : menu->actions())
    if (a->text() == text) return a;
  return nullptr;
}
}  // namespace

class TreeConveniencesTest : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;
  QString reportPath_;

  std::unique_ptr<MainWindow> openedWindow() { return test::openedWindow(reportPath_); }

 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    QVERIFY(dir_.isValid());
    report::Report r = sampleReport();
    r.metrics.push_back({"bytes", "Bytes", "Bytes transferred", report::MetricUnit::Bytes, report::kNoId});
    r.severities.push_back({kBytes, kMain, {100, 100, 120}});
    reportPath_ = dir_.filePath(QStringLiteral("conveniences.waitscope"));
    report::writeReport(r, reportPath_.toStdString());
  }

  void expandAndCollapseASubtree() {
    auto window = openedWindow();
    TreePane* metrics = window->browser()->metricPane();
    std::unique_ptr<QMenu> menu(metrics->contextMenu(kTime));
    QAction* expand = actionNamed(menu.get(), QStringLiteral("Expand Subtree"));
    QVERIFY(expand && expand->isEnabled());
    expand->trigger();
    for (const std::uint32_t node : {kTime, kMpi}) QVERIFY(window->browser()->metricModel()->isExpanded(node));
    actionNamed(menu.get(), QStringLiteral("Collapse Subtree"))->trigger();
    for (const std::uint32_t node : {kTime, kMpi}) QVERIFY(!window->browser()->metricModel()->isExpanded(node));
    // A leaf has nothing to expand.
    std::unique_ptr<QMenu> leaf(metrics->contextMenu(kLateSender));
    QVERIFY(!actionNamed(leaf.get(), QStringLiteral("Expand Subtree"))->isEnabled());
  }

  void copyGivesNamesAndValuesAsShown() {
    auto window = openedWindow();
    TreePane* metrics = window->browser()->metricPane();
    metrics->selectNodes({kTime, kVisits});
    const QString time = formatSeconds(8.75), visits = formatCount(9.0);
    QCOMPARE(metrics->selectedText(), QStringLiteral("Time\t%1\nVisits\t%2").arg(time, visits));
    std::unique_ptr<QMenu> menu(metrics->contextMenu(kVisits));  // part of the selection: both rows
    actionNamed(menu.get(), QStringLiteral("Copy"))->trigger();
    QCOMPARE(QGuiApplication::clipboard()->text(), QStringLiteral("Time\t%1\nVisits\t%2").arg(time, visits));
    std::unique_ptr<QMenu> other(metrics->contextMenu(kBytes));  // outside the selection: that row
    actionNamed(other.get(), QStringLiteral("Copy"))->trigger();
    QCOMPARE(QGuiApplication::clipboard()->text(), QStringLiteral("Bytes\t320 B"));
  }

  void findARegionsCallPathsInTheCallTree() {
    auto window = openedWindow();
    ReportBrowser* browser = window->browser();
    QVERIFY(browser->selectMetric(QStringLiteral("mpi")));
    browser->setFlatProfile(true);
    std::unique_ptr<QMenu> menu(browser->callPane()->contextMenu(kRegionRecv));
    QAction* find = actionNamed(menu.get(), QStringLiteral("Find in Call Tree"));
    QVERIFY(find);
    QAction* flatAction = nullptr;
    for (QAction* a : window->findChildren<QAction*>())
      if (a->shortcut() == QKeySequence(QStringLiteral("Ctrl+L"))) flatAction = a;
    QVERIFY(flatAction && flatAction->isChecked());
    find->trigger();
    QVERIFY(!browser->flatProfile());
    QVERIFY(!flatAction->isChecked());  // the menu follows
    QCOMPARE(window->selection()->callPaths(), (TreePicks{{kMainRecv, true}, {kFooRecv, true}}));
    // The call tree's own menu has no such entry, but the editor's.
    std::unique_ptr<QMenu> calls(browser->callPane()->contextMenu(kMainRecv));
    QVERIFY(!actionNamed(calls.get(), QStringLiteral("Find in Call Tree")));
    QVERIFY(actionNamed(calls.get(), QStringLiteral("Open in &Editor")));
  }

  void findTheSystemTreesCallPathsInTheCallTree() {
    auto window = openedWindow();
    ReportBrowser* browser = window->browser();
    QVERIFY(browser->selectMetric(QStringLiteral("mpi")));
    browser->setFlatProfile(true);
    browser->callPane()->selectNode(kRegionRecv);
    std::unique_ptr<QMenu> menu(browser->systemPane()->contextMenu(kRank1));
    QAction* find = actionNamed(menu.get(), QStringLiteral("Find Call Path in Call Tree"));
    QVERIFY(find && find->isEnabled());
    find->trigger();
    QVERIFY(!browser->flatProfile());
    QCOMPARE(window->selection()->callPaths(), (TreePicks{{kMainRecv, true}, {kFooRecv, true}}));
    QCOMPARE(browser->systemModel()->absoluteValue(kRank1), 2.0);  // the same values as before
  }

  void describesTheSelectedMetric() {
    auto window = openedWindow();
    ReportBrowser* browser = window->browser();
    QVERIFY(browser->selectMetric(QStringLiteral("mpi_latesender")));
    const QString text = browser->descriptionPane()->toPlainText();
    QVERIFY2(text.contains(QStringLiteral("Late Sender")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("Time > MPI > Late Sender")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("Waiting for a late sender")), qPrintable(text));
    const std::string_view advice = metrics::patternAdvice("mpi_latesender");
    QVERIFY(!advice.empty());
    QVERIFY2(text.contains(QString::fromUtf8(advice.data(), static_cast<qsizetype>(advice.size())).left(40)),
             qPrintable(text));
    // Visits is no wait state: no advice, but its unit.
    QVERIFY(browser->selectMetric(QStringLiteral("visits")));
    const QString visits = browser->descriptionPane()->toPlainText();
    QVERIFY(visits.contains(QStringLiteral("occurrences")));
    QVERIFY(!visits.contains(QStringLiteral("What to change")));
    browser->metricPane()->selectNodes({});
    QVERIFY(browser->descriptionPane()->toPlainText().contains(QStringLiteral("Select a metric")));
  }

  void headersNameTheUnitOnlyWhereTheCellsDoNot() {
    auto window = openedWindow();
    ReportBrowser* browser = window->browser();
    ValueTreeModel* calls = browser->callModel();
    // Times: the cells carry the unit of their magnitude, the header none.
    QCOMPARE(calls->headerData(ValueTreeModel::ValueColumn, Qt::Horizontal).toString(), QStringLiteral("Value"));
    QCOMPARE(calls->data(calls->indexOfNode(kMain, ValueTreeModel::ValueColumn)).toString(), formatSeconds(8.75));
    QCOMPARE(calls->csvHeader(ValueTreeModel::ValueColumn), QStringLiteral("Value (s)"));
    // Bytes: "320 B" in the cell; the CSV file keeps bytes.
    QVERIFY(browser->selectMetric(QStringLiteral("bytes")));
    QCOMPARE(calls->data(calls->indexOfNode(kMain, ValueTreeModel::ValueColumn)).toString(), QStringLiteral("320 B"));
    QCOMPARE(calls->headerData(ValueTreeModel::ValueColumn, Qt::Horizontal).toString(), QStringLiteral("Value"));
    QCOMPARE(calls->csvHeader(ValueTreeModel::ValueColumn), QStringLiteral("Value (bytes)"));
    // Counts carry no unit: the header names it.
    QVERIFY(browser->selectMetric(QStringLiteral("visits")));
    QCOMPARE(calls->data(calls->indexOfNode(kMain, ValueTreeModel::ValueColumn)).toString(), QStringLiteral("9"));
    QCOMPARE(calls->headerData(ValueTreeModel::ValueColumn, Qt::Horizontal).toString(), QStringLiteral("Value (occ.)"));
    // The metric tree mixes units: each cell its own.
    ValueTreeModel* metrics = browser->metricModel();
    QCOMPARE(metrics->headerData(ValueTreeModel::ValueColumn, Qt::Horizontal).toString(), QStringLiteral("Value"));
    QCOMPARE(metrics->data(metrics->indexOfNode(kBytes, ValueTreeModel::ValueColumn)).toString(),
             QStringLiteral("320 B"));
    QCOMPARE(metrics->data(metrics->indexOfNode(kTime, ValueTreeModel::ValueColumn)).toString(), formatSeconds(8.75));
    // Percent: the header says which percentage.
    window->selection()->setMode(ValueMode::PercentOfTotal);
    QCOMPARE(calls->headerData(ValueTreeModel::ValueColumn, Qt::Horizontal).toString(),
             QStringLiteral("Value (percent of total)"));
    QCOMPARE(calls->csvHeader(ValueTreeModel::ValueColumn), QStringLiteral("Value (%)"));
  }
};

QTEST_MAIN(TreeConveniencesTest)
#include "tree_conveniences_test.moc"
