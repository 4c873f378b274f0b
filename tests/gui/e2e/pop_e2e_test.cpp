// End to end: runs of tests/apps/fence on 2 and 4 processes, recorded with
// waitscope-run and analyzed with `mpiexec waitscope-analyze`, shown as a
// scaling series by the real `waitscope --series` under Xvfb and exported
// (PNG, CSV), and the Assessment pane and the series window of an in-process
// window on Xvfb's real X server at 1024x700 and 1600x1000: pictures not blank,
// column titles not cut, the sorted rows, and the pane's link into the trees.
// The in-process part is this test run again under xvfb-run (the offscreen
// platform ctest gives would not test drawing on a real display).
#include <QDockWidget>
#include <QHeaderView>
#include <QImage>
#include <QProcess>
#include <QScrollBar>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

#include "app/command_line.h"
#include "app/main_window.h"
#include "app/report_loader.h"
#include "tests/gui/e2e/e2e_process.h"
#include "tests/gui/support/xvfb_screenshots.h"
#include "views/model/assessment_model.h"
#include "views/model/selection.h"
#include "views/widgets/assessment_pane.h"
#include "views/widgets/header_fit.h"
#include "views/widgets/report_browser.h"
#include "views/widgets/scaling_series_window.h"
#include "views/widgets/tree_pane.h"

using waitscope::test::binary;
using waitscope::test::colourCount;
using waitscope::test::kScreenSizes;
using waitscope::test::sizeText;

namespace {

constexpr char kInner[] = "WAITSCOPE_POP_E2E_INNER";  // set in the run under xvfb-run: the folder of the reports

}  // namespace

class PopE2eTest : public QObject {
  Q_OBJECT

  QTemporaryDir tmp_;
  QString dir_;  // the reports, and the pictures of the run under Xvfb

  QString report(int processes) const { return QStringLiteral("%1/fence-%2.waitscope").arg(dir_).arg(processes); }
  static bool inner() { return qEnvironmentVariableIsSet(kInner); }

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
    for (const int n : {2, 4}) {
      QString output;
      QVERIFY2(waitscope::test::recordReport({binary(QStringLiteral("tests/apps/fence")), QStringLiteral("5"),
                                              QStringLiteral("0.02"), QStringLiteral("--late-put")},
                                             n, QStringLiteral("%1/trace-%2").arg(dir_).arg(n), report(n), &output),
               qPrintable(output));
    }
  }

  void seriesOnTheCommandLine() {
    if (inner()) QSKIP("run by the outer test");
    waitscope::app::CommandLine options;
    QString error;
    QVERIFY(waitscope::app::parseCommandLine({QStringLiteral("--series"), QStringLiteral("a.waitscope"),
                                              QStringLiteral("b.waitscope"), QStringLiteral("--export-csv"),
                                              QStringLiteral("s.csv"), QStringLiteral("--quit")},
                                             &options, &error));
    QCOMPARE(options.series, (QStringList{QStringLiteral("a.waitscope"), QStringLiteral("b.waitscope")}));
    QCOMPARE(options.report, QString());
    QVERIFY(!waitscope::app::parseCommandLine({QStringLiteral("--series")}, &options, &error));
    QVERIFY2(error.contains(QStringLiteral("--series needs")), qPrintable(error));
    QVERIFY(!waitscope::app::parseCommandLine(
        {QStringLiteral("--series"), QStringLiteral("a.waitscope"), QStringLiteral("--select-metric"),
         QStringLiteral("comp")},
        &options, &error));
    QVERIFY(waitscope::app::commandLineHelp().contains(QStringLiteral("--series")));
  }

  void seriesFromTheRealBinary() {
    if (inner()) QSKIP("run by the outer test");
    const QString missing = dir_ + QStringLiteral("/missing.waitscope");
    for (const QSize& size : kScreenSizes) {
      const QString png = QStringLiteral("%1/cli-series-%2.png").arg(dir_, sizeText(size));
      const QString csv = dir_ + QStringLiteral("/series.csv");
      QString output;
      QVERIFY(waitscope::test::exportOnXvfb(
          binary(QStringLiteral("app/waitscope")),
          {QStringLiteral("--series"), report(4), missing, report(2), QStringLiteral("--export-csv"), csv}, size, png,
          &output));
      // The unreadable file is named in one line; the others are shown.
      QVERIFY2(output.contains(QStringLiteral("waitscope: %1: no such file").arg(missing)), qPrintable(output));
      const QImage image(png);
      QCOMPARE(image.size(), size);
      QVERIFY(colourCount(image) > 100);
      QFile file(csv);
      QVERIFY(file.open(QIODevice::ReadOnly));
      const QStringList lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
      QCOMPARE(lines.size(), 3);
      QVERIFY(lines[0].startsWith(QStringLiteral("run,processes,runtime_s,speedup,")));
      QVERIFY(lines[1].startsWith(QStringLiteral("fence-2,2,")));  // sorted: the reference first
      QVERIFY(lines[2].startsWith(QStringLiteral("fence-4,4,")));
      QCOMPARE(lines[1].section(QLatin1Char(','), 3, 3).toDouble(), 1.0);
    }
  }

  void assessmentAndSeriesWindowOnXvfb() {
    if (!inner()) {
      QVERIFY(waitscope::test::runSelfOnXvfb(QStringLiteral("assessmentAndSeriesWindowOnXvfb"), kInner, dir_));
      for (const QSize& size : kScreenSizes)
        for (const char* what : {"assessment", "series"})
          QVERIFY(QFileInfo::exists(QStringLiteral("%1/%2-%3.png").arg(dir_, QLatin1String(what), sizeText(size))));
      return;
    }
    QCOMPARE(QGuiApplication::platformName(), QStringLiteral("xcb"));
    for (const QSize& size : kScreenSizes) {
      const QString suffix = sizeText(size) + QStringLiteral(".png");
      waitscope::app::MainWindow window;
      QVERIFY(waitscope::test::showOnScreen(window, size));
      const waitscope::app::LoadResult four = waitscope::app::ReportLoader::loadNow(report(4));
      const waitscope::app::LoadResult two = waitscope::app::ReportLoader::loadNow(report(2));
      QVERIFY2(four.report && two.report, qPrintable(four.error + two.error));
      window.showReport(four.report);
      waitscope::views::AssessmentPane* pane = window.assessmentPane();
      pane->setReference(two.report);
      window.findChild<QDockWidget*>(QStringLiteral("assessmentDock"))->raise();
      QTest::qWait(200);
      QVERIFY(pane->isVisible());
      QCOMPARE(pane->notice(), QString());
      QCOMPARE(pane->model()->rowCount(), 7);
      QCOMPARE(waitscope::views::elidedHeaderTexts(pane->table()->horizontalHeader()), QStringList());
      // Every row in view, also at 1024x700 where the trees keep their rows above.
      QCOMPARE(pane->table()->verticalScrollBar()->maximum(), 0);
      const QImage picture = window.grab().toImage();
      QVERIFY(picture.save(dir_ + QStringLiteral("/assessment-") + suffix));
      QVERIFY(colourCount(pane->grab().toImage()) > 50);

      // The fence program waits at fences: Serialisation points to Wait at Fence, and its link
      // selects it in the metric tree.
      const int ser = pane->model()->rowOf(QStringLiteral("Serialisation Efficiency"));
      const auto& r = four.report->report();
      const std::uint32_t fence = r.findMetric("mpi_rma_wait_at_fence");
      QCOMPARE(pane->model()->rows()[ser].linkMetric, fence);
      QVERIFY(pane->followLink(ser));
      QCOMPARE(window.selection()->metrics().front().node, fence);
      QCOMPARE(window.browser()->metricPane()->view()->currentIndex().data().toString(),
               QStringLiteral("Wait at Fence"));

      waitscope::views::ScalingSeriesWindow* series =
          window.openScalingSeries({report(4), dir_ + QStringLiteral("/missing.waitscope"), report(2)});
      series->resize(size);
      series->show();
      QVERIFY(QTest::qWaitForWindowExposed(series));
      QTest::qWait(200);
      QCOMPARE(series->model()->rowCount(), 2);
      QCOMPARE(series->problems().size(), 1);
      QCOMPARE(waitscope::views::elidedHeaderTexts(series->table()->horizontalHeader()), QStringList());
      const QImage seriesPicture = series->grab().toImage();
      QCOMPARE(seriesPicture.size(), size * series->devicePixelRatio());
      QVERIFY(colourCount(seriesPicture) > 100);
      QVERIFY(seriesPicture.save(dir_ + QStringLiteral("/series-") + suffix));
      series->close();
    }
  }
};

QTEST_MAIN(PopE2eTest)
#include "pop_e2e_test.moc"
