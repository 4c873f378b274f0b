// The timeline over an asynchronous slice source (what a remote trace is), with
// a deliberately slow fake source that answers only later (after a timer, or
// when the test says): painting returns at once with "loading…", the view
// repaints by itself when the slice arrives, a burst of zoom and pan steps
// costs two fetches (the running one and the latest), the best cached slice is
// drawn meanwhile, and a failure is one line that a new step retries.
#include <QImage>
#include <QPainter>
#include <QTimer>
#include <QtTest>

#include "analysis/timeline/async_slice_source.h"
#include "tests/unit/timeline/timeline_scenarios.h"
#include "views/model/selection.h"
#include "views/timeline/timeline_view.h"

using namespace waitscope;
using timeline::SliceStatus;
using waitscope::views::TimelineView;
using waitscope::views::TimeWindow;

namespace {

class SlowSource final : public timeline::AsyncSliceSource {
 public:
  explicit SlowSource(timeline::TimelineIndex index)
      : AsyncSliceSource(index.begin, index.end, static_cast<std::uint32_t>(index.locations.size()), index.callPathGroups),
        index_(std::move(index)) {}

  int delayMs = -1;   // >= 0: answers by itself after that long; < 0: when answerOldest() is called
  QString failWith;   // non-empty: the answers are failures with this line
  std::vector<std::pair<std::uint64_t, timeline::SliceRequest>> pending;

  void answerOldest() {
    if (pending.empty()) return;
    auto [ticket, request] = pending.front();
    pending.erase(pending.begin());
    if (!failWith.isEmpty()) return fetchFailed(ticket, failWith.toStdString());
    timeline::Slice slice;
    timeline::querySlice(index_, request, slice);
    fetchFinished(ticket, std::move(slice));
  }
  const timeline::TimelineIndex& index() const { return index_; }

 protected:
  void startFetch(std::uint64_t ticket, const timeline::SliceRequest& request) override {
    pending.emplace_back(ticket, request);
    if (delayMs >= 0) QTimer::singleShot(delayMs, &context_, [this] { answerOldest(); });
  }

 private:
  timeline::TimelineIndex index_;
  QObject context_;
};

struct Fixture {
  trace::TraceBuilder builder{3};
  std::shared_ptr<report::Report> report;
  std::shared_ptr<SlowSource> source;
  Fixture() {
    test::buildRma(builder);
    report = std::make_shared<report::Report>(test::reportSkeleton(builder.trace()));
    report->instances.push_back({1, 1, test::callPathOf(*report, "main/MPI_Win_start"), 4.0, 4.5, 0});
    source = std::make_shared<SlowSource>(timeline::buildTimelineIndex(builder.trace(), *report));
  }
};

void paint(TimelineView& view) {
  QImage image(view.size(), QImage::Format_ARGB32_Premultiplied);
  QPainter p(&image);
  view.paintTo(p, view.size());
}

}  // namespace

class TimelineAsyncTest : public QObject {
  Q_OBJECT

 private slots:
  void paintReturnsAtOnceAndTheViewUpdatesWhenTheSliceArrives() {
    Fixture f;
    f.source->delayMs = 300;
    views::Selection selection;
    TimelineView view(&selection);
    view.resize(900, 300);
    view.setData(f.source, f.report);
    paint(view);  // the answer can only arrive through the event loop, which paint does not run
    QCOMPARE(view.sliceStatus(), SliceStatus::Loading);
    QCOMPARE(view.statusText(), QStringLiteral("loading…"));
    QCOMPARE(view.lastSliceItems(), std::size_t(0));
    QVERIFY(f.source->fetching());
    QCOMPARE(f.source->fetchesStarted(), std::size_t(1));
    paint(view);  // repainting while waiting asks for nothing more
    QCOMPARE(f.source->fetchesStarted(), std::size_t(1));

    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    // No paint by the test from here: the arrival makes the view repaint by itself.
    QTRY_VERIFY_WITH_TIMEOUT(view.sliceStatus() == SliceStatus::Exact, 5000);
    QVERIFY(view.lastSliceItems() > 0);
    QCOMPARE(view.lastSliceWindow(), view.timeWindow());
    QVERIFY(view.statusText().isEmpty());
    QCOMPARE(f.source->fetchesStarted(), std::size_t(1));
    // What it shows is what the index says: the Late Post instance on rank 1.
    const QString tip = view.describeAt(view.positionOf(1, 4.25).toPoint());
    QVERIFY2(tip.startsWith(QStringLiteral("Late Post on MPI Rank 1")), qPrintable(tip));
  }

  void zoomAndPanBurstCostsTwoFetchesAndDrawsTheBestSliceMeanwhile() {
    Fixture f;
    views::Selection selection;
    TimelineView view(&selection);
    view.resize(900, 300);
    view.setData(f.source, f.report);
    paint(view);
    f.source->answerOldest();  // the whole trace
    paint(view);
    QCOMPARE(view.sliceStatus(), SliceStatus::Exact);
    const std::size_t whole = view.lastSliceItems();

    // Ten steps, each painted, while nothing answers.
    for (int k = 0; k < 5; ++k) {
      view.zoomIn();
      paint(view);
      view.panRight();
      paint(view);
      // Meanwhile the whole-trace slice is drawn (at its resolution), marked as loading.
      QCOMPARE(view.sliceStatus(), SliceStatus::Nearest);
      QCOMPARE(view.lastSliceItems(), whole);
      QCOMPARE(view.statusText(), QStringLiteral("loading…"));
    }
    QCOMPARE(f.source->fetchesStarted(), std::size_t(2));  // the whole trace, the first step
    f.source->answerOldest();                               // the first step's slice: the latest one starts
    QCOMPARE(f.source->fetchesStarted(), std::size_t(3));
    QCOMPARE(f.source->pending.size(), std::size_t(1));
    const timeline::SliceRequest& latest = f.source->pending.front().second;
    QCOMPARE((TimeWindow{latest.from, latest.to}), view.timeWindow());
    f.source->answerOldest();
    paint(view);
    QCOMPARE(view.sliceStatus(), SliceStatus::Exact);
    QCOMPARE(view.lastSliceWindow(), view.timeWindow());
    QCOMPARE(f.source->fetchesStarted(), std::size_t(3));
    QVERIFY(!f.source->fetching());

    // Back to the whole trace: cached, no fetch.
    view.zoomToAll();
    paint(view);
    QCOMPARE(view.sliceStatus(), SliceStatus::Exact);
    QCOMPARE(view.lastSliceItems(), whole);
    QCOMPARE(f.source->fetchesStarted(), std::size_t(3));
  }

  void failureIsOneLineAndTheNextStepRetries() {
    Fixture f;
    f.source->failWith = QStringLiteral("Timeline slices from node7 failed: ssh: connect to host node7 port 22: "
                                        "Connection refused. Check the connection, then zoom or pan to ask again.");
    views::Selection selection;
    TimelineView view(&selection);
    view.resize(900, 300);
    view.setData(f.source, f.report);
    paint(view);
    f.source->answerOldest();
    paint(view);
    QCOMPARE(view.sliceStatus(), SliceStatus::Failed);
    QVERIFY(view.statusText().contains(QStringLiteral("node7")));
    QVERIFY(!view.statusText().contains(QLatin1Char('\n')));
    QCOMPARE(view.lastSliceItems(), std::size_t(0));
    paint(view);
    paint(view);
    QCOMPARE(f.source->fetchesStarted(), std::size_t(1));  // no retry loop on the same window

    f.source->failWith.clear();
    view.zoomIn();
    paint(view);
    QCOMPARE(f.source->fetchesStarted(), std::size_t(2));
    f.source->answerOldest();
    paint(view);
    QCOMPARE(view.sliceStatus(), SliceStatus::Exact);
    QVERIFY(view.statusText().isEmpty());
    QVERIFY(view.lastSliceItems() > 0);
  }
};

QTEST_MAIN(TimelineAsyncTest)
#include "timeline_async_test.moc"
