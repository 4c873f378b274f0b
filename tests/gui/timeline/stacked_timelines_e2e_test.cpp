// End to end through the real tools: record tests/apps/fence and tests/apps/gats
// with waitscope-run, analyze both with `mpiexec waitscope-analyze`, then stack
// their timelines (fence.waitscope above gats.waitscope, aligned at the end of
// MPI_Init) in a real window on Xvfb (a real X server, not the offscreen
// platform) at 1024x700 and 1600x1000, and check the screenshots: the size
// asked for, not blank, and both runs' rows drawn in their region colours.
// A copy of the gats report whose trace has moved shows its notice while the
// fence run is still stacked.
//
// The window runs in a second process of this program under xvfb-run (the
// environment variable below says so), which writes the screenshots and
// where each run's view is in them.
#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QImage>
#include <QPainter>
#include <QScreen>
#include <QSet>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTextStream>

#include "analysis/report/report_io.h"
#include "app/comparison_timeline_loader.h"
#include "app/main_window.h"
#include "tests/gui/support/xvfb_screenshots.h"
#include "views/model/selection.h"
#include "views/timeline/stacked_timelines.h"
#include "views/timeline/timeline_colors.h"
#include "views/timeline/timeline_geometry.h"
#include "views/timeline/timeline_view.h"

namespace {

using waitscope::test::kScreenSizes;
using waitscope::test::sizeText;
using waitscope::views::StackedTimelines;

constexpr char kShotsVariable[] = "WAITSCOPE_STACKED_SHOTS";  // set: this process draws the window

QString shotName(const QSize& size) { return QStringLiteral("stacked-") + sizeText(size); }

// The second process: for each size, the stacked runs in a window on the X
// server, grabbed from it, with each view's rectangle in a text file beside.
int drawOnXServer(const QString& dir) {
  const waitscope::app::ComparedRuns runs = waitscope::app::ComparisonTimelineLoader::loadNow(
      QDir(dir).filePath(QStringLiteral("fence.waitscope")), QDir(dir).filePath(QStringLiteral("gats.waitscope")));
  if (!runs.a.source || !runs.b.source) {
    qWarning() << "no timeline:" << runs.a.notice << runs.b.notice;
    return 1;
  }
  for (const QSize& size : kScreenSizes) {
    StackedTimelines stacked;
    stacked.setRuns(runs.a, runs.b);
    waitscope::views::TimelineAlignment alignment;
    alignment.kind = waitscope::views::TimelineAlignment::Kind::EndOfMpiInit;
    stacked.setAlignment(alignment);
    if (!waitscope::test::showOnScreen(stacked, size)) return 2;
    QTest::qWait(300);  // the first paint after mapping
    const QImage shot = stacked.screen()->grabWindow(stacked.winId()).toImage();
    const QString base = QDir(dir).filePath(shotName(size));
    if (!shot.save(base + QStringLiteral(".png"))) return 3;
    QFile rects(base + QStringLiteral(".txt"));
    if (!rects.open(QIODevice::WriteOnly | QIODevice::Text)) return 4;
    QTextStream out(&rects);
    for (int run = 0; run < StackedTimelines::kRuns; ++run) {
      const QRect r(stacked.view(run)->mapTo(&stacked, QPoint(0, 0)), stacked.view(run)->size());
      out << r.x() << ' ' << r.y() << ' ' << r.width() << ' ' << r.height() << '\n';
    }
  }
  return 0;
}

}  // namespace

class StackedTimelinesE2eTest : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;

  static QString binary(const QString& relative) { return QStringLiteral(WAITSCOPE_BINARY_DIR "/") + relative; }

  bool recordAndAnalyze(const QString& app, const QStringList& arguments) {
    const QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    const QString trace = dir_.filePath(app + QStringLiteral("-trace"));
    QStringList run = {QStringLiteral("-n"), QStringLiteral("4"), QStringLiteral("-o"), trace, QStringLiteral("--"),
                       binary(QStringLiteral("tests/apps/") + app)};
    using waitscope::test::runTool;
    if (!runTool(binary(QStringLiteral("analysis/tools/waitscope-run")), run + arguments, env)) return false;
    return runTool(QStringLiteral(WAITSCOPE_MPIEXEC),
                   {QStringLiteral("--oversubscribe"), QStringLiteral("-n"), QStringLiteral("4"),
                    binary(QStringLiteral("analysis/tools/waitscope-analyze")), QStringLiteral("--quiet"),
                    trace + QStringLiteral("/traces.otf2"), QStringLiteral("-o"),
                    dir_.filePath(app + QStringLiteral(".waitscope"))},
                   env);
  }

  // Pixels in `rect` of the plot (right of the labels, between ruler and legend) in a region group's colour.
  static int regionPixels(const QImage& image, const QRect& view) {
    QSet<QRgb> groups;
    for (const QColor& c : waitscope::views::TimelineColors().groups) groups.insert(c.rgb());
    const QRect plot = view.adjusted(waitscope::views::kLabelWidth, waitscope::views::kRulerHeight, 0,
                                     -waitscope::views::kLegendHeight);
    int n = 0;
    for (int y = plot.top(); y <= plot.bottom(); ++y)
      for (int x = plot.left(); x <= plot.right(); ++x)
        if (groups.contains(image.pixel(x, y) | 0xff000000u)) ++n;
    return n;
  }

 private slots:
  void initTestCase() {
    if (QStandardPaths::findExecutable(QStringLiteral("xvfb-run")).isEmpty())
      QFAIL("xvfb-run is missing: run scripts/setup.sh (it installs xvfb and xauth)");
    QVERIFY(dir_.isValid());
    QVERIFY(recordAndAnalyze(QStringLiteral("fence"), {QStringLiteral("5"), QStringLiteral("0.02"),
                                                       QStringLiteral("--late-put")}));
    QVERIFY(recordAndAnalyze(QStringLiteral("gats"), {QStringLiteral("5"), QStringLiteral("0.02")}));
  }

  void screenshotsOfBothRunsStacked() {
    QProcessEnvironment env = waitscope::test::xvfbEnvironment();
    env.insert(QString::fromLatin1(kShotsVariable), dir_.path());
    QVERIFY(waitscope::test::runOnXvfb({QCoreApplication::applicationFilePath()}, env, nullptr,
                                       QStringLiteral("1700x1100x24")));
    for (const QSize& size : kScreenSizes) {
      const QString base = dir_.filePath(shotName(size));
      const QImage image(base + QStringLiteral(".png"));
      QVERIFY2(!image.isNull(), qPrintable(base));
      QCOMPARE(image.size(), size);
      // Not blank: tool bar, labels, ruler, regions, epochs, wait states and the legend.
      const int colours = waitscope::test::colourCount(image);
      QVERIFY2(colours > 50, qPrintable(QStringLiteral("only %1 colours").arg(colours)));
      // Both runs' rows are drawn: each view's plot is largely region colour (4 ranks each).
      QFile rects(base + QStringLiteral(".txt"));
      QVERIFY(rects.open(QIODevice::ReadOnly | QIODevice::Text));
      const QStringList lines = QString::fromLatin1(rects.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
      QCOMPARE(lines.size(), 2);
      QRect views[2];
      for (int run = 0; run < 2; ++run) {
        const QStringList v = lines[run].split(QLatin1Char(' '));
        QCOMPARE(v.size(), 4);
        views[run] = QRect(v[0].toInt(), v[1].toInt(), v[2].toInt(), v[3].toInt());
        QVERIFY2(image.rect().contains(views[run]), qPrintable(lines[run]));
        const int pixels = regionPixels(image, views[run]);
        // Four ranks' 12-pixel region bands over at least a quarter of the plot's width (the
        // runs differ in length, so each covers only part of the shared axis).
        const int expected = 4 * 12 * (views[run].width() - waitscope::views::kLabelWidth) / 4;
        QVERIFY2(pixels > expected,
                 qPrintable(QStringLiteral("run %1 at %2x%3: %4 region pixels, expected over %5")
                                .arg(run).arg(size.width()).arg(size.height()).arg(pixels).arg(expected)));
      }
      QVERIFY(views[0].bottom() < views[1].top());  // A above B
      QCOMPARE(views[0].width(), views[1].width());  // one time axis: plots equally wide
    }
  }

  void comparingInTheWindowStacksBothRuns() {
    // File > Compare With… in the real window: the Compare Timelines dock shows both runs.
    waitscope::app::MainWindow window;
    window.setInteractive(false);
    QSignalSpy loaded(&window, &waitscope::app::MainWindow::reportLoaded);
    window.openReport(dir_.filePath(QStringLiteral("fence.waitscope")));
    QVERIFY(loaded.wait(30000));
    QSignalSpy opened(&window, &waitscope::app::MainWindow::comparisonOpened);
    QSignalSpy stacked(&window, &waitscope::app::MainWindow::comparedTimelinesReady);
    window.openComparison(dir_.filePath(QStringLiteral("gats.waitscope")));
    QVERIFY(stacked.wait(60000));
    QCOMPARE(opened.size(), 1);
    StackedTimelines* timelines = window.comparedTimelines();
    QVERIFY2(timelines->shown(0), qPrintable(timelines->notice(0)));
    QVERIFY2(timelines->shown(1), qPrintable(timelines->notice(1)));
    QCOMPARE(timelines->headerText(0), QStringLiteral("A: fence.waitscope"));
    QCOMPARE(timelines->headerText(1), QStringLiteral("B: gats.waitscope"));
    auto* dock = window.findChild<QDockWidget*>(QStringLiteral("compareTimelinesDock"));
    QVERIFY(dock && !dock->isHidden());
    // The pattern picked in the trees stands out in both runs.
    const auto& shown = window.selection()->report()->report();
    const std::uint32_t metric = shown.findMetric("mpi_rma_wait_at_fence");
    QVERIFY(metric != waitscope::report::kNoId);
    window.selection()->setMetrics({{metric, true}});
    QCOMPARE(timelines->highlightedMetric(), QStringLiteral("mpi_rma_wait_at_fence"));
    window.selection()->setMetrics({});
    QCOMPARE(timelines->highlightedMetric(), QString());
    // Each run's view paints its own trace's items.
    for (int run = 0; run < StackedTimelines::kRuns; ++run) {
      QImage image(timelines->view(run)->size().expandedTo(QSize(800, 300)), QImage::Format_ARGB32_Premultiplied);
      QPainter p(&image);
      timelines->view(run)->paintTo(p, image.size());
      QVERIFY2(timelines->view(run)->lastSliceItems() > 0, qPrintable(QString::number(run)));
    }
  }

  void aMovedTraceShowsItsNoticeBesideTheOtherRun() {
    auto report = waitscope::report::readReport(dir_.filePath(QStringLiteral("gats.waitscope")).toStdString());
    const QString moved = dir_.filePath(QStringLiteral("moved/traces.otf2"));
    for (auto& [key, value] : report.meta)
      if (key == "trace") value = moved.toStdString();
    const QString copy = dir_.filePath(QStringLiteral("gats-copy.waitscope"));
    waitscope::report::writeReport(report, copy.toStdString());
    const waitscope::app::ComparedRuns runs =
        waitscope::app::ComparisonTimelineLoader::loadNow(dir_.filePath(QStringLiteral("fence.waitscope")), copy);
    QVERIFY2(runs.a.source, qPrintable(runs.a.notice));
    QVERIFY(!runs.b.source);
    QVERIFY2(runs.b.notice.startsWith(moved + QStringLiteral(": trace not found")), qPrintable(runs.b.notice));
    StackedTimelines stacked;
    stacked.setRuns(runs.a, runs.b);
    QVERIFY(stacked.shown(0));
    QCOMPARE(stacked.notice(1), runs.b.notice);
    QCOMPARE(stacked.view(0)->timeWindow().from, runs.a.source->begin());
    QCOMPARE(stacked.view(0)->timeWindow().to, runs.a.source->end());
  }
};

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  const QString shots = qEnvironmentVariable(kShotsVariable);
  if (!shots.isEmpty()) return drawOnXServer(shots);
  StackedTimelinesE2eTest test;
  return QTest::qExec(&test, argc, argv);
}

#include "stacked_timelines_e2e_test.moc"
