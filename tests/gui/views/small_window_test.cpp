// The main window at 1024x700 (offscreen): every pane keeps what it needs. The
// metric tree shows ReportBrowser::kTreeRows rows (its description starts
// collapsed where they would not fit beside it, and takes about five lines at
// 1600x1000), and the POP efficiency table shows all its rows without scrolling.
// In a taller window the bottom docks get two fifths of the height, so the POP
// table's sentences wrap at 800x900 and 1600x1000 too, and fall back to one line
// each only where wrapped rows would scroll (800x700).
#include <algorithm>
#include <utility>

#include <QApplication>
#include <QDockWidget>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSplitter>
#include <QStatusBar>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

#include "analysis/report/report_io.h"
#include "tests/gui/support/opened_window.h"
#include "tests/gui/views/pop_report.h"
#include "views/model/assessment_model.h"
#include "views/widgets/assessment_pane.h"
#include "views/widgets/metric_description_pane.h"
#include "views/widgets/report_browser.h"
#include "views/widgets/tree_pane.h"

using namespace waitscope;
using namespace waitscope::views;

class SmallWindowTest : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;
  QString four_, two_;

  static void showAt(app::MainWindow& window, const QSize& size) {
    window.resize(size);
    QTRY_COMPARE(window.size(), size);
    QTest::qWait(50);  // the splitters follow the new size
  }

  // The POP table with a reference run (seven rows), its dock raised.
  void showPopTable(app::MainWindow& window) const {
    window.assessmentPane()->setReference(
        std::make_shared<ReportData>(report::readReport(two_.toStdString()), two_));
    window.findChild<QDockWidget*>(QStringLiteral("assessmentDock"))->raise();
  }

  // Every row of `pane` in view, wrapped into several lines or one line each as `wrapped` says.
  static void checkPopRows(AssessmentPane* pane, const QSize& size, bool wrapped) {
    const QString where = QStringLiteral("%1x%2 pane %3").arg(size.width()).arg(size.height()).arg(pane->height());
    QTRY_VERIFY2(pane->table()->wordWrap() == wrapped, qPrintable(where));
    QTRY_VERIFY2(pane->table()->verticalScrollBar()->maximum() == 0, qPrintable(where));
    int tallest = 0;
    for (int r = 0; r < pane->model()->rowCount(); ++r) tallest = std::max(tallest, pane->table()->rowHeight(r));
    // One line of the sentence and the cell's margins stay under two lines.
    const int twoLines = 2 * pane->table()->fontMetrics().lineSpacing();
    if (!wrapped) QVERIFY2(tallest < twoLines, qPrintable(where));
    // At 800 px the sentence column is too narrow for any sentence on one line.
    else if (size.width() < 1024) QVERIFY2(tallest >= twoLines, qPrintable(where));
  }

  // Whole rows the metric tree's viewport has room for.
  static int metricRows(ReportBrowser* browser) {
    const QTreeView* view = browser->metricPane()->view();
    return view->viewport()->height() / view->sizeHintForRow(0);
  }

 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);  // no saved layout
    QApplication::setOrganizationName(QStringLiteral("WaitscopeTest"));
    QApplication::setApplicationName(QStringLiteral("small_window_test"));
    QVERIFY(dir_.isValid());
    four_ = dir_.filePath(QStringLiteral("four.waitscope"));
    two_ = dir_.filePath(QStringLiteral("two.waitscope"));
    report::writeReport(test::popReport(test::fourRanks()), four_.toStdString());
    report::writeReport(test::popReport(test::twoRanks()), two_.toStdString());
  }

  void metricTreeKeepsItsRowsAndTheDescriptionFitsWhereThereIsRoom() {
    auto window = test::openedWindow(four_);
    ReportBrowser* browser = window->browser();
    MetricDescriptionPane* description = browser->descriptionPane();
    showAt(*window, QSize(1024, 700));
    QTRY_VERIFY2(metricRows(browser) >= ReportBrowser::kTreeRows,
                 qPrintable(QStringLiteral("%1 rows at 1024x700").arg(metricRows(browser))));
    showAt(*window, QSize(1600, 1000));
    QTRY_VERIFY2(metricRows(browser) >= ReportBrowser::kTreeRows,
                 qPrintable(QStringLiteral("%1 rows at 1600x1000").arg(metricRows(browser))));
    QTRY_COMPARE(description->height(), description->sizeHint().height());
    // Dragged by the user: the sizes stay when the window changes.
    QSplitter* splitter = browser->metricSplitter();
    const int total = splitter->sizes().value(0) + splitter->sizes().value(1);
    splitter->setSizes({total - 40, 40});
    emit splitter->splitterMoved(total - 40, 1);
    showAt(*window, QSize(1500, 1000));
    QCOMPARE(splitter->sizes().value(1), 40);
  }

  void popTableShowsEveryRowAt1024x700() {
    auto window = test::openedWindow(four_);
    showAt(*window, QSize(1024, 700));
    AssessmentPane* pane = window->assessmentPane();
    pane->setReference(std::make_shared<ReportData>(report::readReport(two_.toStdString()), two_));
    window->findChild<QDockWidget*>(QStringLiteral("assessmentDock"))->raise();
    QCOMPARE(pane->model()->rowCount(), 7);
    QTRY_VERIFY(pane->table()->isVisible());
    QTest::qWait(50);
    QTRY_COMPARE(pane->table()->verticalScrollBar()->maximum(), 0);
  }

  void popTableWrapsWhereTheWindowHasRoom() {
    auto window = test::openedWindow(four_);
    showPopTable(*window);
    AssessmentPane* pane = window->assessmentPane();
    QCOMPARE(pane->model()->rowCount(), 7);
    // The window resized while shown: the docks follow its height, in both directions.
    for (const auto& [size, wrapped] : {std::pair{QSize(800, 900), true}, std::pair{QSize(1600, 1000), true},
                                        std::pair{QSize(800, 700), false}, std::pair{QSize(1024, 700), true},
                                        std::pair{QSize(800, 900), true}}) {
      showAt(*window, size);
      const QDockWidget* dock = window->findChild<QDockWidget*>(QStringLiteral("assessmentDock"));
      // The docks' area, with their tabs, down to the status bar.
      const auto docks = [&] { return window->statusBar()->y() - dock->y(); };
      if (size.height() > 800) QTRY_VERIFY2(docks() >= size.height() * 2 / 5, qPrintable(QString::number(docks())));
      checkPopRows(pane, size, wrapped);
    }
    // A window opened at 800x900 (--size, or a new window on a tall screen) starts so too.
    auto tall = test::openedWindow(four_, QSize(800, 900));
    showPopTable(*tall);
    checkPopRows(tall->assessmentPane(), QSize(800, 900), true);
  }
};

QTEST_MAIN(SmallWindowTest)
#include "small_window_test.moc"
