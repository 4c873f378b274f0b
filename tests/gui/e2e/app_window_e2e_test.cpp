// End to end through the real binaries: record tests/apps/fence with
// waitscope-run, analyze it with `mpiexec waitscope-analyze`, then start the
// real `waitscope` window under Xvfb (a real X server, not the offscreen
// platform), open the report, select Wait at Fence, export a screenshot and
// the call tree, and check the picture (expected size, not blank) and that the
// exported numbers are the report's.
#include <algorithm>

#include <QDir>
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include "analysis/report/report_io.h"
#include "analysis/report/report_queries.h"
#include "app/compare_dialog.h"
#include "app/main_window.h"
#include "app/report_loader.h"
#include "tests/gui/support/tool_process.h"
#include "tests/gui/support/xvfb_screenshots.h"
#include "views/model/selection.h"
#include "views/timeline/critical_path_pane.h"
#include "views/timeline/timeline_view.h"

using waitscope::test::runTool;

class AppWindowE2eTest : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;
  QString report_;

  static QString binary(const QString& relative) { return QStringLiteral(WAITSCOPE_BINARY_DIR "/") + relative; }

 private slots:
  void initTestCase() {
    if (QStandardPaths::findExecutable(QStringLiteral("xvfb-run")).isEmpty())
      QFAIL("xvfb-run is missing: run scripts/setup.sh (it installs xvfb and xauth)");
    QVERIFY(dir_.isValid());
    const QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    const QString trace = dir_.filePath(QStringLiteral("fence-trace"));
    QVERIFY(runTool(binary(QStringLiteral("analysis/tools/waitscope-run")),
                    {QStringLiteral("-n"), QStringLiteral("4"), QStringLiteral("-o"), trace, QStringLiteral("--"),
                     binary(QStringLiteral("tests/apps/fence")), QStringLiteral("5"), QStringLiteral("0.02"),
                     QStringLiteral("--late-put")},
                    env));
    report_ = dir_.filePath(QStringLiteral("fence.waitscope"));
    QVERIFY(runTool(QStringLiteral(WAITSCOPE_MPIEXEC),
                    {QStringLiteral("--oversubscribe"), QStringLiteral("-n"), QStringLiteral("4"),
                     binary(QStringLiteral("analysis/tools/waitscope-analyze")), QStringLiteral("--quiet"),
                     trace + QStringLiteral("/traces.otf2"), QStringLiteral("-o"), report_},
                    env));
  }

  void screenshotOfTheRealWindow() {
    const QString png = dir_.filePath(QStringLiteral("window.png"));
    const QString csv = dir_.filePath(QStringLiteral("calls.csv"));
    QVERIFY(waitscope::test::exportOnXvfb(binary(QStringLiteral("app/waitscope")),
                                          {report_, QStringLiteral("--select-metric"),
                                           QStringLiteral("mpi_rma_wait_at_fence"), QStringLiteral("--export-csv"), csv},
                                          QSize(1280, 800), png));

    const QImage image(png);
    QVERIFY2(!image.isNull(), qPrintable(png));
    QCOMPARE(image.size(), QSize(1280, 800));
    // Not blank: trees, colour boxes, text and charts give many colours.
    const int colours = waitscope::test::colourCount(image);
    QVERIFY2(colours > 100, qPrintable(QStringLiteral("only %1 colours").arg(colours)));

    // The call tree shows Wait at Fence: its root's inclusive value is the metric's total.
    const auto report = waitscope::report::readReport(report_.toStdString());
    const std::uint32_t metric = report.findMetric("mpi_rma_wait_at_fence");
    QVERIFY(metric != waitscope::report::kNoId);
    const double total = waitscope::report::metricTotals(report)[metric];
    QVERIFY(total > 0.05);  // 5 fences with a 20 ms imbalance on 4 ranks
    QFile file(csv);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QVERIFY(lines.size() >= 3);
    QVERIFY2(lines[0].startsWith(QStringLiteral("# metric: Wait at Fence (seconds)")), qPrintable(lines[0]));
    QCOMPARE(lines[2].section(QLatin1Char(','), 2).toDouble(), total);
  }

  void timelineOfTheRealReport() {
    // The real binary draws the timeline with the wait states of the report.
    const QString png = dir_.filePath(QStringLiteral("timeline.png"));
    const QString csv = dir_.filePath(QStringLiteral("instances.csv"));
    QVERIFY(runTool(binary(QStringLiteral("app/waitscope")),
                    {report_, QStringLiteral("--select-metric"), QStringLiteral("mpi_rma_wait_at_fence"),
                     QStringLiteral("--view"), QStringLiteral("timeline"), QStringLiteral("--size"),
                     QStringLiteral("1000x500"), QStringLiteral("--export-png"), png, QStringLiteral("--export-csv"),
                     csv, QStringLiteral("--quit")},
                    QProcessEnvironment::systemEnvironment(), 120000));
    QCOMPARE(QImage(png).size(), QSize(1000, 500));
    QFile file(csv);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(file.readAll());
    QVERIFY2(text.contains(QStringLiteral("mpi_rma_wait_at_fence")), qPrintable(text.left(400)));

    // In the window: a click on a wait state selects its pattern, call path and rank in the trees.
    waitscope::app::MainWindow window;
    window.setInteractive(false);
    QSignalSpy loaded(&window, &waitscope::app::MainWindow::reportLoaded);
    window.openReport(report_);
    QVERIFY(loaded.wait(30000));
    QVERIFY2(window.loadTimelineNow(), qPrintable(window.timelineNotice()));
    const auto& report = window.selection()->report()->report();
    const std::uint32_t metric = report.findMetric("mpi_rma_wait_at_fence");
    auto instance = std::find_if(report.instances.begin(), report.instances.end(),
                                 [&](const auto& i) { return i.metric == metric; });
    QVERIFY(instance != report.instances.end());
    emit window.timelineView()->instanceClicked(instance->metric, instance->callPath, instance->location);
    QCOMPARE(window.selection()->metrics().front().node, metric);
    QCOMPARE(window.selection()->callPaths().front().node, instance->callPath);
    QCOMPARE(window.selection()->selectedLocations(), std::vector<std::uint32_t>{instance->location});

    // The critical-path view: one row per call path on the path; picking one selects it in the call tree.
    QStandardItemModel* profile = window.criticalPathPane()->model();
    QVERIFY(profile->rowCount() > 0);
    const QString pathCsv = dir_.filePath(QStringLiteral("critical-path.csv"));
    QCOMPARE(window.exportCriticalPathCsv(pathCsv), QString());
    QFile pathFile(pathCsv);
    QVERIFY(pathFile.open(QIODevice::ReadOnly));
    const QStringList rows = QString::fromUtf8(pathFile.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(rows.size(), profile->rowCount() + 1);
    QCOMPARE(rows.front(), QStringLiteral("call_path,on_path_s,share,imbalance_s"));
    const std::uint32_t onPath = report.criticalPath.front().callPath;
    emit window.criticalPathPane()->callPathSelected(onPath);
    QCOMPARE(window.selection()->callPaths().front().node, onPath);
  }

  void profileAgainstTheTraceAnalysis() {
    // The same program profiled without a trace (docs/profiling.md); the app shows the comparison table.
    const QString profile = dir_.filePath(QStringLiteral("fence.profile.waitscope"));
    QVERIFY(runTool(binary(QStringLiteral("analysis/tools/waitscope-run")),
                    {QStringLiteral("--profile"), QStringLiteral("-n"), QStringLiteral("4"), QStringLiteral("-o"),
                     profile, QStringLiteral("--"), binary(QStringLiteral("tests/apps/fence")), QStringLiteral("5"),
                     QStringLiteral("0.02"), QStringLiteral("--late-put")},
                    QProcessEnvironment::systemEnvironment()));
    waitscope::app::MainWindow window;
    window.setInteractive(false);
    QSignalSpy loaded(&window, &waitscope::app::MainWindow::reportLoaded);
    window.openReport(profile);
    QVERIFY(loaded.wait(30000));
    QCOMPARE(window.compareWithTraceAnalysis(report_), QString());
    const auto rows = waitscope::report::compareReports(waitscope::report::readReport(profile.toStdString()),
                                                       waitscope::report::readReport(report_.toStdString()), 0.5);
    QVERIFY(!rows.empty());  // Wait at Fence, estimated and measured
    QTableWidget* table = window.compareDialog()->table();
    QCOMPARE(table->rowCount(), static_cast<int>(rows.size()));
    double shownDifference = 0.0, difference = 0.0;
    for (int r = 0; r < table->rowCount(); ++r) shownDifference += table->item(r, 5)->data(Qt::UserRole).toDouble();
    for (const auto& row : rows) difference += row.differencePoints();
    QCOMPARE(shownDifference, difference);
    // A trace analysis is no profile: refused with a message, no table.
    window.showReport(waitscope::app::ReportLoader::loadNow(report_).report);
    QVERIFY(!window.compareWithTraceAnalysis(report_).isEmpty());
  }

  void unreadableReportExitsWithOneLine() {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    QProcess process;
    process.setProcessEnvironment(env);
    process.start(binary(QStringLiteral("app/waitscope")),
                  {dir_.filePath(QStringLiteral("missing.waitscope")), QStringLiteral("--export-png"),
                   dir_.filePath(QStringLiteral("x.png")), QStringLiteral("--quit")});
    QVERIFY(process.waitForFinished(60000));
    QCOMPARE(process.exitCode(), 1);
    const QString err = QString::fromUtf8(process.readAllStandardError());
    QVERIFY2(err.contains(QStringLiteral("missing.waitscope: no such file")), qPrintable(err));
  }
};

QTEST_MAIN(AppWindowE2eTest)
#include "app_window_e2e_test.moc"
