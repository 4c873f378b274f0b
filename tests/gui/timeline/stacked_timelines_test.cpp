// Two runs' timelines stacked on one time axis, offscreen, on builder-made
// traces with dyadic times: the alignment point of each choice (trace start,
// end of MPI_Init over all ranks, first call of a region, an offset) is the
// time built into the trace; the views show the same window relative to it;
// zooming, panning or undoing in either view moves both; the alignment point
// is marked by a line through the plot; a picked pattern stands out in both; a run without a timeline shows its
// notice and the other run is still shown; the loader's notice for a report
// whose trace is missing names the trace and what to do.
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include "analysis/report/report_io.h"
#include "analysis/timeline/timeline_query.h"
#include "app/comparison_timeline_loader.h"
#include "tests/unit/timeline/timeline_scenarios.h"
#include "views/timeline/stacked_timelines.h"
#include "views/timeline/timeline_colors.h"
#include "views/timeline/timeline_alignment.h"
#include "views/timeline/timeline_view.h"

using namespace waitscope;
using views::StackedTimelines;
using views::TimelineAlignment;

namespace {

struct Run {
  std::shared_ptr<timeline::LocalSliceSource> source;
  std::shared_ptr<report::Report> report;
  views::ComparedRun compared(const QString& label) const { return {label, source, report, {}}; }
};

// A Late Post instance (the skeleton's metric 1) on rank 0 in main over [from, to].
Run runOf(trace::TraceBuilder& b, double from, double to) {
  Run run;
  run.report = std::make_shared<report::Report>(test::reportSkeleton(b.trace()));
  run.report->instances.push_back({1, 0, test::callPathOf(*run.report, "main"), from, to, 1});
  run.source = std::make_shared<timeline::LocalSliceSource>(timeline::buildTimelineIndex(b.trace(), *run.report));
  return run;
}

// Run A: [0, 4]. MPI_Init ends at 1 on rank 0 and at 1.25 on rank 1 (the last rank ready);
// the region "solver" is first entered at 1.5 (rank 1), with "compute" nested in it.
Run runA() {
  trace::TraceBuilder b(2);
  b.rank(0).enter(0.0, "main").init(0.5, 1.0).enter(2.0, "solver").enter(2.25, "compute").leave(2.5, "compute")
      .leave(3.0, "solver").leave(4.0, "main");
  b.rank(1).enter(0.25, "main").init(0.5, 1.25).enter(1.5, "solver").leave(3.0, "solver").leave(4.0, "main");
  return runOf(b, 3.0, 3.75);
}

// Run B: [0.5, 6]. Rank 1 initialises with MPI_Init_thread, last, until 2.5; "solver" is first
// entered at 3 (rank 0), its first moment spent in the nested "compute".
Run runB() {
  trace::TraceBuilder b(2);
  b.rank(0).enter(0.5, "main").init(1.0, 2.0).enter(3.0, "solver").enter(3.0, "compute").leave(3.5, "compute")
      .leave(4.0, "solver").leave(6.0, "main");
  b.rank(1).enter(0.75, "main").enter(1.0, "MPI_Init_thread").leave(2.5, "MPI_Init_thread").enter(3.5, "solver")
      .leave(5.0, "solver").leave(6.0, "main");
  return runOf(b, 4.0, 5.5);
}

TimelineAlignment alignAt(TimelineAlignment::Kind kind, const QString& region = {}, double offset = 0.0) {
  TimelineAlignment a;
  a.kind = kind;
  a.region = region;
  a.offset = offset;
  return a;
}

// The window a stacked view shows, relative to its run's alignment point.
views::TimeWindow shared(const StackedTimelines& s, int run) {
  const views::TimeWindow w = s.view(run)->timeWindow();
  return {w.from - s.origin(run), w.to - s.origin(run)};
}

// Pixels of the alignment point's colour in the pixel column of `time`, as the view paints itself.
int originLinePixels(views::TimelineView& view, double time) {
  QImage image(view.size(), QImage::Format_ARGB32_Premultiplied);
  image.fill(Qt::white);
  {
    QPainter p(&image);
    view.paintTo(p, view.size());
  }
  const int x = static_cast<int>(std::floor(view.positionOf(0, time).x()));
  const QRgb origin = views::TimelineColors().origin.rgb();
  int n = 0;
  for (int y = 0; y < image.height(); ++y) n += image.pixel(x, y) == origin;
  return n;
}

// Pixels of wait-state pattern `metric`'s colour in the view as it paints itself
// (without the legend, whose swatch has the colour whatever is picked).
int patternPixels(views::TimelineView& view, std::uint32_t metric) {
  QImage image(view.size(), QImage::Format_ARGB32_Premultiplied);
  image.fill(Qt::white);
  const bool legend = view.legendVisible();
  view.setLegendVisible(false);
  {
    QPainter p(&image);
    view.paintTo(p, view.size());
  }
  view.setLegendVisible(legend);
  const QRgb colour = view.colors().pattern(metric).rgb();
  int n = 0;
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x) n += image.pixel(x, y) == colour;
  return n;
}

// Shown, so that the layout makes both views as wide as the window.
bool laidOut(StackedTimelines& stacked) {
  stacked.resize(900, 600);
  stacked.show();
  return QTest::qWaitForWindowExposed(&stacked);
}

}  // namespace

class StackedTimelinesTest : public QObject {
  Q_OBJECT

 private slots:
  void alignmentPointsAreTheTimesBuiltIntoTheTraces() {
    const Run a = runA(), b = runB();
    using Kind = TimelineAlignment::Kind;
    struct Case {
      TimelineAlignment alignment;
      double a, b;
    };
    const Case cases[] = {
        {alignAt(Kind::TraceStart), 0.0, 0.5},
        {alignAt(Kind::EndOfMpiInit), 1.25, 2.5},
        {alignAt(Kind::FirstCallOfRegion, QStringLiteral("solver")), 1.5, 3.0},
        {alignAt(Kind::FirstCallOfRegion, QStringLiteral(" compute ")), 2.25, 3.0},
        {alignAt(Kind::Offset, {}, 0.25), 0.0, 0.25},  // B drawn 0.25 s later: its start at t = 0.25
        {alignAt(Kind::Offset, {}, -1.0), 0.0, 1.5},
    };
    for (const Case& c : cases) {
      const views::AlignmentPoint pa = views::alignmentPoint(*a.source, *a.report, c.alignment, false);
      const views::AlignmentPoint pb = views::alignmentPoint(*b.source, *b.report, c.alignment, true);
      QVERIFY(pa.found && pb.found);
      QCOMPARE(pa.time, c.a);
      QCOMPARE(pb.time, c.b);
    }
    // A region never entered: not found, at the trace start, and the line names it.
    const views::AlignmentPoint none = views::alignmentPoint(
        *b.source, *b.report, alignAt(Kind::FirstCallOfRegion, QStringLiteral("no_such_loop")), true);
    QVERIFY(!none.found);
    QCOMPARE(none.time, 0.5);
    QVERIFY2(none.problem.contains(QStringLiteral("\"no_such_loop\"")), qPrintable(none.problem));
  }

  void theRunsAreShiftedToTheAlignmentPoint() {
    const Run a = runA(), b = runB();
    StackedTimelines stacked;
    QVERIFY(laidOut(stacked));
    stacked.setRuns(a.compared(QStringLiteral("A: a.waitscope")), b.compared(QStringLiteral("B: b.waitscope")));
    QVERIFY(stacked.shown(0) && stacked.shown(1));
    QCOMPARE(stacked.headerText(0), QStringLiteral("A: a.waitscope"));
    QCOMPARE(stacked.headerText(1), QStringLiteral("B: b.waitscope"));

    // Trace starts aligned: the axis spans both runs, A over [0, 4], B over [0, 5.5].
    QCOMPARE(stacked.origin(0), 0.0);
    QCOMPARE(stacked.origin(1), 0.5);
    QCOMPARE(stacked.view(0)->timeWindow().from, 0.0);
    QCOMPARE(stacked.view(0)->timeWindow().to, 5.5);
    QCOMPARE(stacked.view(1)->timeWindow().from, 0.5);
    QCOMPARE(stacked.view(1)->timeWindow().to, 6.0);
    QCOMPARE(stacked.view(1)->timeOrigin(), 0.5);

    // The alignment point is marked by a line down through the plot, unless it is the trace's 0 (A's here).
    QCOMPARE(originLinePixels(*stacked.view(0), 0.0), 0);
    QVERIFY(originLinePixels(*stacked.view(1), 0.5) > 50);

    // End of MPI_Init: t = 0 at 1.25 in A and 2.5 in B; shown whole: from -2 (B's start) to 3.5 (B's end).
    stacked.setAlignment(alignAt(TimelineAlignment::Kind::EndOfMpiInit));
    QCOMPARE(stacked.origin(0), 1.25);
    QCOMPARE(stacked.origin(1), 2.5);
    QCOMPARE(stacked.view(0)->timeOrigin(), 1.25);
    QCOMPARE(shared(stacked, 0).from, -2.0);
    QCOMPARE(shared(stacked, 0).to, 3.5);
    QCOMPARE(shared(stacked, 1).from, -2.0);
    QCOMPARE(shared(stacked, 1).to, 3.5);
    QCOMPARE(stacked.view(0)->timeWindow().from, -0.75);  // A shows time before its trace began
    QVERIFY2(stacked.alignmentText().contains(QStringLiteral("A at 1.25 s")), qPrintable(stacked.alignmentText()));
    QVERIFY2(stacked.alignmentText().contains(QStringLiteral("B at 2.5 s")), qPrintable(stacked.alignmentText()));
    QVERIFY(originLinePixels(*stacked.view(0), 1.25) > 50);
    // The same point on both rows is at the same x.
    QCOMPARE(stacked.view(0)->positionOf(0, 1.25).x(), stacked.view(1)->positionOf(0, 2.5).x());

    // Typed: the first call of a region, then an offset; Enter applies.
    stacked.alignmentChoice()->setCurrentIndex(2);
    emit stacked.alignmentChoice()->activated(2);
    QVERIFY(stacked.alignmentValue()->isVisibleTo(&stacked));
    QTest::keyClicks(stacked.alignmentValue(), QStringLiteral("solver"));
    QTest::keyClick(stacked.alignmentValue(), Qt::Key_Return);
    QCOMPARE(stacked.alignment().kind, TimelineAlignment::Kind::FirstCallOfRegion);
    QCOMPARE(stacked.origin(0), 1.5);
    QCOMPARE(stacked.origin(1), 3.0);
    stacked.alignmentChoice()->setCurrentIndex(3);
    emit stacked.alignmentChoice()->activated(3);
    QTest::keyClicks(stacked.alignmentValue(), QStringLiteral("1e-1"));
    QTest::keyClick(stacked.alignmentValue(), Qt::Key_Return);
    QCOMPARE(stacked.alignment().kind, TimelineAlignment::Kind::Offset);
    QCOMPARE(stacked.origin(0), 0.0);
    QCOMPARE(stacked.origin(1), 0.4);
    // Not a number: said so, the alignment stays.
    stacked.alignmentValue()->setText(QStringLiteral("soon"));
    QTest::keyClick(stacked.alignmentValue(), Qt::Key_Return);
    QCOMPARE(stacked.origin(1), 0.4);
    QVERIFY(stacked.findChild<QLabel*>(QStringLiteral("alignmentText"))->text().contains(QStringLiteral("\"soon\"")));

    // A point one run lacks: that run at its trace start, and the line says which and why.
    stacked.setAlignment(alignAt(TimelineAlignment::Kind::FirstCallOfRegion, QStringLiteral("compute")));
    QCOMPARE(stacked.origin(0), 2.25);
    QCOMPARE(stacked.origin(1), 3.0);
    stacked.setAlignment(alignAt(TimelineAlignment::Kind::FirstCallOfRegion, QStringLiteral("MPI_Init_thread")));
    QCOMPARE(stacked.origin(0), 0.0);
    QCOMPARE(stacked.origin(1), 1.0);
    QVERIFY2(stacked.alignmentText().contains(QStringLiteral("A: a.waitscope: no call of the region \"MPI_Init_thread\"")),
             qPrintable(stacked.alignmentText()));
  }

  void zoomingEitherRunZoomsBoth() {
    const Run a = runA(), b = runB();
    StackedTimelines stacked;
    QVERIFY(laidOut(stacked));
    stacked.setRuns(a.compared(QStringLiteral("A")), b.compared(QStringLiteral("B")));
    stacked.setAlignment(alignAt(TimelineAlignment::Kind::EndOfMpiInit));  // axis [-2, 3.5]
    views::TimelineView* va = stacked.view(0);
    views::TimelineView* vb = stacked.view(1);

    va->zoomIn();  // around the middle, 0.75: [-0.625, 2.125]
    QCOMPARE(shared(stacked, 0).from, -0.625);
    QCOMPARE(shared(stacked, 0).to, 2.125);
    QCOMPARE(shared(stacked, 1).from, shared(stacked, 0).from);
    QCOMPARE(shared(stacked, 1).to, shared(stacked, 0).to);
    QCOMPARE(vb->timeWindow().from, 1.875);

    // The wheel over B zooms both around the time under the pointer.
    const QPointF at = vb->positionOf(0, 2.5);
    QWheelEvent wheel(at, vb->mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                      Qt::NoScrollPhase, false);
    QApplication::sendEvent(vb, &wheel);
    QVERIFY(std::abs((shared(stacked, 1).to - shared(stacked, 1).from) - 2.75 * 0.8) < 1e-9);
    QCOMPARE(shared(stacked, 0).from, shared(stacked, 1).from);
    QCOMPARE(shared(stacked, 0).to, shared(stacked, 1).to);

    // Panning B by keys pans A; one zoom history: undo in A undoes B's steps, and back.
    QTest::keyClick(vb, Qt::Key_Right);
    QCOMPARE(shared(stacked, 0).from, shared(stacked, 1).from);
    QVERIFY(va->canUndoZoom());
    va->undoZoom();  // B's pan
    va->undoZoom();  // B's wheel step
    QCOMPARE(shared(stacked, 0).from, -0.625);
    QCOMPARE(shared(stacked, 1).from, -0.625);
    QCOMPARE(shared(stacked, 1).to, 2.125);
    vb->undoZoom();  // A's zoom in
    QCOMPARE(shared(stacked, 0).from, -2.0);
    QCOMPARE(shared(stacked, 0).to, 3.5);
    QCOMPARE(shared(stacked, 1).to, 3.5);
    QVERIFY(!va->canUndoZoom() && !vb->canUndoZoom());
    vb->redoZoom();
    QCOMPARE(shared(stacked, 0).from, -0.625);

    // The tool bar's steps and Home (B's key) span both runs again.
    stacked.zoomIn();
    QCOMPARE(shared(stacked, 1).to - shared(stacked, 1).from, 1.375);
    QTest::keyClick(vb, Qt::Key_Home);
    QCOMPARE(shared(stacked, 0).from, -2.0);
    QCOMPARE(shared(stacked, 0).to, 3.5);
    QCOMPARE(shared(stacked, 1).from, -2.0);
  }

  void thePickedPatternStandsOutInBothRuns() {
    const Run a = runA(), b = runB();
    StackedTimelines stacked;
    QVERIFY(laidOut(stacked));
    stacked.setRuns(a.compared(QStringLiteral("A")), b.compared(QStringLiteral("B")));
    // Nothing picked: each run's Late Post instance in its pattern's colour.
    for (int run = 0; run < StackedTimelines::kRuns; ++run) QVERIFY(patternPixels(*stacked.view(run), 1) > 20);
    // Another pattern picked: the instances turn grey in both runs.
    stacked.setHighlightedMetric(QStringLiteral("mpi_latesender"));
    for (int run = 0; run < StackedTimelines::kRuns; ++run) QCOMPARE(patternPixels(*stacked.view(run), 1), 0);
    // Late Post picked: coloured again; new runs keep the pick.
    stacked.setHighlightedMetric(QStringLiteral("mpi_rma_sync_late_post"));
    for (int run = 0; run < StackedTimelines::kRuns; ++run) QVERIFY(patternPixels(*stacked.view(run), 1) > 20);
    stacked.setHighlightedMetric(QStringLiteral("mpi_latesender"));
    stacked.setRuns(b.compared(QStringLiteral("A")), a.compared(QStringLiteral("B")));
    for (int run = 0; run < StackedTimelines::kRuns; ++run) QCOMPARE(patternPixels(*stacked.view(run), 1), 0);
    stacked.setHighlightedMetric({});
    for (int run = 0; run < StackedTimelines::kRuns; ++run) QVERIFY(patternPixels(*stacked.view(run), 1) > 20);
  }

  void aRunWithoutTimelineShowsItsNoticeAndTheOtherRunIsShown() {
    const Run a = runA();
    StackedTimelines stacked;
    QVERIFY(laidOut(stacked));
    const QString notice = QStringLiteral("/data/gats-trace/traces.otf2: trace not found on this machine; the "
                                          "timeline needs it (copy it back)");
    stacked.setRuns(a.compared(QStringLiteral("A: fence.waitscope")),
                    {QStringLiteral("B: gats.waitscope"), nullptr, nullptr, notice});
    QVERIFY(stacked.shown(0));
    QVERIFY(!stacked.shown(1));
    QCOMPARE(stacked.notice(0), QString());
    QCOMPARE(stacked.notice(1), notice);
    QCOMPARE(stacked.headerText(1), QStringLiteral("B: gats.waitscope — ") + notice);
    QCOMPARE(stacked.view(0)->timeWindow().from, 0.0);
    QCOMPARE(stacked.view(0)->timeWindow().to, 4.0);
    QVERIFY(stacked.view(0)->legendVisible());  // the only run: the legend is under it
    // Long lines (a notice, a region's name) do not widen the window: they wrap or are cut off.
    stacked.setAlignment(alignAt(TimelineAlignment::Kind::FirstCallOfRegion, QStringLiteral("loop")));
    const int width = stacked.minimumSizeHint().width();
    stacked.setAlignment(alignAt(TimelineAlignment::Kind::FirstCallOfRegion, QString(300, QLatin1Char('x'))));
    stacked.setRuns(a.compared(QStringLiteral("A: fence.waitscope")),
                    {QStringLiteral("B: gats.waitscope"), nullptr, nullptr, notice + QString(300, QLatin1Char('!'))});
    QVERIFY(stacked.alignmentText().size() > 150);  // the region (cut at 80 characters) and why
    QCOMPARE(stacked.minimumSizeHint().width(), width);
    stacked.setAlignment(alignAt(TimelineAlignment::Kind::EndOfMpiInit));
    QCOMPARE(stacked.origin(0), 1.25);
    QCOMPARE(shared(stacked, 0).from, -1.25);
    stacked.view(0)->zoomIn();  // nothing to follow: no crash, A zooms
    QCOMPARE(shared(stacked, 0).to - shared(stacked, 0).from, 2.0);
  }

  void loaderNamesTheMissingTraceAndWhatToDo() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    trace::TraceBuilder b(2);
    test::buildMessages(b);
    report::Report r = test::reportSkeleton(b.trace());
    const QString trace = dir.filePath(QStringLiteral("moved-away/traces.otf2"));
    r.meta.push_back({"trace", trace.toStdString()});
    const QString path = dir.filePath(QStringLiteral("gats.waitscope"));
    report::writeReport(r, path.toStdString());
    const QString missing = dir.filePath(QStringLiteral("no-such.waitscope"));

    const app::ComparedRuns runs = app::ComparisonTimelineLoader::loadNow(missing, path);
    QCOMPARE(runs.a.label, QStringLiteral("A: no-such.waitscope"));
    QVERIFY(!runs.a.source);
    QVERIFY2(runs.a.notice.startsWith(missing), qPrintable(runs.a.notice));
    QCOMPARE(runs.b.label, QStringLiteral("B: gats.waitscope"));
    QVERIFY(!runs.b.source);
    QVERIFY2(runs.b.notice.startsWith(trace + QStringLiteral(": trace not found")), qPrintable(runs.b.notice));
    QVERIFY2(runs.b.notice.contains(QStringLiteral("copy it back")), qPrintable(runs.b.notice));
    QVERIFY(!runs.b.notice.contains(QLatin1Char('\n')));

    // Asynchronously the same.
    app::ComparisonTimelineLoader loader;
    QSignalSpy loaded(&loader, &app::ComparisonTimelineLoader::loaded);
    loader.load(missing, path);
    QVERIFY(loaded.wait(30000));
    QCOMPARE(loaded.front().front().value<app::ComparedRuns>().b.notice, runs.b.notice);
  }
};

QTEST_MAIN(StackedTimelinesTest)
#include "stacked_timelines_test.moc"
