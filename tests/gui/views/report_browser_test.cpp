// The browser and the main window, offscreen: coupling of the three trees and
// the charts, tree actions, loading (good, corrupted and missing files),
// export (PNG size, valid SVG, CSV equal to the model), settings, the command line.
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QMessageBox>
#include <QMimeData>
#include <QTimer>
#include <QSettings>
#include <QSignalSpy>
#include <QSplitter>
#include <QStandardPaths>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

#include "analysis/report/report_io.h"
#include "app/command_line.h"
#include "app/launch/analyze_dialog.h"
#include "app/main_window.h"
#include "app/report_loader.h"
#include "app/scripted_export.h"
#include "tests/gui/support/opened_window.h"
#include "tests/gui/views/sample_report.h"
#include "views/model/selection.h"
#include "views/model/value_tree_model.h"
#include "views/widgets/chart_pane.h"
#include "views/widgets/report_browser.h"
#include "views/widgets/tree_pane.h"

using namespace waitscope;
using namespace waitscope::views;
using namespace waitscope::test;
using waitscope::app::MainWindow;

class ReportBrowserTest : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;
  QString reportPath_;

 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QApplication::setOrganizationName(QStringLiteral("WaitscopeTest"));
    QApplication::setApplicationName(QStringLiteral("report_browser_test"));
    QVERIFY(dir_.isValid());
    reportPath_ = dir_.filePath(QStringLiteral("sample.waitscope"));
    report::writeReport(sampleReport(), reportPath_.toStdString());
  }

  void selectingAMetricFillsTheCallTreeAndACallPathTheSystemTree() {
    auto window = openedWindow(reportPath_);
    ReportBrowser* browser = window->browser();
    // Opening selects the first metric root (time) and the call-tree root (main).
    QCOMPARE(window->selection()->metrics(), (TreePicks{{kTime, true}}));
    QCOMPARE(browser->callModel()->absoluteValue(kMain), 8.75);

    QVERIFY(browser->selectMetric(QStringLiteral("mpi")));
    QCOMPARE(window->selection()->metrics(), (TreePicks{{kMpi, true}}));
    QCOMPARE(browser->callModel()->inclusiveValue(kMain), 2.75);
    QCOMPARE(browser->callModel()->exclusiveValue(kFooRecv), 1.5);
    // The system tree shows mpi in main and below (main is collapsed).
    QCOMPARE(browser->systemModel()->absoluteValue(kRank1), 2.0);
    QCOMPARE(browser->chartPane()->barValues(), (std::vector<double>{0.75, 2.0, 0}));

    // Expanding the selected metric switches to its exclusive value everywhere.
    browser->metricPane()->expandNode(kMpi, true);
    QCOMPARE(window->selection()->metrics(), (TreePicks{{kMpi, false}}));
    QCOMPARE(browser->callModel()->exclusiveValue(kFooRecv), 1.0);

    // A call path fills the system tree and the charts.
    QVERIFY(browser->selectCallPath(QStringLiteral("main/foo/MPI_Recv")));
    QCOMPARE(browser->systemModel()->absoluteValue(kRank1), 1.0);
    QCOMPARE(browser->systemModel()->absoluteValue(kRank0), 0.0);
    QCOMPARE(browser->chartPane()->barValues(), (std::vector<double>{0, 1.0, 0}));
    QCOMPARE(browser->chartPane()->quartiles(), (std::vector<double>{0, 0, 0, 1.0, 1.0}));
    browser->chartPane()->setSorted(true);
    QCOMPARE(browser->chartPane()->barLabels().front(), QStringLiteral("1"));

    // Multiple selection sums: both MPI_Recv call paths.
    browser->callPane()->selectNodes({kMainRecv, kFooRecv});
    QCOMPARE(browser->systemModel()->absoluteValue(kRank0), 0.5);
    QCOMPARE(browser->systemModel()->absoluteValue(kRank1), 1.5);

    // Selecting a location elsewhere (e.g. the timeline) selects it in the system tree.
    window->selection()->setSystemItems({{kRank2, true}});
    QCOMPARE(browser->systemPane()->picks(), (TreePicks{{kRank2, true}}));
  }

  void selectionHoldsTheHighlightedCallPathAndTheTimeWindow() {
    Selection selection;
    QSignalSpy highlighted(&selection, &Selection::highlightedCallPathChanged);
    QSignalSpy window(&selection, &Selection::timeWindowChanged);
    selection.setReport(std::make_shared<const ReportData>(sampleReport(), QStringLiteral("sample")));
    QCOMPARE(selection.highlightedCallPath(), kNoNode);
    QVERIFY(!selection.hasTimeWindow());

    // The first call-tree pick is the highlighted call path ...
    selection.setCallPaths({{kFooRecv, true}, {kMainRecv, true}}, false);
    QCOMPARE(selection.highlightedCallPath(), static_cast<std::uint32_t>(kFooRecv));
    QCOMPARE(highlighted.count(), 1);
    QCOMPARE(highlighted.last().at(0).value<std::uint32_t>(), static_cast<std::uint32_t>(kFooRecv));
    // ... none in the flat profile, where picks are regions ...
    selection.setCallPaths({{1, true}}, true);
    QCOMPARE(selection.highlightedCallPath(), kNoNode);
    // ... and a call path can be highlighted on its own (the critical-path pane); the same
    // value again emits nothing.
    selection.setHighlightedCallPath(kMain);
    selection.setHighlightedCallPath(kMain);
    QCOMPARE(selection.highlightedCallPath(), static_cast<std::uint32_t>(kMain));
    QCOMPARE(highlighted.count(), 3);

    selection.setTimeWindow(0.5, 2.0);
    selection.setTimeWindow(0.5, 2.0);
    QVERIFY(selection.hasTimeWindow());
    QCOMPARE(selection.windowStart(), 0.5);
    QCOMPARE(selection.windowEnd(), 2.0);
    QCOMPARE(window.count(), 1);
    QCOMPARE(window.last().at(0).toDouble(), 0.5);
    QCOMPARE(window.last().at(1).toDouble(), 2.0);

    // The next snapshot of a live run keeps both; a new report clears them.
    selection.updateReport(std::make_shared<const ReportData>(sampleReport(), QStringLiteral("sample")));
    QCOMPARE(selection.highlightedCallPath(), static_cast<std::uint32_t>(kMain));
    QVERIFY(selection.hasTimeWindow());
    selection.setReport(std::make_shared<const ReportData>(sampleReport(), QStringLiteral("sample")));
    QCOMPARE(selection.highlightedCallPath(), kNoNode);
    QVERIFY(!selection.hasTimeWindow());
  }

  void picksWrittenElsewhereAreSelectedInTheTrees() {
    // What a click on the timeline or the critical-path pane writes into the selection.
    auto window = openedWindow(reportPath_);
    ReportBrowser* browser = window->browser();
    Selection* selection = window->selection();
    browser->setFlatProfile(true);
    browser->metricPane()->expandNode(kMpi, true);
    selection->setMetrics({{kMpi, true}});
    selection->setCallPaths({{kFooRecv, true}}, false);
    selection->setSystemItems({{kRank1, true}});
    // The expanded metric stands for its exclusive value: the pane says so.
    QCOMPARE(selection->metrics(), (TreePicks{{kMpi, false}}));
    QCOMPARE(browser->metricPane()->picks(), (TreePicks{{kMpi, false}}));
    QVERIFY(!browser->flatProfile());
    QCOMPARE(browser->callPane()->picks(), (TreePicks{{kFooRecv, true}}));
    QCOMPARE(selection->highlightedCallPath(), static_cast<std::uint32_t>(kFooRecv));
    QCOMPARE(browser->systemPane()->picks(), (TreePicks{{kRank1, true}}));
    QCOMPARE(browser->systemModel()->absoluteValue(kRank1), 1.0);
    QCOMPARE(browser->chartPane()->barValues(), (std::vector<double>{0, 1.0, 0}));
  }

  void flatProfileAndModes() {
    auto window = openedWindow(reportPath_);
    ReportBrowser* browser = window->browser();
    browser->selectMetric(QStringLiteral("mpi"));
    browser->setFlatProfile(true);
    QVERIFY(browser->flatProfile());
    browser->callPane()->selectNode(1);  // region MPI_Recv
    QVERIFY(window->selection()->flatProfile());
    QCOMPARE(browser->systemModel()->absoluteValue(kRank0), 0.75);
    QCOMPARE(browser->systemModel()->absoluteValue(kRank1), 2.0);
    window->selection()->setMode(ValueMode::PercentOfSelection);
    QCOMPARE(browser->systemModel()->shownValue(kRank1), 100.0 * 2.0 / 2.75);
    QCOMPARE(browser->callModel()->mode(), ValueMode::PercentOfSelection);
  }

  void findAndHotPath() {
    auto window = openedWindow(reportPath_);
    ReportBrowser* browser = window->browser();
    browser->selectMetric(QStringLiteral("mpi"));
    TreePane* calls = browser->callPane();
    calls->selectNode(kMain);
    QVERIFY(calls->find(QStringLiteral("recv")));
    QCOMPARE(calls->picks().front().node, static_cast<std::uint32_t>(kMainRecv));
    QVERIFY(calls->find(QStringLiteral("recv")));
    QCOMPARE(calls->picks().front().node, static_cast<std::uint32_t>(kFooRecv));
    QVERIFY(calls->find(QStringLiteral("recv")));  // wraps around
    QCOMPARE(calls->picks().front().node, static_cast<std::uint32_t>(kMainRecv));
    QVERIFY(calls->find(QStringLiteral("recv"), true));
    QCOMPARE(calls->picks().front().node, static_cast<std::uint32_t>(kFooRecv));
    QVERIFY(!calls->find(QStringLiteral("no such region")));

    calls->view()->collapseAll();
    calls->expandHotPath();  // main (2.75) > foo (1.5, not MPI_Recv 1.25) > MPI_Recv (1.5)
    QCOMPARE(calls->picks(), (TreePicks{{kFooRecv, true}}));
    QVERIFY(calls->view()->isExpanded(calls->view()->currentIndex().parent()));
  }

  void exportWritesWhatIsShown() {
    auto window = openedWindow(reportPath_);
    window->resize(900, 600);
    QApplication::processEvents();
    ReportBrowser* browser = window->browser();
    browser->selectMetric(QStringLiteral("mpi_latesender"));
    browser->callPane()->expandNode(kMain, true);

    const QString png = dir_.filePath(QStringLiteral("window.png"));
    QCOMPARE(window->exportWindowPng(png), QString());
    const QImage image(png);
    QCOMPARE(image.size(), window->size() * window->devicePixelRatio());

    const QString svg = dir_.filePath(QStringLiteral("window.svg"));
    QCOMPARE(window->exportWindowSvg(svg), QString());
    QSvgRenderer renderer(svg);
    QVERIFY(renderer.isValid());
    QCOMPARE(renderer.viewBox().size(), window->size());

    const QString csv = dir_.filePath(QStringLiteral("calls.csv"));
    QCOMPARE(browser->callPane()->exportCsv(csv), QString());
    QFile file(csv);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    // What the values are, the header, main (expanded: exclusive 0), MPI_Recv, foo (collapsed:
    // inclusive) — foo's child is hidden.
    QCOMPARE(lines.size(), 5);
    QCOMPARE(lines[0], QStringLiteral("# metric: Late Sender (seconds); call path: main; values: Absolute"));
    QCOMPARE(lines.mid(1).join(QLatin1Char('\n')) + QLatin1Char('\n'), browser->callPane()->toCsv());
    QCOMPARE(lines[1], QStringLiteral("depth,name,Value (s)"));
    const ValueTreeModel* model = browser->callModel();
    QCOMPARE(lines[2], QStringLiteral("0,main,%1").arg(model->shownValue(kMain), 0, 'g', 17));
    QCOMPARE(lines[3].section(QLatin1Char(','), 2).toDouble(), model->shownValue(kMainRecv));
    QCOMPARE(lines[3].section(QLatin1Char(','), 2).toDouble(), 0.25);
    QCOMPARE(lines[4].section(QLatin1Char(','), 2).toDouble(), 0.5);
    // A name typed without a suffix gets ".csv"; one with a suffix is kept.
    QCOMPARE(browser->callPane()->exportCsv(dir_.filePath(QStringLiteral("typed"))), QString());
    QVERIFY(QFile::exists(dir_.filePath(QStringLiteral("typed.csv"))));
    QVERIFY(!QFile::exists(dir_.filePath(QStringLiteral("typed"))));
    QCOMPARE(browser->callPane()->exportCsv(dir_.filePath(QStringLiteral("calls.txt"))), QString());
    QVERIFY(QFile::exists(dir_.filePath(QStringLiteral("calls.txt"))));

    QVERIFY(!window->exportWindowPng(QStringLiteral("/nonexistent-dir/x.png")).isEmpty());
  }

  void badFilesFailWithTheirNameAndKeepTheWindow() {
    MainWindow window;
    window.setInteractive(false);
    QSignalSpy failed(&window, &MainWindow::loadFailed);
    const QString garbage = dir_.filePath(QStringLiteral("garbage.waitscope"));
    QFile file(garbage);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("this is not a report\n");
    file.close();
    window.openReport(garbage);
    QVERIFY(failed.wait(10000));
    QVERIFY(failed.front().front().toString().contains(garbage));
    window.openReport(dir_.filePath(QStringLiteral("missing.waitscope")));
    QVERIFY(failed.wait(10000));
    QVERIFY(failed.back().front().toString().contains(QStringLiteral("missing.waitscope")));
    QVERIFY(!window.selection()->report());
  }

  void badFileShowsAMessageBoxNamingIt() {
    MainWindow window;  // interactive, as started by a user
    window.show();
    const QString foreign = dir_.filePath(QStringLiteral("foreign.waitscope"));
    QFile file(foreign);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QByteArray(4096, 'x'));
    file.close();
    QString shown;
    QTimer closer;
    connect(&closer, &QTimer::timeout, this, [&] {
      if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
        shown = box->text();
        box->accept();
      }
    });
    closer.start(20);
    QSignalSpy failed(&window, &MainWindow::loadFailed);
    window.openReport(foreign);
    QVERIFY(failed.wait(10000));
    QVERIFY2(shown.contains(foreign), qPrintable(shown));
    QVERIFY(window.isVisible());  // the app keeps running
  }

  void opensScorePCubeProfiles() {
    // Score-P's profile of the casita example: its metric, call and system trees, read-only.
    MainWindow window;
    window.setInteractive(false);
    QSignalSpy loaded(&window, &MainWindow::reportLoaded);
    window.openReport(QStringLiteral(WAITSCOPE_SHARED_DIR "/traces/casita_4_mpi_ls_barr/profile.cubex"));
    QVERIFY(loaded.wait(10000));
    const report::Report& r = window.selection()->report()->report();
    QCOMPARE(r.locations.size(), std::size_t(4));
    QVERIFY(r.findMetric("time") != report::kNoId);
    QVERIFY(window.browser()->callModel()->rowCount() > 0);
    QCOMPARE(window.browser()->metricModel()->absoluteValue(0),
             window.selection()->report()->metricInclusive()[0]);
  }

  void cancelKeepsTheShownReport() {
    auto window = openedWindow(reportPath_);
    const ReportDataPtr shown = window->selection()->report();
    QSignalSpy loaded(window.get(), &MainWindow::reportLoaded);
    window->openReport(reportPath_);
    window->loader()->cancel();
    QTest::qWait(300);
    QCOMPARE(loaded.count(), 0);
    QCOMPARE(window->selection()->report(), shown);
  }

  void dropOpensTheReport() {
    MainWindow window;
    window.setInteractive(false);
    QSignalSpy loaded(&window, &MainWindow::reportLoaded);
    window.show();
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(reportPath_)});
    QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&window, &enter);
    QVERIFY(enter.isAccepted());
    QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&window, &drop);
    QVERIFY(loaded.wait(10000));
    QCOMPARE(window.recentFiles().front(), QFileInfo(reportPath_).absoluteFilePath());
  }

  void analyzeDialogOpensTheReportItBringsBack() {
    MainWindow window;
    window.setInteractive(false);
    launch::AnalyzeDialog* dialog = window.showAnalyzeDialog();
    QVERIFY(dialog->isVisible());
    QCOMPARE(window.showAnalyzeDialog(), dialog);  // one dialog per window
    QSignalSpy loaded(&window, &MainWindow::reportLoaded);
    emit dialog->reportReady(reportPath_);  // what a finished run emits
    QVERIFY(loaded.wait(10000));
    QCOMPARE(window.selection()->report()->path(), QFileInfo(reportPath_).absoluteFilePath());
    dialog->close();
  }

  void settingsAreRemembered() {
    {
      auto window = openedWindow(reportPath_);
      window->selection()->setMode(ValueMode::PeerPercent);
      window->browser()->treeSplitter()->setSizes({100, 500, 300});
      window->saveSettings();
    }
    MainWindow restored;
    restored.restoreSettings();
    QCOMPARE(restored.selection()->mode(), ValueMode::PeerPercent);
    QCOMPARE(restored.recentFiles().front(), QFileInfo(reportPath_).absoluteFilePath());
    QSettings().clear();
  }

  void commandLine() {
    app::CommandLine cl;
    QString error;
    QVERIFY(app::parseCommandLine({QStringLiteral("r.waitscope"), QStringLiteral("--select-metric"),
                                   QStringLiteral("mpi_latesender"), QStringLiteral("--mode"),
                                   QStringLiteral("percent"), QStringLiteral("--export-png"), QStringLiteral("a.png"),
                                   QStringLiteral("--size"), QStringLiteral("800x600"), QStringLiteral("--quit")},
                                  &cl, &error));
    QCOMPARE(cl.report, QStringLiteral("r.waitscope"));
    QCOMPARE(cl.metric, QStringLiteral("mpi_latesender"));
    QCOMPARE(cl.mode, ValueMode::PercentOfTotal);
    QCOMPARE(cl.size, QSize(800, 600));
    QVERIFY(cl.quit && cl.exports());
    QVERIFY(!app::parseCommandLine({QStringLiteral("--mode"), QStringLiteral("loud")}, &cl, &error));
    QVERIFY(error.contains(QStringLiteral("loud")));
    QVERIFY(!app::parseCommandLine({QStringLiteral("--export-png"), QStringLiteral("a.png")}, &cl, &error));
    QVERIFY(!app::parseCommandLine({QStringLiteral("--bogus")}, &cl, &error));
    QCOMPARE(error, QStringLiteral("unknown option --bogus"));
    // Help, version and --quit are known even beside a usage error (main decides on them first).
    QVERIFY(!app::parseCommandLine({QStringLiteral("--bogus"), QStringLiteral("--quit"), QStringLiteral("-h")}, &cl,
                                   &error));
    QVERIFY(cl.quit && cl.help && !cl.version);
    QVERIFY(app::parseCommandLine({QStringLiteral("--version")}, &cl, &error) && cl.version);
    // Qt's own options stay accepted; QApplication reads them.
    QVERIFY(app::parseCommandLine({QStringLiteral("-platform"), QStringLiteral("offscreen"), QStringLiteral("r.waitscope")},
                                  &cl, &error));
    QCOMPARE(cl.report, QStringLiteral("r.waitscope"));
    const QString help = app::commandLineHelp();
    for (const char* option : {"--select-metric", "--select-callpath", "--mode", "--flat", "--size", "--view",
                               "--time-window", "--export-png", "--export-svg", "--export-csv", "--csv-tree", "--quit",
                               "--allow-remote-timeline", "--help", "--version"})
      QVERIFY2(help.contains(QLatin1String(option)), option);
    QVERIFY(!help.contains(QLatin1String("platform")));

    // The scripted run: select, export and report unknown names.
    MainWindow window;
    app::CommandLine scripted;
    scripted.report = reportPath_;
    scripted.metric = QStringLiteral("mpi_latesender");
    scripted.callPath = QStringLiteral("main/MPI_Recv");
    scripted.exportCsv = dir_.filePath(QStringLiteral("scripted.csv"));
    scripted.csvTree = QStringLiteral("system");
    scripted.quit = true;
    QCOMPARE(app::runScriptedExport(window, scripted), 0);
    QCOMPARE(window.browser()->systemModel()->absoluteValue(kRank0), 0.25);
    QVERIFY(QFile::exists(scripted.exportCsv));
    scripted.metric = QStringLiteral("no_such_metric");
    QCOMPARE(app::runScriptedExport(window, scripted), 1);
  }
};

QTEST_MAIN(ReportBrowserTest)
#include "report_browser_test.moc"
