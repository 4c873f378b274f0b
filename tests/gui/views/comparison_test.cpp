// Two runs compared in the browser and the window, offscreen, on aligned
// reports built by hand from sampleReport(): the columns A, B and B − A with
// hand-computed values in every tree, the compare selector switching trees and
// charts, call paths of one run only, different rank counts, the window's
// File > Compare With… and Close Comparison, and the command line's --compare.
#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QFont>
#include <QHeaderView>
#include <QLabel>
#include <QSignalSpy>
#include <QSplitter>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

#include "analysis/report/report_io.h"
#include "app/command_line.h"
#include "app/main_window.h"
#include "app/report_loader.h"
#include "app/scripted_export.h"
#include "tests/gui/views/sample_report.h"
#include "views/model/color_scale.h"
#include "views/model/comparison_data.h"
#include "views/model/selection.h"
#include "views/model/value_tree_model.h"
#include "views/widgets/chart_pane.h"
#include "views/widgets/report_browser.h"
#include "views/widgets/tree_pane.h"

using namespace waitscope;
using namespace waitscope::views;
using namespace waitscope::test;
using waitscope::app::MainWindow;

namespace {

constexpr std::uint32_t kBar = 4;  // main > bar: a call path of run B only

// The aligned structure: sampleReport() plus main > bar (region "bar").
report::Report alignedStructure() {
  report::Report r = sampleReport();
  r.regions.push_back({"bar", "app.c", 70, 80, "user"});
  r.callPaths.push_back({kMain, 3, "app.c", 35});
  return r;
}

// Run A: sampleReport's values (bar never called). Run B: main slower, foo faster, bar new,
// main/foo/MPI_Recv gone:
//   time   main [2 1 1]   foo [1 0 1]   bar [0.5 0.5 0.5]
//   mpi    main/MPI_Recv [1 0.5 0]      latesender main/MPI_Recv [0.25 0 0]
//   visits main [1 1 1]   main/MPI_Recv [2 2 2]   bar [1 1 1]
// With Time collapsed (time + mpi + latesender), per call path (exclusive):
//   A: main 3, main/MPI_Recv 1.25, foo 3, foo/MPI_Recv 1.5, bar 0   (main inclusive 8.75)
//   B: main 4, main/MPI_Recv 1.75, foo 2, foo/MPI_Recv 0,   bar 1.5 (main inclusive 9.25)
// and per rank over the whole program: A [3.75 3 2], B [4.75 2 2.5], B − A [1 -1 0.5].
report::Report runB() {
  report::Report r = alignedStructure();
  r.severities = {{kTime, kMain, {2, 1, 1}},      {kTime, kFoo, {1, 0, 1}},         {kTime, kBar, {0.5, 0.5, 0.5}},
                  {kMpi, kMainRecv, {1, 0.5, 0}}, {kLateSender, kMainRecv, {0.25, 0, 0}},
                  {kVisits, kMain, {1, 1, 1}},    {kVisits, kMainRecv, {2, 2, 2}}, {kVisits, kBar, {1, 1, 1}}};
  return r;
}

// B − A value by value over the union of rows.
report::Report differenceOf(const report::Report& a, const report::Report& b) {
  report::Report d = alignedStructure();
  d.severities.clear();
  auto row = [&d](std::uint32_t metric, std::uint32_t callPath) -> report::SeverityRow& {
    for (report::SeverityRow& s : d.severities)
      if (s.metric == metric && s.callPath == callPath) return s;
    d.severities.push_back({metric, callPath, std::vector<double>(d.locations.size(), 0.0)});
    return d.severities.back();
  };
  for (const report::SeverityRow& s : b.severities)
    for (std::size_t l = 0; l < s.values.size(); ++l) row(s.metric, s.callPath).values[l] += s.values[l];
  for (const report::SeverityRow& s : a.severities)
    for (std::size_t l = 0; l < s.values.size(); ++l) row(s.metric, s.callPath).values[l] -= s.values[l];
  return d;
}

report::AlignedReports aligned() {
  report::AlignedReports out;
  out.a = alignedStructure();
  out.b = runB();
  out.difference = differenceOf(out.a, out.b);
  out.callPathPresence = {report::Presence::Both, report::Presence::Both, report::Presence::Both,
                          report::Presence::OnlyA, report::Presence::OnlyB};
  return out;
}

// The same runs as if B had another rank count: one location, "All ranks", holding the sums.
report::AlignedReports alignedAcrossRankCounts() {
  report::AlignedReports out = aligned();
  for (report::Report* r : {&out.a, &out.b, &out.difference}) {
    r->systemNodes = {{"All ranks", "machine", report::kNoId}};
    r->locations = {{"All ranks", 0, 0}};
    for (report::SeverityRow& s : r->severities) {
      double sum = 0.0;
      for (const double v : s.values) sum += v;
      s.values = {sum};
    }
  }
  out.sameRanks = false;
  return out;
}

ComparisonDataPtr comparison(report::AlignedReports runs = aligned(), std::size_t ranksB = 3) {
  auto a = std::make_shared<const ReportData>(sampleReport(), QStringLiteral("/runs/a.waitscope"));
  return std::make_shared<const ComparisonData>(std::move(runs), a, QStringLiteral("/runs/b.waitscope"), ranksB);
}

double hueOf(const QVariant& color) { return color.value<QColor>().hsvHue(); }

}  // namespace

class ComparisonTest : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;

 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QApplication::setOrganizationName(QStringLiteral("WaitscopeTest"));
    QApplication::setApplicationName(QStringLiteral("comparison_test"));
    QVERIFY(dir_.isValid());
  }

  void modelShowsTheRunsAndTheirDifference() {
    const ComparisonDataPtr runs = comparison();
    ValueTreeModel model(QStringLiteral("Call path"));
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const std::vector<char> time = runs->run(CompareView::RunA)->metricMask({{kTime, true}});
    model.setTree(&runs->run(CompareView::RunA)->callTree());
    QCOMPARE(model.columnCount(), 2);
    model.setCompared(true);
    model.setShownRun(CompareView::Difference);
    QCOMPARE(model.columnCount(), 4);
    for (const CompareView run : kCompareViews) {
      const ReportData& data = *runs->run(run);
      const std::vector<double> values = data.callPathValues(time);
      model.setRunValues(run, values, {data.rootTotal({{kTime, true}}), 0.0, false}, report::MetricUnit::Seconds);
    }
    model.setPresence(runs->callPathPresence());
    // main collapsed: inclusive values.
    QCOMPARE(model.runValue(CompareView::RunA, kMain), 8.75);
    QCOMPARE(model.runValue(CompareView::RunB, kMain), 9.25);
    QCOMPARE(model.runValue(CompareView::Difference, kMain), 0.5);
    QCOMPARE(model.shownValue(kMain), 0.5);
    QCOMPARE(model.shownColumn(), int(ValueTreeModel::DifferenceColumn));
    // Expanded: exclusive values; foo got faster (negative), bar is new.
    model.setExpanded(kMain, true);
    QCOMPARE(model.runValue(CompareView::Difference, kMain), 1.0);
    QCOMPARE(model.runValue(CompareView::RunA, kFoo), 4.5);
    QCOMPARE(model.runValue(CompareView::RunB, kFoo), 2.0);
    QCOMPARE(model.runValue(CompareView::Difference, kFoo), -2.5);
    QCOMPARE(model.runValue(CompareView::Difference, kBar), 1.5);
    const QLocale locale;
    QCOMPARE(model.data(model.indexOfNode(kFoo, ValueTreeModel::DifferenceColumn)).toString(),
             locale.toString(-2.5, 'f', 2) + QStringLiteral(" s"));
    QCOMPARE(model.data(model.indexOfNode(kBar, ValueTreeModel::DifferenceColumn)).toString(),
             QStringLiteral("+") + locale.toString(1.5, 'f', 2) + QStringLiteral(" s"));
    // The cells carry the unit of their magnitude ("-2.50 s"), so the headers name none; the
    // CSV file's headers name the unit of its unscaled numbers.
    QCOMPARE(model.headerData(ValueTreeModel::RunAColumn, Qt::Horizontal).toString(), QStringLiteral("A"));
    QCOMPARE(model.headerData(ValueTreeModel::RunBColumn, Qt::Horizontal).toString(), QStringLiteral("B"));
    QCOMPARE(model.headerData(ValueTreeModel::DifferenceColumn, Qt::Horizontal).toString(), QStringLiteral("B − A"));
    QCOMPARE(model.csvHeader(ValueTreeModel::DifferenceColumn), QStringLiteral("B − A (s)"));
    QVERIFY(model.headerData(ValueTreeModel::DifferenceColumn, Qt::Horizontal, Qt::FontRole).value<QFont>().bold());

    // The diverging colour box sits in the shown column: blue where B is faster, red where slower.
    const QVariant fooBox = model.data(model.indexOfNode(kFoo, ValueTreeModel::DifferenceColumn), Qt::DecorationRole);
    const QVariant barBox = model.data(model.indexOfNode(kBar, ValueTreeModel::DifferenceColumn), Qt::DecorationRole);
    QCOMPARE(hueOf(fooBox), hueOf(differenceColor(-1.0)));
    QCOMPARE(hueOf(barBox), hueOf(differenceColor(1.0)));
    QVERIFY(hueOf(fooBox) != hueOf(barBox));
    QVERIFY(!model.data(model.indexOfNode(kFoo, ValueTreeModel::RunAColumn), Qt::DecorationRole).isValid());
    QCOMPARE(model.colorShare(kFoo), -2.5 / 2.5);  // the largest change below main
    QCOMPARE(model.colorShare(kBar), 1.5 / 2.5);

    // Percent of total: A and B of their own totals, B − A of A's.
    model.setMode(ValueMode::PercentOfTotal);
    QCOMPARE(model.runValue(CompareView::RunA, kFoo), 100.0 * 4.5 / 8.75);
    QCOMPARE(model.runValue(CompareView::RunB, kFoo), 100.0 * 2.0 / 9.25);
    QCOMPARE(model.runValue(CompareView::Difference, kFoo), 100.0 * -2.5 / 8.75);
    QCOMPARE(model.headerData(ValueTreeModel::RunBColumn, Qt::Horizontal).toString(), QStringLiteral("B (%)"));

    // The shown run moves the colour box and the Value roles.
    model.setMode(ValueMode::Absolute);
    model.setShownRun(CompareView::RunB);
    QCOMPARE(model.shownValue(kFoo), 2.0);
    QCOMPARE(model.data(model.indexOfNode(kFoo, 1), ValueTreeModel::InclusiveValueRole).toDouble(), 2.0);
    QVERIFY(model.data(model.indexOfNode(kFoo, ValueTreeModel::RunBColumn), Qt::DecorationRole).isValid());
    QVERIFY(!model.data(model.indexOfNode(kFoo, ValueTreeModel::DifferenceColumn), Qt::DecorationRole).isValid());

    // A value's tooltip gives all three runs.
    const QString valueTip = model.data(model.indexOfNode(kBar, ValueTreeModel::RunAColumn), Qt::ToolTipRole).toString();
    QCOMPARE(valueTip, QStringLiteral("A: 0 · B: %1 s · B − A: +%1 s").arg(locale.toString(1.5, 'f', 2)));

    // Back to one run: two columns.
    model.setCompared(false);
    QCOMPARE(model.columnCount(), 2);
  }

  void callPathsOfOneRunAreMarked() {
    const ComparisonDataPtr runs = comparison();
    ValueTreeModel model(QStringLiteral("Call path"));
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setTree(&runs->run(CompareView::RunA)->callTree());
    model.setCompared(true);
    model.setRunFiles(runs->pathA(), runs->pathB());
    model.setPresence(runs->callPathPresence());
    QCOMPARE(model.data(model.indexOfNode(kFooRecv)).toString(), QStringLiteral("MPI_Recv (only in A)"));
    QCOMPARE(model.data(model.indexOfNode(kBar)).toString(), QStringLiteral("bar (only in B)"));
    QCOMPARE(model.data(model.indexOfNode(kMainRecv)).toString(), QStringLiteral("MPI_Recv"));
    QVERIFY(model.data(model.indexOfNode(kBar), Qt::FontRole).value<QFont>().italic());
    QVERIFY(!model.data(model.indexOfNode(kMain), Qt::FontRole).isValid());
    const QString tip = model.data(model.indexOfNode(kBar), Qt::ToolTipRole).toString();
    QVERIFY2(tip.contains(QStringLiteral("Only in run B (/runs/b.waitscope)")), qPrintable(tip));
    QVERIFY2(tip.contains(QStringLiteral("app.c:35")), qPrintable(tip));  // the call site stays

    // The flat profile: bar is B's only; MPI_Recv, called in both runs from main, is not.
    using report::Presence;
    QCOMPARE(runs->regionPresence(), (std::vector<Presence>{Presence::Both, Presence::Both, Presence::Both,
                                                            Presence::OnlyB}));
  }

  void browserShowsEveryTreeAndChartForTheChosenRun() {
    Selection selection;
    ReportBrowser browser(&selection);
    browser.resize(1200, 700);
    selection.setCompareView(CompareView::Difference);
    QSignalSpy compared(&selection, &Selection::comparisonChanged);
    selection.setComparison(comparison());
    QCOMPARE(compared.count(), 1);
    QVERIFY(!browser.compareBar()->isHidden());
    QVERIFY(browser.compareNotice()->isHidden());
    QCOMPARE(browser.compareSelector()->currentText(), QStringLiteral("Difference B − A"));
    // Like one report: Time and the whole program are selected.
    QCOMPARE(selection.metrics(), (TreePicks{{kTime, true}}));
    QCOMPARE(selection.callPaths(), (TreePicks{{kMain, true}}));
    for (ValueTreeModel* model : {browser.metricModel(), browser.callModel(), browser.systemModel()})
      QCOMPARE(model->columnCount(), 4);
    // Metric tree (collapsed Time): 8.75 against 9.25.
    QCOMPARE(browser.metricModel()->runValue(CompareView::RunA, kTime), 8.75);
    QCOMPARE(browser.metricModel()->runValue(CompareView::RunB, kTime), 9.25);
    QCOMPARE(browser.metricModel()->runValue(CompareView::Difference, kTime), 0.5);
    QCOMPARE(browser.callModel()->runValue(CompareView::Difference, kMain), 0.5);
    QCOMPARE(browser.systemModel()->runValue(CompareView::RunA, kRank0), 3.75);
    QCOMPARE(browser.systemModel()->runValue(CompareView::RunB, kRank0), 4.75);
    QCOMPARE(browser.systemModel()->runValue(CompareView::Difference, kRank1), -1.0);
    QCOMPARE(browser.chartPane()->barValues(), (std::vector<double>{1.0, -1.0, 0.5}));

    // The selector switches every tree and the charts; the picks stay.
    QSignalSpy viewChanged(&selection, &Selection::compareViewChanged);
    browser.compareSelector()->setCurrentIndex(browser.compareSelector()->findData(int(CompareView::RunB)));
    emit browser.compareSelector()->activated(browser.compareSelector()->currentIndex());
    QCOMPARE(viewChanged.count(), 1);
    QCOMPARE(selection.compareView(), CompareView::RunB);
    QCOMPARE(selection.report(), selection.comparison()->run(CompareView::RunB));
    QCOMPARE(selection.callPaths(), (TreePicks{{kMain, true}}));
    QCOMPARE(browser.callModel()->shownValue(kMain), 9.25);
    QCOMPARE(browser.systemModel()->shownValue(kRank1), 2.0);
    QCOMPARE(browser.chartPane()->barValues(), (std::vector<double>{4.75, 2.0, 2.5}));

    // Selection drives the combo too, and picks in one run stand for the same items in the others.
    selection.setCompareView(CompareView::RunA);
    QCOMPARE(browser.compareSelector()->currentText(), QStringLiteral("Run A"));
    QVERIFY(browser.selectMetric(QStringLiteral("mpi")));
    QCOMPARE(browser.callModel()->runValue(CompareView::RunA, kMain), 2.75);
    QCOMPARE(browser.callModel()->runValue(CompareView::RunB, kMain), 1.75);
    QCOMPARE(browser.callModel()->runValue(CompareView::Difference, kMain), -1.0);
    QCOMPARE(browser.chartPane()->barValues(), (std::vector<double>{0.75, 2.0, 0.0}));

    // The call tree as CSV: one column per run.
    const QString csv = browser.callPane()->toCsv();
    const QStringList lines = csv.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.value(0), QStringLiteral("depth,name,A (s),B (s),B − A (s)"));
    QCOMPARE(lines.value(1), QStringLiteral("0,main,2.75,1.75,-1"));

    // One report again: two columns, no bar.
    selection.setReport(std::make_shared<const ReportData>(sampleReport(), QStringLiteral("a.waitscope")));
    QCOMPARE(compared.count(), 2);
    QVERIFY(!selection.comparison());
    QVERIFY(browser.compareBar()->isHidden());
    QCOMPARE(browser.callModel()->columnCount(), 2);
    QCOMPARE(browser.callModel()->absoluteValue(kMain), 8.75);
  }

  void narrowPanesKeepTheShownRunsColumn() {
    Selection selection;
    ReportBrowser browser(&selection);
    selection.setCompareView(CompareView::Difference);
    selection.setComparison(comparison());
    TreePane* pane = browser.callPane();
    const QHeaderView* header = pane->view()->header();
    browser.resize(1500, 600);
    browser.show();
    QVERIFY(QTest::qWaitForWindowExposed(&browser));
    browser.treeSplitter()->setSizes({300, 900, 300});
    QTest::qWait(50);
    for (int c = ValueTreeModel::RunAColumn; c < ValueTreeModel::CompareColumnCount; ++c)
      QVERIFY(!header->isSectionHidden(c));
    // Too narrow for names beside three value columns: only B − A stays, then only B.
    browser.treeSplitter()->setSizes({600, 220, 680});
    QTest::qWait(50);
    QVERIFY(header->isSectionHidden(ValueTreeModel::RunAColumn));
    QVERIFY(header->isSectionHidden(ValueTreeModel::RunBColumn));
    QVERIFY(!header->isSectionHidden(ValueTreeModel::DifferenceColumn));
    selection.setCompareView(CompareView::RunB);
    QTest::qWait(50);
    QVERIFY(!header->isSectionHidden(ValueTreeModel::RunBColumn));
    QVERIFY(header->isSectionHidden(ValueTreeModel::DifferenceColumn));
    browser.treeSplitter()->setSizes({300, 900, 300});
    QTest::qWait(50);
    for (int c = ValueTreeModel::RunAColumn; c < ValueTreeModel::CompareColumnCount; ++c)
      QVERIFY(!header->isSectionHidden(c));
  }

  void differentRankCountsCompareAllRanksOnly() {
    Selection selection;
    ReportBrowser browser(&selection);
    selection.setCompareView(CompareView::Difference);
    selection.setComparison(comparison(alignedAcrossRankCounts(), 8));
    QVERIFY(!browser.compareNotice()->isHidden());
    QCOMPARE(browser.compareNotice()->text(),
             QStringLiteral("3 ranks against 8: per-rank values are not compared (all ranks summed)."));
    const ReportData& a = *selection.comparison()->run(CompareView::RunA);
    QCOMPARE(a.report().locations.size(), std::size_t{1});
    const std::uint32_t allRanks = a.systemNodeOfLocation(0);
    QCOMPARE(browser.systemModel()->runValue(CompareView::RunA, allRanks), 8.75);
    QCOMPARE(browser.systemModel()->runValue(CompareView::RunB, allRanks), 9.25);
    QCOMPARE(browser.chartPane()->barValues(), (std::vector<double>{0.5}));
    QCOMPARE(browser.chartPane()->barLabels(), QStringList{QStringLiteral("All ranks")});
  }

  void windowOpensAndClosesAComparison() {
    const QString pathA = dir_.filePath(QStringLiteral("a.waitscope"));
    report::writeReport(sampleReport(), pathA.toStdString());
    MainWindow window;
    window.setInteractive(false);
    window.show();
    const auto action = [&window](const QString& text) {
      for (QAction* a : window.findChildren<QAction*>())
        if (a->text() == text) return a;
      qFatal("no action %s", qPrintable(text));
      return static_cast<QAction*>(nullptr);
    };
    // Nothing to compare yet; nothing to close.
    QVERIFY(!action(QStringLiteral("Compare &With…"))->isEnabled());
    QVERIFY(!action(QStringLiteral("Close Co&mparison"))->isEnabled());
    QVERIFY(!action(QStringLiteral("Run B"))->isEnabled());
    QSignalSpy loaded(&window, &MainWindow::reportLoaded);
    window.openReport(pathA);
    QVERIFY(loaded.wait(10000));
    const ReportDataPtr a = window.selection()->report();
    QVERIFY(action(QStringLiteral("Compare &With…"))->isEnabled());
    QVERIFY(!action(QStringLiteral("Close Co&mparison"))->isEnabled());

    // A bad run B: one line naming it; A stays.
    QSignalSpy failed(&window, &MainWindow::loadFailed);
    const QString missing = dir_.filePath(QStringLiteral("missing.waitscope"));
    window.openComparison(missing);
    QVERIFY(failed.wait(10000));
    QVERIFY2(failed.front().front().toString().startsWith(missing + QStringLiteral(": no such file")),
             qPrintable(failed.front().front().toString()));
    QCOMPARE(window.selection()->report(), a);
    QVERIFY(!window.selection()->comparison());
    // The report's name and its folder (it names no trace).
    QCOMPARE(window.windowTitle(), QStringLiteral("a.waitscope (%1) — Waitscope").arg(QDir::toNativeSeparators(dir_.path())));

    // A comparison shown: the title says A vs B, the view menu and the selector follow.
    QSignalSpy opened(&window, &MainWindow::comparisonOpened);
    window.selection()->setCompareView(CompareView::Difference);
    window.showComparison(comparison());
    QCOMPARE(opened.count(), 1);
    QCOMPARE(opened.front().at(0).toString(), QStringLiteral("/runs/a.waitscope"));
    QCOMPARE(opened.front().at(1).toString(), QStringLiteral("/runs/b.waitscope"));
    QCOMPARE(window.windowTitle(), QStringLiteral("a.waitscope vs b.waitscope (Difference B − A) — Waitscope"));
    QVERIFY(!window.timelineNotice().isEmpty());  // the timeline shows one run
    QVERIFY(action(QStringLiteral("Close Co&mparison"))->isEnabled());
    // View > Compared Run switches, and its checks follow the selection.
    QVERIFY(action(QStringLiteral("Run B"))->isEnabled());
    action(QStringLiteral("Run B"))->trigger();
    QCOMPARE(window.selection()->compareView(), CompareView::RunB);
    QVERIFY(action(QStringLiteral("Run B"))->isChecked());
    QCOMPARE(window.windowTitle(), QStringLiteral("a.waitscope vs b.waitscope (Run B) — Waitscope"));
    QCOMPARE(window.browser()->callModel()->shownValue(kMain), 9.25);
    window.selection()->setCompareView(CompareView::RunA);
    QVERIFY(action(QStringLiteral("Run A"))->isChecked() && !action(QStringLiteral("Run B"))->isChecked());
    window.selection()->setCompareView(CompareView::RunB);

    window.closeComparison();
    QVERIFY(!window.selection()->comparison());
    QCOMPARE(window.selection()->report()->path(), QStringLiteral("/runs/a.waitscope"));
    QCOMPARE(window.browser()->callModel()->columnCount(), 2);
    QCOMPARE(window.windowTitle(), QStringLiteral("a.waitscope (/runs) — Waitscope"));

    // Two runs' reports often share a name: the title says where each one's trace is.
    report::Report traced = sampleReport();
    traced.meta.push_back({"trace", "/data/run 7/traces.otf2"});
    const QString tracedPath = dir_.filePath(QStringLiteral("traces.waitscope"));
    report::writeReport(traced, tracedPath.toStdString());
    window.openReport(tracedPath);
    QVERIFY(loaded.wait(10000));
    QCOMPARE(window.windowTitle(), QStringLiteral("traces.waitscope (/data/run 7) — Waitscope"));
  }

  void windowComparesTwoReportFiles() {
    // Run B on disk; aligned by alignReports off the GUI thread.
    const QString pathA = dir_.filePath(QStringLiteral("a.waitscope"));
    const QString pathB = dir_.filePath(QStringLiteral("b.waitscope"));
    report::writeReport(sampleReport(), pathA.toStdString());
    report::writeReport(runB(), pathB.toStdString());
    MainWindow window;
    window.setInteractive(false);
    QSignalSpy loaded(&window, &MainWindow::reportLoaded);
    window.openReport(pathA);
    QVERIFY(loaded.wait(10000));
    QSignalSpy opened(&window, &MainWindow::comparisonOpened);
    window.openComparison(pathB);
    QVERIFY(opened.wait(10000));
    QCOMPARE(window.windowTitle().section(QStringLiteral(" ("), 0, 0), QStringLiteral("a.waitscope vs b.waitscope"));
    const ValueTreeModel* calls = window.browser()->callModel();
    const std::uint32_t root = calls->tree()->roots.front();
    QCOMPARE(calls->runValue(CompareView::RunA, root), 8.75);
    QCOMPARE(calls->runValue(CompareView::RunB, root), 9.25);
    QCOMPARE(calls->runValue(CompareView::Difference, root), 0.5);
  }

  void commandLineCompares() {
    app::CommandLine cl;
    QString error;
    QVERIFY(app::parseCommandLine({QStringLiteral("a.waitscope"), QStringLiteral("--compare"),
                                   QStringLiteral("b.waitscope"), QStringLiteral("--compare-view"), QStringLiteral("b")},
                                  &cl, &error));
    QCOMPARE(cl.report, QStringLiteral("a.waitscope"));
    QCOMPARE(cl.compare, QStringLiteral("b.waitscope"));
    QCOMPARE(cl.compareView, CompareView::RunB);
    QVERIFY(app::parseCommandLine({QStringLiteral("a.waitscope"), QStringLiteral("--compare"), QStringLiteral("b")},
                                  &cl, &error));
    QCOMPARE(cl.compareView, CompareView::Difference);
    QVERIFY(!app::parseCommandLine({QStringLiteral("--compare"), QStringLiteral("b.waitscope")}, &cl, &error));
    QVERIFY2(error.startsWith(QStringLiteral("--compare needs a REPORT")), qPrintable(error));
    QVERIFY(!app::parseCommandLine({QStringLiteral("a.waitscope"), QStringLiteral("--compare-view"), QStringLiteral("b")},
                                   &cl, &error));
    QCOMPARE(error, QStringLiteral("--compare-view needs --compare B"));
    QVERIFY(!app::parseCommandLine({QStringLiteral("a.waitscope"), QStringLiteral("--compare"), QStringLiteral("b"),
                                    QStringLiteral("--compare-view"), QStringLiteral("c")},
                                   &cl, &error));
    QCOMPARE(error, QStringLiteral("--compare-view: expected a, b or difference, got 'c'"));
    QVERIFY(!app::parseCommandLine({QStringLiteral("a.waitscope"), QStringLiteral("--compare")}, &cl, &error));
    const QString help = app::commandLineHelp();
    QVERIFY(help.contains(QStringLiteral("--compare <B>")));
    QVERIFY(help.contains(QStringLiteral("--compare-view <RUN>")));
  }

  void scriptedExportOfAComparison() {
    const QString pathA = dir_.filePath(QStringLiteral("a.waitscope"));
    const QString pathB = dir_.filePath(QStringLiteral("b.waitscope"));
    report::writeReport(sampleReport(), pathA.toStdString());
    report::writeReport(runB(), pathB.toStdString());
    const QString csv = dir_.filePath(QStringLiteral("system.csv"));
    app::CommandLine cl;
    QString error;
    QVERIFY2(app::parseCommandLine({pathA, QStringLiteral("--compare"), pathB, QStringLiteral("--select-metric"),
                                    QStringLiteral("time"), QStringLiteral("--export-csv"), csv,
                                    QStringLiteral("--csv-tree"), QStringLiteral("system"), QStringLiteral("--quit")},
                                   &cl, &error),
             qPrintable(error));
    {
      MainWindow window;
      QCOMPARE(app::runScriptedExport(window, cl), 0);
      QVERIFY(window.selection()->comparison());
    }
    QFile file(csv);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QVERIFY2(lines.value(0).startsWith(QStringLiteral("# metric: Time (seconds); ")), qPrintable(lines.value(0)));
    QCOMPARE(lines.value(1), QStringLiteral("depth,name,A (s),B (s),B − A (s)"));
    QVERIFY2(lines.contains(QStringLiteral("2,MPI Rank 1,3,2,-1")), qPrintable(lines.join(QLatin1Char('|'))));

    // A bad run B: exit status 1, the window keeps run A.
    app::CommandLine bad;
    QVERIFY(app::parseCommandLine({pathA, QStringLiteral("--compare"), dir_.filePath(QStringLiteral("none.waitscope")),
                                   QStringLiteral("--quit")},
                                  &bad, &error));
    MainWindow window;
    QCOMPARE(app::runScriptedExport(window, bad), 1);
    QVERIFY(!window.selection()->comparison());
    QCOMPARE(window.selection()->report()->path(), QFileInfo(pathA).absoluteFilePath());
  }
};

QTEST_MAIN(ComparisonTest)
#include "comparison_test.moc"
