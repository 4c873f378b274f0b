// The main window at 1024x700 with a comparison open (offscreen): the bottom
// docks (timeline, Compare Timelines, Critical Path, tabbed together) must not
// take the height of the trees with their minimum heights; the trees keep a
// usable number of rows. The timeline dock holds the pane with its layers in
// View > Timeline Layers.
#include <QAction>
#include <QDockWidget>
#include <QMenu>
#include <QMenuBar>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTreeView>
#include <QtTest>

#include "analysis/report/report_io.h"
#include "app/main_window.h"
#include "tests/gui/support/opened_window.h"
#include "tests/unit/timeline/timeline_scenarios.h"
#include "views/widgets/report_browser.h"
#include "views/widgets/tree_pane.h"

using namespace waitscope;

namespace {

constexpr int kUsableRows = 6;  // rows a tree must show at least

QString writeReportOf(const QString& path, std::size_t ranks) {
  trace::TraceBuilder b(ranks);
  for (trace::Rank r = 0; r < ranks; ++r) b.rank(r).enter(0.0, "main").enter(1.0, "work").leave(2.0, "work").leave(4.0, "main");
  report::Report report = test::reportSkeleton(b.trace());
  report::writeReport(report, path.toStdString());
  return path;
}

}  // namespace

class TimelineDocksTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

  void treesKeepTheirRowsWithAComparisonOpenAt1024x700() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString a = writeReportOf(dir.filePath(QStringLiteral("a.waitscope")), 8);
    const QString b = writeReportOf(dir.filePath(QStringLiteral("b.waitscope")), 8);
    auto opened = test::openedWindow(a, QSize(1024, 700));
    app::MainWindow& window = *opened;
    QSignalSpy compared(&window, &app::MainWindow::comparisonOpened);
    window.openComparison(b);
    QTRY_COMPARE_WITH_TIMEOUT(compared.count(), 1, 20000);
    auto* dock = window.findChild<QDockWidget*>(QStringLiteral("compareTimelinesDock"));
    QTRY_VERIFY(dock->isVisible());
    QTest::qWait(100);  // the layout after the dock shows
    QCOMPARE(window.size(), QSize(1024, 700));
    QTreeView* tree = window.browser()->callPane()->view();
    const int row = std::max(tree->fontMetrics().lineSpacing(), tree->sizeHintForRow(0));
    QVERIFY2(tree->viewport()->height() >= kUsableRows * row,
             qPrintable(QStringLiteral("the tree shows %1 px, rows of %2 px").arg(tree->viewport()->height()).arg(row)));
    // The critical path's dock too, when raised.
    auto* path = window.findChild<QDockWidget*>(QStringLiteral("criticalPathDock"));
    path->raise();
    QTest::qWait(100);
    QVERIFY(tree->viewport()->height() >= kUsableRows * row);
    QCOMPARE(window.size(), QSize(1024, 700));
  }

  void viewMenuSwitchesTimelineLayers() {
    app::MainWindow window;
    QMenu* layers = window.findChild<QMenu*>(QStringLiteral("timelineLayersMenu"));
    QVERIFY(layers);
    QStringList names;
    for (QAction* a : layers->actions()) names << a->text().remove(QLatin1Char('&'));
    QCOMPARE(names, (QStringList{QStringLiteral("Messages"), QStringLiteral("RMA Transfers"), QStringLiteral("RMA Epochs"),
                                 QStringLiteral("Wait States"), QStringLiteral("Critical Path")}));
  }
};

QTEST_MAIN(TimelineDocksTest)
#include "timeline_docks_test.moc"
