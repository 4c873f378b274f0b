// End to end through the real tools: record tests/apps/fence on eight ranks
// with waitscope-run, analyze it with `mpiexec waitscope-analyze`, open the
// report in the real main window on Xvfb (a real X server, not the offscreen
// platform) at 1024x700 and 1600x1000, and check the screenshots: all eight
// rows drawn in the plot with the rows fitted, every legend entry drawn
// inside the window (the legend wraps, never clipped), and the plot keeping
// its size while the pointer hovers over a wait state (the details line
// under it has a fixed height). Then the real hybrid Score-P trace
// casita_2_cuda_simple (MPI + OpenMP + CUDA, two ranks), analyzed the same
// way: each rank's OpenMP thread and CUDA stream drawn as rows under it,
// indented, and the few rows filling the plot.
//
// The window runs in a second process of this program under xvfb-run (the
// environment variable below says so), which writes the screenshots and what
// the view reports about its layout; WAITSCOPE_KEEP_SHOTS=DIR copies the
// screenshots there to look at them.
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QMap>
#include <QScreen>
#include <QSet>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTextStream>

#include "app/main_window.h"
#include "tests/gui/support/xvfb_screenshots.h"
#include "views/model/report_data.h"
#include "views/model/selection.h"
#include "views/timeline/details_line.h"
#include "views/timeline/timeline_colors.h"
#include "views/timeline/timeline_geometry.h"
#include "views/timeline/timeline_legend.h"
#include "views/timeline/timeline_pane.h"
#include "views/timeline/timeline_rows.h"
#include "views/timeline/timeline_view.h"

namespace {

using waitscope::test::kScreenSizes;
using waitscope::test::sizeText;
using waitscope::views::TimelineView;

constexpr char kShotsVariable[] = "WAITSCOPE_TIMELINE_SHOTS";  // set: this process draws the window
constexpr int kRanks = 8;

QString shotName(const QSize& size, const char* what) {
  return QStringLiteral("timeline-%1-%2").arg(sizeText(size), QLatin1String(what));
}

QString rectText(const QRect& r) { return QStringLiteral("%1 %2 %3 %4").arg(r.x()).arg(r.y()).arg(r.width()).arg(r.height()); }

QRect rectOf(const QStringList& v, int at) {
  return QRect(v.value(at).toInt(), v.value(at + 1).toInt(), v.value(at + 2).toInt(), v.value(at + 3).toInt());
}

// `window` at `size` on the X server with `report` open and its timeline painted.
bool showWithTimeline(waitscope::app::MainWindow& window, const QSize& size, const QString& report) {
  if (!waitscope::test::showOnScreen(window, size)) return false;
  QSignalSpy ready(&window, &waitscope::app::MainWindow::timelineReady);
  window.openReport(report);
  if (!ready.wait(60000)) return false;
  QTest::qWait(400);  // the first paint after the layout settles
  return true;
}

// The hybrid report at the first size: per location its row's y, depth and height.
int drawHybrid(const QString& dir) {
  const QSize size = kScreenSizes.front();
  waitscope::app::MainWindow window;
  if (!showWithTimeline(window, size, QDir(dir).filePath(QStringLiteral("cuda.waitscope")))) return 12;
  TimelineView* view = window.findChild<waitscope::views::TimelinePane*>()->view();
  QFile out(QDir(dir).filePath(shotName(size, "hybrid.txt")));
  if (!out.open(QIODevice::WriteOnly | QIODevice::Text)) return 14;
  QTextStream text(&out);
  const QPoint viewAt = view->mapTo(&window, QPoint(0, 0));
  text << "plot " << rectText(view->plotRect().translated(viewAt)) << '\n';
  text << "fit " << view->fitRows() << ' ' << view->allRowsVisible() << ' ' << view->rowHeight() << '\n';
  const auto& rows = view->rows();
  for (std::uint32_t l = 0; l < rows.locationCount(); ++l) {
    const int row = rows.rowOfLocation(l);
    if (row < 0) return 15;
    text << "location " << l << ' ' << rows.rows()[row].top + view->plotRect().top() + viewAt.y() << ' '
         << rows.rows()[row].depth << ' ' << rows.parentOf(l) << '\n';
  }
  if (!window.screen()->grabWindow(window.winId()).toImage().save(QDir(dir).filePath(shotName(size, "hybrid.png")))) return 16;
  return 0;
}

// The second process: for each size, the main window with the report on the X
// server, grabbed before and while hovering, with the layout in a text file beside.
int drawOnXServer(const QString& dir) {
  for (const QSize& size : kScreenSizes) {
    waitscope::app::MainWindow window;
    if (!showWithTimeline(window, size, QDir(dir).filePath(QStringLiteral("fence.waitscope")))) return 2;
    auto* pane = window.findChild<waitscope::views::TimelinePane*>();
    TimelineView* view = pane->view();
    QFile out(QDir(dir).filePath(shotName(size, "layout.txt")));
    if (!out.open(QIODevice::WriteOnly | QIODevice::Text)) return 4;
    QTextStream text(&out);
    const QPoint viewAt = view->mapTo(&window, QPoint(0, 0));
    text << "view " << rectText(QRect(viewAt, view->size())) << '\n';
    text << "plot " << rectText(view->plotRect().translated(viewAt)) << '\n';
    text << "fit " << view->fitRows() << ' ' << view->allRowsVisible() << ' ' << view->rowHeight() << '\n';
    const auto window_ = view->timeWindow();
    text << "rows";
    for (int l = 0; l < kRanks; ++l) text << ' ' << int(view->positionOf(l, (window_.from + window_.to) / 2).y()) + viewAt.y();
    text << '\n';
    const int legendTop = view->height() - view->legendHeight();
    view->legend().flow(view->width(), view->layers(), [&](const waitscope::views::LegendEntry& e, int x, int line) {
      if (e.swatch == waitscope::views::LegendEntry::Swatch::None) return;  // a heading
      const QRect swatch(x, legendTop + line * waitscope::views::kLegendHeight + 5, waitscope::views::TimelineLegend::kSwatch,
                         waitscope::views::TimelineLegend::kSwatch);
      const QColor colour = e.brush.style() == Qt::SolidPattern ? e.brush.color() : e.pen.color();
      text << "legend " << rectText(swatch.translated(viewAt)) << ' ' << colour.name().mid(1) << ' '
           << x + waitscope::views::TimelineLegend::kSwatch + waitscope::views::TimelineLegend::kTextGap + e.textWidth + viewAt.x()
           << '\n';
    });
    if (!window.screen()->grabWindow(window.winId()).toImage().save(QDir(dir).filePath(shotName(size, "still.png")))) return 5;
    // Hover over the first wait state: the details line fills, the plot keeps its size.
    const auto& report = window.selection()->report()->report();
    if (report.instances.empty()) return 6;
    const auto& instance = report.instances.front();
    const QPoint over = view->positionOf(instance.location, (instance.start + instance.end) / 2).toPoint();
    for (int step = 0; step < 5; ++step) {
      QTest::mouseMove(view, over + QPoint(step, 0));
      QTest::qWait(100);
    }
    QTest::qWait(300);
    text << "hover " << rectText(view->plotRect().translated(view->mapTo(&window, QPoint(0, 0)))) << ' '
         << view->width() << ' ' << view->height() << '\n';
    text << "details " << pane->details()->details() << '\n';
    if (!window.screen()->grabWindow(window.winId()).toImage().save(QDir(dir).filePath(shotName(size, "hover.png")))) return 7;
  }
  return drawHybrid(dir);
}

}  // namespace

class TimelineE2eTest : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;

  static QString binary(const QString& relative) { return QStringLiteral(WAITSCOPE_BINARY_DIR "/") + relative; }

 private slots:
  void initTestCase() {
    if (QStandardPaths::findExecutable(QStringLiteral("xvfb-run")).isEmpty())
      QFAIL("xvfb-run is missing: run scripts/setup.sh (it installs xvfb and xauth)");
    QVERIFY(dir_.isValid());
    const QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    const QString trace = dir_.filePath(QStringLiteral("fence-trace"));
    using waitscope::test::runTool;
    QVERIFY(runTool(binary(QStringLiteral("analysis/tools/waitscope-run")),
                    {QStringLiteral("-n"), QString::number(kRanks), QStringLiteral("-o"), trace, QStringLiteral("--"),
                     binary(QStringLiteral("tests/apps/fence")), QStringLiteral("5"), QStringLiteral("0.02"),
                     QStringLiteral("--late-put")},
                    env));
    QVERIFY(runTool(QStringLiteral(WAITSCOPE_MPIEXEC),
                    {QStringLiteral("--oversubscribe"), QStringLiteral("-n"), QString::number(kRanks),
                     binary(QStringLiteral("analysis/tools/waitscope-analyze")), QStringLiteral("--quiet"),
                     trace + QStringLiteral("/traces.otf2"), QStringLiteral("-o"),
                     dir_.filePath(QStringLiteral("fence.waitscope"))},
                    env));
    QVERIFY(runTool(QStringLiteral(WAITSCOPE_MPIEXEC),
                    {QStringLiteral("--oversubscribe"), QStringLiteral("-n"), QStringLiteral("2"),
                     binary(QStringLiteral("analysis/tools/waitscope-analyze")), QStringLiteral("--quiet"),
                     QStringLiteral(WAITSCOPE_SHARED_DIR "/traces/casita_2_cuda_simple/traces.otf2"), QStringLiteral("-o"),
                     dir_.filePath(QStringLiteral("cuda.waitscope"))},
                    env));
  }

  void screenshotsShowEveryRowTheWholeLegendAndAStillPlot() {
    QProcessEnvironment env = waitscope::test::xvfbEnvironment();
    env.insert(QString::fromLatin1(kShotsVariable), dir_.path());
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir_.filePath(QStringLiteral("config")));  // no saved layout
    QVERIFY(waitscope::test::runOnXvfb({QCoreApplication::applicationFilePath()}, env, nullptr,
                                       QStringLiteral("1700x1100x24")));
    const QString keep = qEnvironmentVariable("WAITSCOPE_KEEP_SHOTS");
    QSet<QRgb> groups;
    for (const QColor& c : waitscope::views::TimelineColors().groups) groups.insert(c.rgb());
    for (const QSize& size : kScreenSizes) {
      const QString where = sizeText(size);
      const QImage still(dir_.filePath(shotName(size, "still.png")));
      const QImage hover(dir_.filePath(shotName(size, "hover.png")));
      QVERIFY2(!still.isNull() && !hover.isNull(), qPrintable(where));
      if (!keep.isEmpty())
        for (const char* what : {"still.png", "hover.png"})
          QFile::copy(dir_.filePath(shotName(size, what)), QDir(keep).filePath(shotName(size, what)));
      QCOMPARE(still.size(), size);
      QFile file(dir_.filePath(shotName(size, "layout.txt")));
      QVERIFY(file.open(QIODevice::ReadOnly | QIODevice::Text));
      QMap<QString, QStringList> layout;
      QList<QStringList> legend;
      for (const QString& line : QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        QStringList v = line.split(QLatin1Char(' '));
        const QString key = v.takeFirst();
        if (key == QStringLiteral("legend")) legend << v;
        else layout[key] = v;
      }
      const QRect view = rectOf(layout[QStringLiteral("view")], 0);
      const QRect plot = rectOf(layout[QStringLiteral("plot")], 0);
      QVERIFY2(still.rect().contains(view), qPrintable(where));
      // Fitted: every row in the plot, and its region band drawn across it.
      QCOMPARE(layout[QStringLiteral("fit")].value(0), QStringLiteral("1"));
      QVERIFY2(layout[QStringLiteral("fit")].value(1) == QStringLiteral("1"), qPrintable(where + QStringLiteral(": rows scroll")));
      const QStringList rows = layout[QStringLiteral("rows")];
      QCOMPARE(rows.size(), kRanks);
      for (int l = 0; l < kRanks; ++l) {
        const int y = rows[l].toInt();
        QVERIFY2(y > plot.top() && y < plot.bottom(), qPrintable(QStringLiteral("%1: rank %2 at y %3").arg(where).arg(l).arg(y)));
        int region = 0;
        // Over or beside the middle: the critical path's bar runs along it on some rows.
        for (int x = plot.left(); x <= plot.right(); ++x)
          region += groups.contains(still.pixel(x, y) | 0xff000000u) || groups.contains(still.pixel(x, y - 2) | 0xff000000u) ||
                    groups.contains(still.pixel(x, y + 2) | 0xff000000u);
        QVERIFY2(region > plot.width() / 2,
                 qPrintable(QStringLiteral("%1: rank %2 has %3 region pixels of %4").arg(where).arg(l).arg(region).arg(plot.width())));
      }
      // The legend: every entry inside the window and the view, its swatch drawn in its colour.
      QVERIFY(legend.size() >= 6 + 2 + 5 + 2);
      for (const QStringList& entry : legend) {
        const QRect swatch = rectOf(entry, 0);
        const QColor colour(QLatin1Char('#') + entry.value(4));
        const int right = entry.value(5).toInt();
        QVERIFY2(view.contains(swatch) && right <= view.right() + 1,
                 qPrintable(QStringLiteral("%1: legend entry at %2 ends at %3, the view at %4")
                                .arg(where, rectText(swatch)).arg(right).arg(view.right())));
        int n = 0;
        for (int y = swatch.top(); y <= swatch.bottom(); ++y)
          for (int x = swatch.left(); x <= swatch.right(); ++x) n += (still.pixel(x, y) | 0xff000000u) == colour.rgb();
        QVERIFY2(n > 0, qPrintable(QStringLiteral("%1: swatch %2 has no %3").arg(where, rectText(swatch), colour.name())));
      }
      // Hovering: the details line says what is there, the plot and the view keep their size.
      QVERIFY2(!layout[QStringLiteral("details")].isEmpty(), qPrintable(where));
      QCOMPARE(rectOf(layout[QStringLiteral("hover")], 0), plot);
      QCOMPARE(QSize(layout[QStringLiteral("hover")].value(4).toInt(), layout[QStringLiteral("hover")].value(5).toInt()),
               view.size());
      QCOMPARE(hover.size(), size);
    }
    hybridRowsAreUnderTheirProcessAndFillThePlot();
  }

 private:
  // Runs after the screenshots above (the same second process drew it).
  void hybridRowsAreUnderTheirProcessAndFillThePlot() {
    const QSize size = kScreenSizes.front();
    const QImage shot(dir_.filePath(shotName(size, "hybrid.png")));
    QVERIFY(!shot.isNull());
    if (const QString keep = qEnvironmentVariable("WAITSCOPE_KEEP_SHOTS"); !keep.isEmpty())
      QFile::copy(dir_.filePath(shotName(size, "hybrid.png")), QDir(keep).filePath(shotName(size, "hybrid.png")));
    QFile file(dir_.filePath(shotName(size, "hybrid.txt")));
    QVERIFY(file.open(QIODevice::ReadOnly | QIODevice::Text));
    QRect plot;
    QStringList fit;
    QMap<int, QStringList> locations;  // location -> y, depth, parent
    for (const QString& line : QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
      QStringList v = line.split(QLatin1Char(' '));
      const QString key = v.takeFirst();
      if (key == QStringLiteral("plot")) plot = rectOf(v, 0);
      else if (key == QStringLiteral("fit")) fit = v;
      else locations[v.takeFirst().toInt()] = v;
    }
    // The report: ranks 0 and 1, then rank 0's OpenMP thread and CUDA stream, then rank 1's.
    QCOMPARE(locations.size(), 6);
    const QList<int> parents = {-1, -1, 0, 0, 1, 1};
    for (int l = 0; l < 6; ++l) {
      QCOMPARE(locations[l].value(1).toInt(), parents[l] < 0 ? 0 : 1);
      QCOMPARE(locations[l].value(2).toLongLong(), parents[l] < 0 ? qint64(0xffffffffu) : qint64(parents[l]));
    }
    // In the plot from top to bottom: rank 0, its thread and stream, rank 1, its thread and stream.
    QList<int> ys;
    for (const int l : {0, 2, 3, 1, 4, 5}) ys << locations[l].value(0).toInt();
    for (int i = 0; i < ys.size(); ++i) {
      QVERIFY2(ys[i] >= plot.top() && ys[i] < plot.bottom(), qPrintable(QString::number(ys[i])));
      if (i > 0) QVERIFY(ys[i] > ys[i - 1]);
    }
    // Six rows and a node header fill the plot: nothing scrolls, less than a pixel per row is left below.
    QCOMPARE(fit.value(0), QStringLiteral("1"));
    QCOMPARE(fit.value(1), QStringLiteral("1"));
    const int height = fit.value(2).toInt();
    QCOMPARE(height, std::min((plot.height() - waitscope::views::TimelineRows::kNodeHeight) / 6,
                              waitscope::views::TimelineRows::kMaxLocationHeight));
    const int left = plot.top() + plot.height() - (ys.last() + height);
    QVERIFY2(left >= 0 && left < 6, qPrintable(QStringLiteral("%1 px below the rows").arg(left)));
    // Every row has regions drawn in its band.
    QSet<QRgb> groups;
    for (const QColor& c : waitscope::views::TimelineColors().groups) groups.insert(c.rgb());
    for (int i = 0; i < ys.size(); ++i) {
      int region = 0;
      const int y = ys[i] + height / 2;
      for (int x = plot.left(); x <= plot.right(); ++x) region += groups.contains(shot.pixel(x, y) | 0xff000000u);
      QVERIFY2(region > 0, qPrintable(QStringLiteral("row %1 at y %2 has no regions").arg(i).arg(y)));
    }
  }
};

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  const QString shots = qEnvironmentVariable(kShotsVariable);
  if (!shots.isEmpty()) return drawOnXServer(shots);
  TimelineE2eTest test;
  return QTest::qExec(&test, argc, argv);
}

#include "timeline_e2e_test.moc"
