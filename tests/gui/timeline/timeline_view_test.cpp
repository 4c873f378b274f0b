// The timeline view, offscreen: zoom steps by keys, rubber band and wheel with
// undo and redo; the SVG holds the RMA epochs and the instance shapes of a
// builder-made trace only where the window shows them; a click on an instance
// emits instanceClicked; tooltips; collapsing a node; the view follows its
// Selection (highlights, a picked location) and writes the user's actions to it.
#include <QFile>
#include <QPainter>
#include <QScrollBar>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <random>

#include "analysis/timeline/timeline_query.h"
#include "tests/unit/timeline/timeline_scenarios.h"
#include "views/model/selection.h"
#include "views/timeline/column_spans.h"
#include "views/timeline/raster_layer.h"
#include "views/timeline/timeline_view.h"

using namespace waitscope;
using waitscope::views::TimelineView;
using waitscope::views::TimeWindow;

namespace {

struct Fixture {
  trace::TraceBuilder builder;
  std::shared_ptr<report::Report> report;
  explicit Fixture(std::size_t ranks) : builder(ranks) {}
  void attach(TimelineView& view) {
    auto index = timeline::buildTimelineIndex(builder.trace(), *report);
    view.setData(std::make_shared<timeline::LocalSliceSource>(std::move(index)), report);
  }
};

std::unique_ptr<Fixture> rmaFixture() {
  auto f = std::make_unique<Fixture>(3);
  test::buildRma(f->builder);
  f->report = std::make_shared<report::Report>(test::reportSkeleton(f->builder.trace()));
  f->report->instances.push_back({1, 1, test::callPathOf(*f->report, "main/MPI_Win_start"), 4.0, 4.5, 0});
  f->report->criticalPath.push_back({0, test::callPathOf(*f->report, "main"), 0.0, 4.0});
  f->report->criticalPath.push_back({1, test::callPathOf(*f->report, "main/MPI_Win_start"), 4.0, 4.5});
  return f;
}

// Four ranks exchanging a message ring every 50 ms for 100 s, with wait states
// on every third receive and a critical path hopping between ranks: at a few
// hundred pixels every kind of item crowds into one- and two-pixel columns.
std::unique_ptr<Fixture> denseFixture() {
  auto f = std::make_unique<Fixture>(4);
  for (trace::Rank r = 0; r < 4; ++r) f->builder.rank(r).enter(0.0, "main");
  for (int k = 0; k < 2000; ++k) {
    const double t = k * 0.05;
    for (trace::Rank r = 0; r < 4; ++r) {
      f->builder.rank(r).enter(t + 0.001, "compute").leave(t + 0.004 + 0.001 * r, "compute");
      f->builder.rank(r).send(t + 0.01, t + 0.012, (r + 1) % 4, 64, 1);
      f->builder.rank(r).recv(t + 0.02 + 0.001 * r, t + 0.03, (r + 3) % 4, 64, 1);
    }
  }
  for (trace::Rank r = 0; r < 4; ++r) f->builder.rank(r).leave(100.0, "main");
  f->report = std::make_shared<report::Report>(test::reportSkeleton(f->builder.trace()));
  const std::uint32_t recv = test::callPathOf(*f->report, "main/MPI_Recv");
  for (int k = 0; k < 2000; k += 3)
    f->report->instances.push_back({2, static_cast<std::uint32_t>(k % 4), recv, k * 0.05 + 0.02, k * 0.05 + 0.03, 0});
  for (int k = 0; k < 2000; ++k)
    f->report->criticalPath.push_back({static_cast<std::uint32_t>((k * 3) % 4), recv, k * 0.05, (k + 1) * 0.05});
  return f;
}

QImage paintedBy(TimelineView& view, bool direct) {
  view.setDirectRaster(direct);
  QImage image(view.size(), QImage::Format_ARGB32_Premultiplied);
  image.fill(Qt::white);
  QPainter p(&image);
  view.paintTo(p, view.size());
  return image;
}

// Where two pictures differ first ("" when identical).
QString firstDifference(const QImage& a, const QImage& b) {
  for (int y = 0; y < a.height(); ++y)
    for (int x = 0; x < a.width(); ++x)
      if (a.pixel(x, y) != b.pixel(x, y))
        return QStringLiteral("(%1, %2): %3 vs %4").arg(x).arg(y).arg(a.pixel(x, y), 8, 16).arg(b.pixel(x, y), 8, 16);
  return {};
}

QString svgOf(TimelineView& view, const QString& path) {
  const QString problem = view.exportSvg(path);
  if (!problem.isEmpty()) qWarning() << problem;
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return {};
  return QString::fromUtf8(f.readAll());
}

}  // namespace

class TimelineViewTest : public QObject {
  Q_OBJECT

 private slots:
  void zoomStepsAndUndo() {
    Fixture f(2);
    test::buildMessages(f.builder);
    f.report = std::make_shared<report::Report>(test::reportSkeleton(f.builder.trace()));
    views::Selection selection;
    TimelineView view(&selection);
    view.resize(800, 300);
    f.attach(view);
    QCOMPARE(view.timeWindow(), (TimeWindow{0.0, 8.0}));
    QVERIFY(!view.canUndoZoom());

    QTest::keyClick(&view, Qt::Key_Plus);
    QCOMPARE(view.timeWindow(), (TimeWindow{2.0, 6.0}));
    view.zoomIn();
    QCOMPARE(view.timeWindow(), (TimeWindow{3.0, 5.0}));
    QTest::keyClick(&view, Qt::Key_Right);  // a quarter of the window
    QCOMPARE(view.timeWindow(), (TimeWindow{3.5, 5.5}));
    QTest::keyClick(&view, Qt::Key_Z, Qt::ControlModifier);
    QCOMPARE(view.timeWindow(), (TimeWindow{3.0, 5.0}));
    view.undoZoom();
    QCOMPARE(view.timeWindow(), (TimeWindow{2.0, 6.0}));
    view.undoZoom();
    QCOMPARE(view.timeWindow(), (TimeWindow{0.0, 8.0}));
    QVERIFY(!view.canUndoZoom());
    QTest::keyClick(&view, Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
    QCOMPARE(view.timeWindow(), (TimeWindow{2.0, 6.0}));
    QVERIFY(view.canRedoZoom());
    view.zoomOut();  // a new step drops what was redoable
    QCOMPARE(view.timeWindow(), (TimeWindow{0.0, 8.0}));
    QVERIFY(!view.canRedoZoom());
    view.zoomOut();  // never beyond the trace
    QCOMPARE(view.timeWindow(), (TimeWindow{0.0, 8.0}));

    // Rubber band from t = 1 to t = 3 on rank 0's row: one step to that window (within a pixel).
    const QPointF a = view.positionOf(0, 1.0), b = view.positionOf(0, 3.0);
    QTest::mousePress(&view, Qt::LeftButton, {}, a.toPoint());
    QMouseEvent move(QEvent::MouseMove, b, view.mapToGlobal(b), Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&view, &move);
    QTest::mouseRelease(&view, Qt::LeftButton, {}, b.toPoint());
    const double pixel = 8.0 / (view.positionOf(0, 8.0).x() - view.positionOf(0, 0.0).x());
    QVERIFY2(std::abs(view.timeWindow().from - 1.0) <= pixel, qPrintable(QString::number(view.timeWindow().from)));
    QVERIFY2(std::abs(view.timeWindow().to - 3.0) <= pixel, qPrintable(QString::number(view.timeWindow().to)));
    view.undoZoom();
    QCOMPARE(view.timeWindow(), (TimeWindow{0.0, 8.0}));

    // The exact window entry, then Home.
    view.setTimeWindow(2.25, 2.5);
    QCOMPARE(view.timeWindow(), (TimeWindow{2.25, 2.5}));
    QTest::keyClick(&view, Qt::Key_Home);
    QCOMPARE(view.timeWindow(), (TimeWindow{0.0, 8.0}));
  }

  void wheelZoomsAroundThePointer() {
    Fixture f(2);
    test::buildMessages(f.builder);
    f.report = std::make_shared<report::Report>(test::reportSkeleton(f.builder.trace()));
    views::Selection selection;
    TimelineView view(&selection);
    view.resize(800, 300);
    f.attach(view);
    const QPointF at = view.positionOf(0, 2.0);
    QWheelEvent wheel(at, view.mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                      Qt::NoScrollPhase, false);
    QApplication::sendEvent(&view, &wheel);
    // 0.8 of the window, the time under the pointer stays where it was.
    QVERIFY(std::abs((view.timeWindow().to - view.timeWindow().from) - 6.4) < 1e-9);
    QVERIFY(std::abs(view.timeAt(at.x()) - 2.0) < 1e-9);
    QVERIFY(view.canUndoZoom());
  }

  void svgHoldsEpochsAndInstancesOfTheWindow() {
    auto f = rmaFixture();
    views::Selection selection;
    TimelineView view(&selection);
    view.resize(900, 300);
    view.setLegendVisible(false);  // the legend shows every colour; here only the data may
    f->attach(view);
    QTemporaryDir dir;
    const views::TimelineColors& c = view.colors();
    const QString pattern = view.colors().pattern(1).name();
    const auto has = [](const QString& svg, const QColor& color, const char* attribute) {
      return svg.contains(QStringLiteral("%1=\"%2\"").arg(QLatin1String(attribute), color.name()));
    };

    const QString all = svgOf(view, dir.filePath("all.svg"));
    QVERIFY(all.contains(QStringLiteral("<svg")));
    QVERIFY(has(all, c.epoch(timeline::EpochKind::Fence), "fill"));
    QVERIFY(has(all, c.epoch(timeline::EpochKind::Access), "fill"));
    QVERIFY(has(all, c.epoch(timeline::EpochKind::Exposure), "fill"));
    QVERIFY(has(all, c.epoch(timeline::EpochKind::Lock), "fill"));
    QVERIFY2(has(all, QColor(pattern), "stroke"), "the Late Post instance's outline");
    QVERIFY(has(all, c.criticalPath, "fill"));

    view.setTimeWindow(1.0, 3.0);  // fences only
    const QString fences = svgOf(view, dir.filePath("fences.svg"));
    QVERIFY(has(fences, c.epoch(timeline::EpochKind::Fence), "fill"));
    QVERIFY(!has(fences, c.epoch(timeline::EpochKind::Exposure), "fill"));
    QVERIFY(!has(fences, c.epoch(timeline::EpochKind::Lock), "fill"));
    QVERIFY(!has(fences, QColor(pattern), "stroke"));

    view.setTimeWindow(4.0, 5.0);  // GATS: exposure, access and the instance
    const QString gats = svgOf(view, dir.filePath("gats.svg"));
    QVERIFY(has(gats, c.epoch(timeline::EpochKind::Exposure), "fill"));
    QVERIFY(has(gats, c.epoch(timeline::EpochKind::Access), "fill"));
    QVERIFY(!has(gats, c.epoch(timeline::EpochKind::Fence), "fill"));
    QVERIFY(has(gats, QColor(pattern), "stroke"));

    QVERIFY(view.exportPng(dir.filePath("gats.png")).isEmpty());
    QVERIFY(QFile::exists(dir.filePath("gats.png")));
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression("QSvgPaintEngine::begin.*"));
    QTest::ignoreMessage(QtWarningMsg, "QPainter::begin(): Returned false");
    QVERIFY(!view.exportSvg(dir.filePath("no such dir/x.svg")).isEmpty());
  }

  void clickOnInstanceEmitsItsPatternCallPathAndLocation() {
    auto f = rmaFixture();
    views::Selection selection;
    TimelineView view(&selection);
    view.resize(900, 300);
    f->attach(view);
    QSignalSpy spy(&view, &TimelineView::instanceClicked);
    QTest::mouseClick(&view, Qt::LeftButton, {}, view.positionOf(1, 4.25).toPoint());
    QCOMPARE(spy.count(), 1);
    const QList<QVariant> args = spy.takeFirst();
    QCOMPARE(args.at(0).value<std::uint32_t>(), 1u);
    QCOMPARE(args.at(1).value<std::uint32_t>(), test::callPathOf(*f->report, "main/MPI_Win_start"));
    QCOMPARE(args.at(2).value<std::uint32_t>(), 1u);
    QTest::mouseClick(&view, Qt::LeftButton, {}, view.positionOf(0, 7.5).toPoint());  // no instance there
    QCOMPARE(spy.count(), 0);
  }

  void tooltipsDescribeWhatIsUnderThePointer() {
    auto f = rmaFixture();
    views::Selection selection;
    TimelineView view(&selection);
    view.resize(900, 300);
    f->attach(view);
    const QString instance = view.describeAt(view.positionOf(1, 4.25).toPoint());
    QVERIFY2(instance.startsWith(QStringLiteral("Late Post on MPI Rank 1")), qPrintable(instance));
    QVERIFY2(instance.contains(QStringLiteral("waiting 500 ms")), qPrintable(instance));
    QVERIFY2(instance.contains(QStringLiteral("caused by MPI Rank 0")), qPrintable(instance));
    const views::RowBands& bands = view.rows().bands();  // the epoch band under rank 2's regions
    const QPointF epochAt = view.positionOf(2, 5.9) + QPointF(0, bands.epochTop + bands.epochHeight / 2 - bands.bandMiddle());
    const QString epoch = view.describeAt(epochAt.toPoint());
    QVERIFY2(epoch.startsWith(QStringLiteral("lock epoch on window 0")), qPrintable(epoch));
    QVERIFY2(epoch.contains(QStringLiteral("exclusive lock on MPI Rank 0")), qPrintable(epoch));
    const QString region = view.describeAt(view.positionOf(0, 7.5).toPoint());
    QVERIFY2(region.startsWith(QStringLiteral("main\n")), qPrintable(region));
  }

  void tooltipOfThePathNamesTheVisitAndItsLastCallPath() {
    auto f = rmaFixture();
    views::Selection selection;
    TimelineView view(&selection);
    view.resize(900, 300);
    f->attach(view);
    const QString path = view.describeAt(view.positionOf(0, 3.6).toPoint());
    QVERIFY2(path.startsWith(QStringLiteral("Critical path on MPI Rank 0\n")), qPrintable(path));
    QVERIFY2(path.endsWith(QStringLiteral("\nat its end in main")), qPrintable(path));
  }

  // A segment is one visit to a location through many call paths: a highlighted
  // call path lights up only the part of the bar inside its regions.
  void highlightedCallPathLightsItsPartOfTheVisit() {
    auto f = rmaFixture();
    views::Selection selection;
    TimelineView view(&selection);
    view.resize(900, 300);
    f->attach(view);
    selection.setHighlightedCallPath(test::callPathOf(*f->report, "main/MPI_Win_fence"));
    for (const bool direct : {false, true}) {
      const QImage image = paintedBy(view, direct);
      const auto colorAt = [&](double t) { return image.pixelColor(view.positionOf(0, t).toPoint()); };
      QCOMPARE(colorAt(2.25), view.colors().highlight);     // in the fence from 2.0 to 2.5
      QCOMPARE(colorAt(3.6), view.colors().criticalPath);  // in main, after the fence
    }
  }

  void instancesCsvListsTheVisibleInstances() {
    auto f = rmaFixture();
    views::Selection selection;
    TimelineView view(&selection);
    view.resize(900, 300);
    f->attach(view);
    QTemporaryDir dir;
    QVERIFY(view.exportInstancesCsv(dir.filePath("i.csv")).isEmpty());
    QFile csv(dir.filePath("i.csv"));
    QVERIFY(csv.open(QIODevice::ReadOnly));
    QCOMPARE(QString::fromUtf8(csv.readAll()),
             QStringLiteral("pattern,metric,location,call_path,start_s,end_s,waiting_s,caused_by,instances\n"
                            "\"Late Post\",mpi_rma_sync_late_post,\"MPI Rank 1\",\"main/MPI_Win_start\",4,4.5,0.5,"
                            "\"MPI Rank 0\",1\n"));
    view.setTimeWindow(5.0, 6.0);
    QVERIFY(view.exportInstancesCsv(dir.filePath("none.csv")).isEmpty());
    QFile none(dir.filePath("none.csv"));
    QVERIFY(none.open(QIODevice::ReadOnly));
    QCOMPARE(none.readAll().count('\n'), 1);  // the header only
  }

  // With a Selection: the first picked metric and the highlighted call path
  // stand out (the same whether the call path is highlighted or the first call-tree
  // pick), a picked location is scrolled to, the time window goes both ways, and a
  // click on a wait state picks its metric, call path and location.
  void followsTheSelectionAndWritesToIt() {
    auto f = rmaFixture();
    auto data = std::make_shared<views::ReportData>(*f->report, QStringLiteral("rma.waitscope"));
    views::Selection selection;
    selection.setReport(data);
    TimelineView view(&selection);
    view.resize(900, 300);
    f->attach(view);
    QCOMPARE(selection.windowStart(), 0.0);
    QCOMPARE(selection.windowEnd(), 8.0);
    view.zoomIn();
    QCOMPARE(selection.windowStart(), 2.0);
    QCOMPARE(selection.windowEnd(), 6.0);
    selection.setTimeWindow(3.5, 5.0);
    QCOMPARE(view.timeWindow(), (TimeWindow{3.5, 5.0}));
    view.undoZoom();  // the window the selection set was one step
    QCOMPARE(view.timeWindow(), (TimeWindow{2.0, 6.0}));
    QCOMPARE(selection.windowStart(), 2.0);

    const std::uint32_t start = test::callPathOf(*f->report, "main/MPI_Win_start");
    views::Selection other;  // the call path as the first call-tree pick: the same pixels
    TimelineView alone(&other);
    alone.resize(view.size());
    f->attach(alone);
    alone.setTimeWindow(2.0, 6.0);
    selection.setMetrics({{0, true}});
    selection.setHighlightedCallPath(start);
    other.setMetrics({{0, true}});
    other.setCallPaths({{start, true}}, false);
    QCOMPARE(paintedBy(view, true), paintedBy(alone, true));
    selection.setMetrics({});
    selection.setHighlightedCallPath(views::kNoNode);
    QVERIFY(paintedBy(view, true) != paintedBy(alone, true));
    other.setMetrics({});
    other.setCallPaths({}, false);
    QCOMPARE(paintedBy(view, true), paintedBy(alone, true));

    QTest::mouseClick(&view, Qt::LeftButton, {}, QPoint(20, 24 + 8));  // collapse the node
    QCOMPARE(view.positionOf(2, 1.0).y(), -1.0);
    selection.setSystemItems({{data->systemNodeOfLocation(2), true}});
    QVERIFY(view.positionOf(2, 1.0).y() > 0);

    QTest::mouseClick(&view, Qt::LeftButton, {}, view.positionOf(1, 4.25).toPoint());
    QCOMPARE(selection.metrics(), (views::TreePicks{{1, true}}));
    QCOMPARE(selection.callPaths(), (views::TreePicks{{start, true}}));
    QVERIFY(!selection.flatProfile());
    QCOMPARE(selection.systemItems(), (views::TreePicks{{data->systemNodeOfLocation(1), true}}));
  }

  void nodeHeaderCollapsesAndAPickedLocationExpands() {
    auto f = rmaFixture();
    auto data = std::make_shared<views::ReportData>(*f->report, QStringLiteral("rma.waitscope"));
    views::Selection selection;
    selection.setReport(data);
    TimelineView view(&selection);
    view.resize(900, 300);
    f->attach(view);
    QVERIFY(view.positionOf(2, 1.0).y() > 0);
    QTest::mouseClick(&view, Qt::LeftButton, {}, QPoint(20, 24 + 8));  // the node header, first row
    QVERIFY(view.rows().collapsed(0));
    QCOMPARE(view.positionOf(2, 1.0).y(), -1.0);
    selection.setSystemItems({{data->systemNodeOfLocation(2), true}});
    QVERIFY(!view.rows().collapsed(0));
    QVERIFY(view.positionOf(2, 1.0).y() > 0);
  }

  void withoutDataItPaintsAndExportsNothing() {
    views::Selection selection;
    TimelineView view(&selection);
    view.resize(600, 200);
    QTemporaryDir dir;
    QVERIFY(view.exportPng(dir.filePath("empty.png")).isEmpty());
    QVERIFY(view.exportSvg(dir.filePath("empty.svg")).isEmpty());
    QVERIFY(view.describeAt(QPoint(300, 100)).isEmpty());
    QTest::keyClick(&view, Qt::Key_Plus);
    QTest::mouseClick(&view, Qt::LeftButton, {}, QPoint(300, 60));
    QCOMPARE(view.lastSliceItems(), std::size_t(0));
  }

  // The raster fast path (layers written straight into images) draws exactly
  // the pixels of the QPainter path, zoomed out (everything in one- and
  // two-pixel columns), zoomed in (diagonal lines, wide instances), highlighted.
  void directRasterPaintsWhatQPainterPaints() {
    auto dense = denseFixture();
    auto rma = rmaFixture();
    struct Case {
      Fixture* fixture;
      double from, to;
      std::uint32_t metric, callPath;
    };
    const std::uint32_t recv = test::callPathOf(*dense->report, "main/MPI_Recv");
    const Case cases[] = {
        {dense.get(), 0.0, 100.0, timeline::kNoId, timeline::kNoId},
        {dense.get(), 10.0, 13.0, timeline::kNoId, timeline::kNoId},
        {dense.get(), 20.0, 20.5, timeline::kNoId, timeline::kNoId},
        {dense.get(), 0.0, 100.0, 2, recv},
        {rma.get(), 0.0, 8.0, timeline::kNoId, timeline::kNoId},
        {rma.get(), 3.9, 6.3, 1, test::callPathOf(*rma->report, "main/MPI_Win_start")},
    };
    for (const Case& c : cases) {
      views::Selection selection;
      TimelineView view(&selection);
      view.resize(700, 260);
      c.fixture->attach(view);
      view.setTimeWindow(c.from, c.to);
      selection.setMetrics(c.metric == timeline::kNoId ? views::TreePicks{} : views::TreePicks{{c.metric, true}});
      selection.setHighlightedCallPath(c.callPath);
      const QImage reference = paintedBy(view, false);
      const QImage direct = paintedBy(view, true);
      QVERIFY(view.lastSliceItems() > 0);
      const QString where = firstDifference(reference, direct);
      QVERIFY2(where.isEmpty(), qPrintable(QStringLiteral("window %1-%2: %3").arg(c.from).arg(c.to).arg(where)));
    }
    // Scrolled so that rows are cut by the plot's top and bottom edges at every pixel offset.
    auto data = std::make_shared<views::ReportData>(*dense->report, QStringLiteral("dense.waitscope"));
    views::Selection selection;
    selection.setReport(data);
    TimelineView view(&selection);
    view.setMinimumSize(0, 0);
    view.resize(700, 110);
    dense->attach(view);
    view.setTimeWindow(0.0, 100.0);
    selection.setSystemItems({{data->systemNodeOfLocation(3), true}});
    auto* scroll = view.findChild<QScrollBar*>();
    QVERIFY(scroll && scroll->maximum() > 0);
    for (int value = 0; value <= scroll->maximum(); ++value) {
      scroll->setValue(value);
      const QString where = firstDifference(paintedBy(view, false), paintedBy(view, true));
      QVERIFY2(where.isEmpty(), qPrintable(QStringLiteral("scrolled to %1: %2").arg(value).arg(where)));
    }
  }

  // One-pixel lines written by the layer (straight, and as merged column runs)
  // are the pixels of QPainter's aliased lines, clipped or not; lines reaching
  // beyond the device are refused (QPainter draws them).
  void rasterLayerLinesAreQPaintersLines() {
    std::mt19937 rng(7);
    std::uniform_int_distribution<int> coordinate(0, 199);
    const QRect clip(10, 20, 170, 150);
    const QRgb ink = 0xff202020;
    QImage reference(200, 200, QImage::Format_ARGB32_Premultiplied), direct(reference.size(), reference.format());
    views::RasterLayer layer;
    views::ColumnSpans runs;
    for (int k = 0; k < 1500; ++k) {
      const int x0 = coordinate(rng), y0 = coordinate(rng);
      const int x1 = k % 3 == 0 ? std::clamp(x0 + (coordinate(rng) % 5) - 2, 0, 199) : coordinate(rng), y1 = coordinate(rng);
      reference.fill(Qt::white);
      direct.fill(Qt::white);
      {
        QPainter p(&reference);
        p.setClipRect(clip);
        p.setPen(QPen(QColor::fromRgba(ink), 1.0));
        const QLine l(x0, y0, x1, y1);
        p.drawLines(&l, 1);
      }
      {
        QPainter p(&direct);
        p.setClipRect(clip);
        layer.begin(p, clip);
        runs.begin(clip.left(), clip.width());
        QVERIFY(layer.line(x0, y0, x1, y1, ink, k % 2 ? &runs : nullptr));
        runs.flushTo(layer, ink);
        layer.drawTo(p);
      }
      const QString where = firstDifference(reference, direct);
      QVERIFY2(where.isEmpty(), qPrintable(QStringLiteral("(%1, %2)-(%3, %4): %5").arg(x0).arg(y0).arg(x1).arg(y1).arg(where)));
    }
    QPainter p(&direct);
    layer.begin(p, clip);
    QVERIFY(!layer.line(-5, 30, 50, 60, ink));
    QVERIFY(!layer.line(50, 30, 50, 260, ink));
    layer.drawTo(p);
  }

  // Hatched rectangles (the wait states' pattern brush, no pen) and mitred
  // outlines written by the layer are QPainter's pixels, whatever the
  // fractional edges, brush origin and painter offset; a rectangle the layer
  // refuses (an edge through a pixel centre) is left to QPainter.
  void rasterLayerHatchAndOutlinesAreQPainters() {
    std::mt19937 rng(11);
    std::uniform_real_distribution<double> position(-10.0, 200.0), extent(0.25, 60.0);
    std::uniform_int_distribution<int> small(0, 7);
    const QRect clip(10, 20, 170, 150);
    const QRgb ink = 0xff2060c0;
    const views::RasterLayer::Pattern hatch = views::RasterLayer::patternOf(Qt::BDiagPattern);
    QImage reference(200, 200, QImage::Format_ARGB32_Premultiplied), direct(reference.size(), reference.format());
    views::RasterLayer layer;
    int hatched = 0, outlined = 0;
    for (int k = 0; k < 1500; ++k) {
      // Quarter pixels now and then: edges through pixel centres and on pixel borders.
      const auto snap = [&](double v) { return k % 4 == 0 ? std::round(v * 4) / 4 : v; };
      const QRectF r(snap(position(rng)), snap(position(rng)), snap(extent(rng)), snap(extent(rng) / 3));
      const QPoint brushOrigin(k % 3 == 0 ? small(rng) : 0, k % 5 == 0 ? small(rng) : 0);
      const QPoint offset(k % 2 ? small(rng) : 0, k % 2 ? small(rng) : 0);
      const double penWidth = k % 2 ? 1.5 : 3.0;
      reference.fill(Qt::white);
      direct.fill(Qt::white);
      const auto setUp = [&](QPainter& p) {
        p.translate(offset);
        p.setClipRect(clip);
        p.setBrushOrigin(brushOrigin);
      };
      bool hatchTaken = false, outlineTaken = false;
      {
        QPainter p(&direct);
        setUp(p);
        layer.begin(p, clip);
        hatchTaken = layer.patternRect(r, hatch, brushOrigin, ink);
        outlineTaken = layer.outline(r, penWidth, ink);
        layer.drawTo(p);
      }
      {
        QPainter p(&reference);
        setUp(p);
        if (hatchTaken) {
          p.setPen(Qt::NoPen);
          p.setBrush(QBrush(QColor::fromRgba(ink), Qt::BDiagPattern));
          p.drawRects(&r, 1);
        }
        if (outlineTaken) {
          p.setPen(QPen(QColor::fromRgba(ink), penWidth, Qt::SolidLine, Qt::SquareCap, Qt::MiterJoin));
          p.setBrush(Qt::NoBrush);
          p.drawRect(r);
        }
      }
      hatched += hatchTaken;
      outlined += outlineTaken;
      const QString where = firstDifference(reference, direct);
      QVERIFY2(where.isEmpty(), qPrintable(QStringLiteral("%1,%2 %3x%4 origin %5,%6 offset %7,%8 pen %9: %10")
                                               .arg(r.x(), 0, 'g', 17).arg(r.y(), 0, 'g', 17).arg(r.width(), 0, 'g', 17).arg(r.height(), 0, 'g', 17)
                                               .arg(brushOrigin.x()).arg(brushOrigin.y())
                                               .arg(offset.x()).arg(offset.y()).arg(penWidth).arg(where)));
    }
    QVERIFY(hatched > 1000);
    QVERIFY(outlined > 600);
  }

  // A repaint of the same window, width and rows uses the slice it has.
  void repaintKeepsTheSlice() {
    auto f = denseFixture();
    struct CountingSource final : timeline::SliceSource {
      explicit CountingSource(timeline::TimelineIndex index) : local(std::move(index)) {}
      double begin() const override { return local.begin(); }
      double end() const override { return local.end(); }
      std::uint32_t locationCount() const override { return local.locationCount(); }
      timeline::RegionGroup groupOf(std::uint32_t c) const override { return local.groupOf(c); }
      timeline::SliceStatus query(const timeline::SliceRequest& r, timeline::Slice& out) override {
        ++queries;
        return local.query(r, out);
      }
      timeline::LocalSliceSource local;
      int queries = 0;
    };
    auto source = std::make_shared<CountingSource>(timeline::buildTimelineIndex(f->builder.trace(), *f->report));
    views::Selection selection;
    TimelineView view(&selection);
    view.resize(700, 260);
    view.setData(source, f->report);
    paintedBy(view, true);
    paintedBy(view, true);
    selection.setMetrics({{2, true}});
    paintedBy(view, true);
    QCOMPARE(source->queries, 1);
    view.setTimeWindow(10.0, 20.0);
    paintedBy(view, true);
    QCOMPARE(source->queries, 2);
    view.resize(600, 260);
    paintedBy(view, true);
    QCOMPARE(source->queries, 3);
    view.invalidateSlice();
    paintedBy(view, true);
    QCOMPARE(source->queries, 4);
  }

  void highlightingNeedsNoRequery() {
    auto f = rmaFixture();
    views::Selection selection;
    TimelineView view(&selection);
    view.resize(900, 300);
    f->attach(view);
    selection.setMetrics({{0, true}});  // "time": every pattern below it
    selection.setHighlightedCallPath(test::callPathOf(*f->report, "main/MPI_Win_start"));
    QImage image(view.size(), QImage::Format_ARGB32_Premultiplied);
    QPainter p(&image);
    view.paintTo(p, view.size());
    QVERIFY(view.lastSliceItems() > 0);
    selection.setMetrics({});
  }
};

QTEST_MAIN(TimelineViewTest)
#include "timeline_view_test.moc"
