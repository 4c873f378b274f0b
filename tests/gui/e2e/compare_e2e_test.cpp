// End to end: two runs of tests/apps/fence on 4 processes (a 20 ms and a 50 ms
// late put) and one on 2, recorded with waitscope-run and analyzed with
// `mpiexec waitscope-analyze`, compared by the real `waitscope A --compare B`
// under Xvfb (PNG at 1024x700 and 1600x1000, the call tree as CSV with A, B and
// B − A), and by an in-process window on Xvfb's real X server: File > Compare
// With… through openComparison, the compare bar and its selector, column titles
// not cut, the selector switching every tree and the chart, the notice for
// different rank counts, and Close Comparison.
// The in-process part is this test run again under xvfb-run (the offscreen
// platform ctest gives would not test drawing on a real display).
#include <cmath>

#include <QComboBox>
#include <QFile>
#include <QFileInfo>
#include <QHeaderView>
#include <QImage>
#include <QLabel>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

#include "analysis/report/report_io.h"
#include "analysis/report/report_queries.h"
#include "app/main_window.h"
#include "tests/gui/e2e/e2e_process.h"
#include "tests/gui/support/xvfb_screenshots.h"
#include "views/model/selection.h"
#include "views/model/value_tree_model.h"
#include "views/widgets/chart_pane.h"
#include "views/widgets/header_fit.h"
#include "views/widgets/report_browser.h"
#include "views/widgets/tree_pane.h"

using waitscope::test::binary;
using waitscope::test::colourCount;
using waitscope::test::kScreenSizes;
using waitscope::test::sizeText;
using waitscope::views::CompareView;
using waitscope::views::ValueTreeModel;

namespace {

constexpr char kInner[] = "WAITSCOPE_COMPARE_E2E_INNER";  // set in the run under xvfb-run: the folder of the reports

// Pixels of the difference's red (B slower), its colour boxes and numbers, in the first `rows`
// rows: of a window's picture only the top third, the trees (the timelines below draw MPI in
// red too).
int redPixels(const QImage& image, int rows) {
  int count = 0;
  for (int y = 0; y < rows; ++y)
    for (int x = 0; x < image.width(); ++x) {
      const QColor c = image.pixelColor(x, y);
      if ((c.hsvHue() <= 8 || c.hsvHue() >= 352) && c.hsvSaturation() > 80 && c.value() > 120) ++count;
    }
  return count;
}

double fenceTotal(const QString& path) {
  const auto report = waitscope::report::readReport(path.toStdString());
  return waitscope::report::metricTotals(report)[report.findMetric("mpi_rma_wait_at_fence")];
}

}  // namespace

class CompareE2eTest : public QObject {
  Q_OBJECT

  QTemporaryDir tmp_;
  QString dir_;  // the reports, and the pictures of the run under Xvfb

  QString report(const QString& name) const { return QStringLiteral("%1/%2.waitscope").arg(dir_, name); }
  static bool inner() { return qEnvironmentVariableIsSet(kInner); }

  // Every pane's column titles whole, and the shown run's column there (the first time, B − A).
  static void checkColumns(waitscope::app::MainWindow& window) {
    waitscope::views::ReportBrowser* browser = window.browser();
    const CompareView run = window.selection()->compareView();
    for (waitscope::views::TreePane* pane : {browser->metricPane(), browser->callPane(), browser->systemPane()}) {
      const QHeaderView* header = pane->view()->header();
      const int shown = ValueTreeModel::columnOf(run);
      QCOMPARE(pane->model()->columnCount(), int(ValueTreeModel::CompareColumnCount));
      QCOMPARE(pane->model()->shownColumn(), shown);
      QVERIFY2(!header->isSectionHidden(shown), qPrintable(pane->objectName()));
      QVERIFY(header->sectionSize(shown) > 0);
      QVERIFY(pane->model()->headerData(shown, Qt::Horizontal).toString().startsWith(
          waitscope::views::compareViewShort(run) + QStringLiteral(" (")) ||
              pane->model()->headerData(shown, Qt::Horizontal).toString() == waitscope::views::compareViewShort(run));
      QCOMPARE(waitscope::views::elidedHeaderTexts(header), QStringList());
      // The name column keeps room for names: about twelve characters beside three levels.
      const QTreeView* view = pane->view();
      QVERIFY2(header->sectionSize(ValueTreeModel::NameColumn) >=
                   view->fontMetrics().averageCharWidth() * 12 + view->indentation() * 3,
               qPrintable(QStringLiteral("%1: %2 px for names")
                              .arg(pane->objectName())
                              .arg(header->sectionSize(ValueTreeModel::NameColumn))));
    }
  }

 private slots:
  void initTestCase() {
    if (inner()) {
      dir_ = qEnvironmentVariable(kInner);
      return;
    }
    if (QStandardPaths::findExecutable(QStringLiteral("xvfb-run")).isEmpty())
      QFAIL("xvfb-run is missing: run scripts/setup.sh (it installs xvfb and xauth)");
    QVERIFY(tmp_.isValid());
    dir_ = tmp_.path();
    struct Run {
      const char* name;
      int processes;
      const char* delay;
    };
    for (const Run& r : {Run{"a", 4, "0.02"}, Run{"b", 4, "0.05"}, Run{"two", 2, "0.02"}}) {
      QString output;
      QVERIFY2(waitscope::test::recordReport({binary(QStringLiteral("tests/apps/fence")), QStringLiteral("5"),
                                              QLatin1String(r.delay), QStringLiteral("--late-put")},
                                             r.processes, QStringLiteral("%1/trace-%2").arg(dir_, QLatin1String(r.name)),
                                             report(QLatin1String(r.name)), &output),
               qPrintable(output));
    }
  }

  void comparisonFromTheRealBinary() {
    if (inner()) QSKIP("run by the outer test");
    const double totalA = fenceTotal(report(QStringLiteral("a"))), totalB = fenceTotal(report(QStringLiteral("b")));
    QVERIFY(totalB > totalA + 0.05);  // 5 fences with 30 ms more imbalance on 4 ranks
    for (const QSize& size : kScreenSizes) {
      const QString png = QStringLiteral("%1/cli-compare-%2.png").arg(dir_, sizeText(size));
      const QString csv = dir_ + QStringLiteral("/compare-calls.csv");
      QVERIFY(waitscope::test::exportOnXvfb(binary(QStringLiteral("app/waitscope")),
                                            {report(QStringLiteral("a")), QStringLiteral("--compare"),
                                             report(QStringLiteral("b")), QStringLiteral("--select-metric"),
                                             QStringLiteral("mpi_rma_wait_at_fence"), QStringLiteral("--export-csv"), csv},
                                            size, png));
      const QImage image(png);
      QCOMPARE(image.size(), size);
      QVERIFY(colourCount(image) > 100);
      const int red = redPixels(image, image.height() / 3);
      QVERIFY2(red > 30, qPrintable(QStringLiteral("%1 red pixels").arg(red)));
      // The call tree's root: the metric's total in A and B, and B − A.
      QFile file(csv);
      QVERIFY(file.open(QIODevice::ReadOnly));
      const QStringList lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
      QVERIFY(lines.size() >= 3);
      QVERIFY2(lines[0].startsWith(QStringLiteral("# metric: Wait at Fence (seconds)")), qPrintable(lines[0]));
      QCOMPARE(lines[1], QStringLiteral("depth,name,A (s),B (s),B − A (s)"));
      QCOMPARE(lines[2].section(QLatin1Char(','), 2, 2).toDouble(), totalA);
      QCOMPARE(lines[2].section(QLatin1Char(','), 3, 3).toDouble(), totalB);
      QVERIFY(std::fabs(lines[2].section(QLatin1Char(','), 4, 4).toDouble() - (totalB - totalA)) < 1e-9);
    }
    // A bad run B: one line naming it, exit status 1.
    QString output;
    int exitCode = 0;
    const QString missing = dir_ + QStringLiteral("/missing.waitscope");
    QVERIFY(!waitscope::test::runProcess(binary(QStringLiteral("app/waitscope")),
                 {report(QStringLiteral("a")), QStringLiteral("--compare"), missing, QStringLiteral("--export-png"),
                  dir_ + QStringLiteral("/x.png"), QStringLiteral("--quit")},
                 QProcessEnvironment::systemEnvironment(), &output, &exitCode));
    QCOMPARE(exitCode, 1);
    QVERIFY2(output.contains(QStringLiteral("waitscope: %1: no such file").arg(missing)), qPrintable(output));
    QVERIFY(!QFileInfo::exists(dir_ + QStringLiteral("/x.png")));
  }

  void comparisonWindowOnXvfb() {
    if (!inner()) {
      QVERIFY(waitscope::test::runSelfOnXvfb(QStringLiteral("comparisonWindowOnXvfb"), kInner, dir_));
      for (const QSize& size : kScreenSizes)
        QVERIFY(QFileInfo::exists(QStringLiteral("%1/window-compare-%2.png").arg(dir_, sizeText(size))));
      return;
    }
    QCOMPARE(QGuiApplication::platformName(), QStringLiteral("xcb"));
    const double totalB = fenceTotal(report(QStringLiteral("b")));
    for (const QSize& size : kScreenSizes) {
      waitscope::app::MainWindow window;
      QVERIFY(waitscope::test::showOnScreen(window, size));
      QSignalSpy loaded(&window, &waitscope::app::MainWindow::reportLoaded);
      window.openReport(report(QStringLiteral("a")));
      QVERIFY(loaded.wait(30000));
      QSignalSpy opened(&window, &waitscope::app::MainWindow::comparisonOpened);
      window.openComparison(report(QStringLiteral("b")));
      QVERIFY(opened.wait(30000));
      QCOMPARE(opened.front().at(1).toString(), QFileInfo(report(QStringLiteral("b"))).absoluteFilePath());
      waitscope::views::ReportBrowser* browser = window.browser();
      QVERIFY(browser->selectMetric(QStringLiteral("mpi_rma_wait_at_fence")));
      QTest::qWait(200);
      QVERIFY(window.windowTitle().startsWith(QStringLiteral("a.waitscope vs b.waitscope")));

      // The compare bar and its selector, whole.
      QVERIFY(browser->compareBar()->isVisible());
      QComboBox* selector = browser->compareSelector();
      QVERIFY(selector->isVisible());
      QCOMPARE(selector->currentText(), QStringLiteral("Difference B − A"));
      QVERIFY(selector->width() >= selector->sizeHint().width());
      QVERIFY(browser->compareNotice()->isHidden());
      checkColumns(window);
      if (size.width() >= 1600) {  // room for A and B beside B − A in every pane
        for (waitscope::views::TreePane* pane : {browser->metricPane(), browser->callPane(), browser->systemPane()})
          for (int c = ValueTreeModel::RunAColumn; c < ValueTreeModel::CompareColumnCount; ++c)
            QVERIFY2(!pane->view()->header()->isSectionHidden(c), qPrintable(pane->objectName()));
      }
      const QImage picture = window.grab().toImage();
      QVERIFY(colourCount(picture) > 100);
      const QImage trees = browser->grab().toImage();
      QVERIFY(redPixels(trees, trees.height()) > 30);
      QVERIFY(picture.save(QStringLiteral("%1/window-compare-%2.png").arg(dir_, sizeText(size))));

      // The selector switches the trees and the chart to run B.
      selector->setCurrentIndex(selector->findData(int(CompareView::RunB)));
      emit selector->activated(selector->currentIndex());
      QCOMPARE(window.selection()->compareView(), CompareView::RunB);
      const ValueTreeModel* calls = browser->callModel();
      QCOMPARE(calls->shownValue(calls->tree()->roots.front()), totalB);
      double charted = 0.0;
      for (const double v : browser->chartPane()->barValues()) charted += v;
      QVERIFY(std::fabs(charted - totalB) < 1e-9);
      checkColumns(window);

      // Runs on 4 and on 2 processes: one "All ranks" location and a notice.
      window.closeComparison();
      QVERIFY(opened.count() == 1 && browser->compareBar()->isHidden());
      window.openComparison(report(QStringLiteral("two")));
      QVERIFY(opened.wait(30000));
      QTest::qWait(100);
      QVERIFY(browser->compareNotice()->isVisible());
      QCOMPARE(browser->compareNotice()->text(),
               QStringLiteral("4 ranks against 2: per-rank values are not compared (all ranks summed)."));
      QCOMPARE(window.selection()->report()->report().locations.size(), std::size_t{1});
      QCOMPARE(browser->chartPane()->barValues().size(), std::size_t{1});
      checkColumns(window);
    }
  }
};

QTEST_MAIN(CompareE2eTest)
#include "compare_e2e_test.moc"
