// File > Follow Live Run… on this computer, offscreen: a fake live writer
// (live_writer.h) replaces REPORT and REPORT.live as `waitscope-run --online`
// does, and the window's trees and charts update in place (selection, expansion
// and scroll position kept, values new), also when a call path appears; the
// status line while running, finished, failed and stale; a corrupt snapshot
// keeps the last good one; missing files; stopping; the dialog's recent list.
#include <QApplication>
#include <QComboBox>
#include <QHeaderView>
#include <QLineEdit>
#include <QListWidget>
#include <QScrollBar>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

#include "analysis/report/report_io.h"
#include "analysis/report/report_queries.h"
#include "app/live/follow_live_dialog.h"
#include "app/live/live_follower.h"
#include "app/live/live_run_controller.h"
#include "app/live/live_source.h"
#include "app/live/live_status.h"
#include "app/main_window.h"
#include "tests/gui/live/live_test_window.h"
#include "tests/gui/live/live_writer.h"
#include "tests/gui/views/sample_report.h"
#include "views/model/selection.h"
#include "views/model/tree_matching.h"
#include "views/model/value_tree_model.h"
#include "views/widgets/chart_pane.h"
#include "views/widgets/report_browser.h"
#include "views/widgets/tree_pane.h"

using namespace waitscope;
using namespace waitscope::app;
using namespace waitscope::views;
using namespace waitscope::test;
using livetest::LiveWriter;

namespace {

// The name path of a node ("main/foo/MPI_Recv").
QString pathOf(const ValueTree& tree, std::uint32_t node) {
  QStringList names;
  for (std::uint32_t n = node; n != kNoNode; n = tree.parent[n]) names.prepend(tree.names[n]);
  return names.join(QLatin1Char('/'));
}

QStringList pickedPaths(const TreePane* pane) {
  QStringList out;
  for (const TreePick& p : pane->picks()) out << pathOf(*pane->model()->tree(), p.node);
  return out;
}

QStringList expandedPaths(const TreePane* pane) {
  QStringList out;
  const ValueTree& tree = *pane->model()->tree();
  for (std::uint32_t n = 0; n < tree.size(); ++n)
    if (pane->model()->isExpanded(n)) out << pathOf(tree, n);
  return out;
}

std::uint32_t nodeByPath(const ValueTree& tree, const QString& path) {
  for (std::uint32_t n = 0; n < tree.size(); ++n)
    if (pathOf(tree, n) == path) return n;
  return kNoNode;
}

}  // namespace

class LiveFollowTest : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;
  int run_ = 0;

  // A fresh report path per test: earlier followers' files never mix in.
  QString nextReport() { return dir_.filePath(QStringLiteral("run%1/app.waitscope").arg(++run_)); }

  static std::unique_ptr<MainWindow> window() { return livetest::liveWindow(100); }

  // A window following `writer`'s run with its first snapshot shown.
  static std::unique_ptr<MainWindow> followFirstSnapshot(LiveWriter& writer) {
    writer.writeSnapshot(1);
    auto w = window();
    w->liveRun()->follow(here(), writer.report());
    if (!QTest::qWaitFor([&w] { return w->liveRun()->follower()->shownSnapshot() == 1; }, 10000))
      qFatal("the first snapshot of %s was not shown: %s", qPrintable(writer.report()), qPrintable(w->liveRun()->statusText()));
    return w;
  }

  static launch::ConnectionProfile here() {
    launch::ConnectionProfile p;
    p.name = QStringLiteral("This computer");
    return p;
  }

 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QApplication::setOrganizationName(QStringLiteral("WaitscopeTest"));
    QApplication::setApplicationName(QStringLiteral("live_follow_test"));
    QVERIFY(dir_.isValid());
  }

  void statusFileAndLines() {
    QString error;
    const auto s = parseLiveStatus(
        R"({"state": "running", "snapshot": 7, "elapsed_seconds": 12.34, "pauses": 0, "peak_queue": 812,
            "updated": "2026-11-21T10:41:34Z", "interval_seconds": 2.5, "message": ""})",
        &error);
    QVERIFY2(s, qPrintable(error));
    QCOMPARE(s->snapshot, qint64(7));
    QCOMPARE(s->intervalSeconds, 2.5);
    QCOMPARE(s->updated, QDateTime::fromString(QStringLiteral("2026-11-21T10:41:34Z"), Qt::ISODate));
    QCOMPARE(s->updated.timeSpec(), Qt::UTC);
    QCOMPARE(liveStatusLine(*s), QStringLiteral("Live: snapshot 7 · 12.3 s · 0 pauses · peak queue 812"));
    // Stale after 3 x 2.5 s + 10 s = 17.5 s without an update.
    QVERIFY(!s->isStaleAt(s->updated.addMSecs(17500)));
    QVERIFY(s->isStaleAt(s->updated.addMSecs(17600)));
    LiveStatus finished = *s;
    finished.state = LiveStatus::State::Finished;
    QVERIFY(!finished.isStaleAt(s->updated.addSecs(3600)));  // only a running job goes stale
    QVERIFY(liveStatusLine(finished).startsWith(QStringLiteral("Live run finished")));
    const auto failed = parseLiveStatus(
        R"({"state": "failed", "snapshot": 3, "updated": "2026-11-21T10:41:34.250+00:00", "message": "rank 3 died\nmore"})", &error);
    QVERIFY2(failed, qPrintable(error));
    QCOMPARE(liveStatusLine(*failed), QStringLiteral("Live run failed: rank 3 died"));
    QCOMPARE(failed->updated.time().msec(), 250);

    QVERIFY(!parseLiveStatus("", &error));
    QCOMPARE(error, QStringLiteral("the file is empty"));
    QVERIFY(!parseLiveStatus(R"({"state": "paused", "snapshot": 1, "updated": "2026-11-21T10:41:34Z"})", &error));
    QVERIFY(error.contains(QLatin1String("state")));
    QVERIFY(!parseLiveStatus(R"({"state": "running", "snapshot": 1, "updated": "yesterday"})", &error));
    QVERIFY(error.contains(QLatin1String("yesterday")));
  }

  void matchesNodesByNamePath() {
    const ReportData before(LiveWriter::snapshotReport(1), {});
    const ReportData after(LiveWriter::snapshotReport(2, true), {});
    QVERIFY(!sameShape(before.callTree(), after.callTree()));
    QVERIFY(sameShape(before.metricTree(), after.metricTree()));
    const std::vector<std::uint32_t> map = matchNodes(before.callTree(), after.callTree());
    for (std::uint32_t n = 0; n < before.callTree().size(); ++n)
      QCOMPARE(pathOf(after.callTree(), map[n]), pathOf(before.callTree(), n));
    QCOMPARE(map[kFooRecv], std::uint32_t(kFooRecv + 1));  // main/init came before it
    // Gone: nothing in the other direction for main/init.
    const std::vector<std::uint32_t> back = matchNodes(after.callTree(), before.callTree());
    QCOMPARE(back[1], kNoNode);
    // Siblings of the same name match in order.
    ValueTree a;
    a.parent = {kNoNode, 0, 0};
    a.link();
    a.names = {QStringLiteral("main"), QStringLiteral("MPI_Recv"), QStringLiteral("MPI_Recv")};
    ValueTree b;
    b.parent = {kNoNode, 0, 0, 0};
    b.link();
    b.names = {QStringLiteral("main"), QStringLiteral("MPI_Send"), QStringLiteral("MPI_Recv"), QStringLiteral("MPI_Recv")};
    QCOMPARE(matchNodes(a, b), (std::vector<std::uint32_t>{0, 2, 3}));
  }

  void treesUpdateInPlace() {
    LiveWriter writer(nextReport());
    auto w = followFirstSnapshot(writer);
    LiveFollower* follower = w->liveRun()->follower();
    QSignalSpy snapshots(follower, &LiveFollower::snapshotReady);
    QCOMPARE(w->liveRun()->statusText(), QStringLiteral("Live: snapshot 1 · 1.5 s · 0 pauses · peak queue 112"));

    // The user's view: Late Sender, main/foo/MPI_Recv, rank 1; the call tree scrolled down.
    ReportBrowser* b = w->browser();
    b->metricPane()->selectNode(kLateSender);
    b->callPane()->selectNode(kFooRecv);
    b->systemPane()->selectNode(kRank1);
    QTreeView* calls = b->callPane()->view();
    calls->setFixedHeight(calls->header()->height() + 2 * calls->sizeHintForRow(0));
    QTest::qWait(50);
    QVERIFY(calls->verticalScrollBar()->maximum() > 0);
    calls->verticalScrollBar()->setValue(calls->verticalScrollBar()->maximum());
    const int scroll = calls->verticalScrollBar()->value();
    const QStringList callsBefore = pickedPaths(b->callPane()), systemBefore = pickedPaths(b->systemPane());
    const QStringList expandedCalls = expandedPaths(b->callPane()), expandedMetrics = expandedPaths(b->metricPane());
    QCOMPARE(callsBefore, QStringList{QStringLiteral("main/foo/MPI_Recv")});
    QVERIFY(expandedCalls.contains(QStringLiteral("main/foo")));
    const double callValue = b->callModel()->absoluteValue(kFooRecv);
    const double rankValue = b->systemModel()->absoluteValue(kRank1);
    QCOMPARE(callValue, 0.5);  // Late Sender in main/foo/MPI_Recv: rank 1 only
    QCOMPARE(rankValue, 0.5);
    b->metricPane()->selectNode(kMpi);  // MPI, expanded by the pick above: its own time, where rank 1 has some
    QCOMPARE(b->systemModel()->absoluteValue(kRank1), 1.0);
    const QStringList metricsShown = pickedPaths(b->metricPane());
    const std::vector<double> chartBefore = b->chartPane()->barValues();
    const ValueTreeModel* callModel = b->callModel();

    writer.writeSnapshot(2);
    QVERIFY(snapshots.wait(10000));
    QCOMPARE(follower->shownSnapshot(), qint64(2));
    // Same models, same picks, same expansion, same scroll position ...
    QCOMPARE(b->callModel(), callModel);
    QCOMPARE(pickedPaths(b->metricPane()), metricsShown);
    QCOMPARE(pickedPaths(b->callPane()), callsBefore);
    QCOMPARE(pickedPaths(b->systemPane()), systemBefore);
    QCOMPARE(expandedPaths(b->callPane()), expandedCalls);
    QCOMPARE(expandedPaths(b->metricPane()), expandedMetrics);
    QCOMPARE(calls->verticalScrollBar()->value(), scroll);
    // ... and the new values everywhere.
    QCOMPARE(w->selection()->report()->report().metaValue("online_snapshot"), std::string("2"));
    QCOMPARE(b->systemModel()->absoluteValue(kRank1), 2.0);
    QCOMPARE(b->callModel()->absoluteValue(kFooRecv), 2.0);  // MPI (expanded: without Late Sender), doubled
    QCOMPARE(b->metricModel()->inclusiveValue(kTime), 2 * 8.75);
    std::vector<double> doubled = chartBefore;
    for (double& v : doubled) v *= 2;
    QCOMPARE(b->chartPane()->barValues(), doubled);
    QCOMPARE(w->liveRun()->statusText(), QStringLiteral("Live: snapshot 2 · 3.0 s · 1 pause · peak queue 212"));

    // A call path appears (main/init before main/MPI_Recv): node numbers shift, the view does not.
    writer.writeSnapshot(3, true);
    QVERIFY(snapshots.wait(10000));
    QCOMPARE(follower->shownSnapshot(), qint64(3));
    QCOMPARE(pickedPaths(b->callPane()), callsBefore);
    QCOMPARE(pickedPaths(b->metricPane()), metricsShown);
    QCOMPARE(pickedPaths(b->systemPane()), systemBefore);
    QStringList expandedNow = expandedPaths(b->callPane());
    QCOMPARE(expandedNow, expandedCalls);
    QCOMPARE(calls->verticalScrollBar()->value(), std::min(scroll, calls->verticalScrollBar()->maximum()));
    const std::uint32_t fooRecv = nodeByPath(*b->callModel()->tree(), QStringLiteral("main/foo/MPI_Recv"));
    QCOMPARE(fooRecv, std::uint32_t(kFooRecv + 1));
    QCOMPARE(b->callModel()->absoluteValue(fooRecv), 3.0);
    QVERIFY(nodeByPath(*b->callModel()->tree(), QStringLiteral("main/init")) != kNoNode);
    QCOMPARE(w->selection()->callPaths().front().node, fooRecv);  // the selection follows the new numbers
    QCOMPARE(b->systemModel()->absoluteValue(kRank1), 3.0);

    // Finished: the last snapshot is read and following ends by itself.
    QSignalSpy ended(follower, &LiveFollower::ended);
    report::writeReport(LiveWriter::snapshotReport(4, true), writer.report().toStdString());
    writer.writeStatus(QStringLiteral("finished"), 4);
    QVERIFY(ended.wait(10000));
    QCOMPARE(follower->shownSnapshot(), qint64(4));
    QVERIFY(!follower->isFollowing());
    QCOMPARE(w->liveRun()->statusText(),
             QStringLiteral("Live run finished (snapshot 4 · 6.0 s · 2 pauses · peak queue 412)"));
    QCOMPARE(b->systemModel()->absoluteValue(kRank1), 4.0);
  }

  void failedRun() {
    LiveWriter writer(nextReport());
    auto w = followFirstSnapshot(writer);
    QSignalSpy ended(w->liveRun()->follower(), &LiveFollower::ended);
    writer.writeStatus(QStringLiteral("failed"), 1, QDateTime::currentDateTimeUtc(), 1.0,
                       QStringLiteral("the tool place on rank 5 ran out of memory"));
    QVERIFY(ended.wait(10000));
    QCOMPARE(w->liveRun()->statusText(), QStringLiteral("Live run failed: the tool place on rank 5 ran out of memory"));
    QVERIFY(w->selection()->report());  // the last snapshot stays
  }

  void staleRun() {
    LiveWriter writer(nextReport());
    report::writeReport(LiveWriter::snapshotReport(5), writer.report().toStdString());
    // A killed job: "running", last updated a minute ago with snapshots every second.
    const QDateTime updated = QDateTime::currentDateTimeUtc().addSecs(-60);
    writer.writeStatus(QStringLiteral("running"), 5, updated, 1.0);
    auto w = window();
    w->liveRun()->follow(here(), writer.report());
    QTRY_COMPARE_WITH_TIMEOUT(w->liveRun()->follower()->shownSnapshot(), qint64(5), 10000);
    QTRY_VERIFY_WITH_TIMEOUT(w->liveRun()->follower()->isStale(), 5000);
    QTRY_COMPARE_WITH_TIMEOUT(w->liveRun()->statusText(), staleLine(writer.report(), updated), 5000);
    QVERIFY(w->liveRun()->statusText().startsWith(QStringLiteral("no update from %1 since ").arg(writer.report())));
    QVERIFY(w->liveRun()->statusText().endsWith(QStringLiteral("; the run may have ended")));
    QVERIFY(w->liveRun()->follower()->isFollowing());  // it may still come back
    // It does: a fresh update is no longer stale.
    writer.writeSnapshot(6);
    QTRY_COMPARE_WITH_TIMEOUT(w->liveRun()->statusText(), QStringLiteral("Live: snapshot 6 · 9.0 s · 3 pauses · peak queue 612"), 10000);
  }

  void corruptSnapshotKeepsTheLastGoodOne() {
    LiveWriter writer(nextReport());
    auto w = followFirstSnapshot(writer);
    LiveFollower* follower = w->liveRun()->follower();
    QSignalSpy problems(follower, &LiveFollower::problem);
    const ReportDataPtr good = w->selection()->report();
    w->browser()->callPane()->selectNode(kFooRecv);

    writer.writeCorruptReport();
    writer.writeStatus(QStringLiteral("running"), 2);
    QTRY_VERIFY_WITH_TIMEOUT(!problems.isEmpty(), 10000);
    const QString message = problems.back()[0].toString();
    QVERIFY2(message.startsWith(QStringLiteral("Snapshot 2 of %1 cannot be read (").arg(writer.report())), qPrintable(message));
    QVERIFY2(message.endsWith(QStringLiteral("; still showing snapshot 1.")), qPrintable(message));
    QVERIFY(!message.contains(QLatin1Char('\n')));
    QCOMPARE(w->liveRun()->statusText(), message);
    QTest::qWait(500);  // several polls: the bad snapshot is not read again and again
    QCOMPARE(problems.size(), 1);
    QCOMPARE(w->selection()->report(), good);
    QCOMPARE(follower->shownSnapshot(), qint64(1));
    QCOMPARE(pickedPaths(w->browser()->callPane()), QStringList{QStringLiteral("main/foo/MPI_Recv")});

    writer.writeSnapshot(3);
    QTRY_COMPARE_WITH_TIMEOUT(follower->shownSnapshot(), qint64(3), 10000);
    QCOMPARE(w->liveRun()->statusText(), QStringLiteral("Live: snapshot 3 · 4.5 s · 1 pause · peak queue 312"));
    QCOMPARE(pickedPaths(w->browser()->callPane()), QStringList{QStringLiteral("main/foo/MPI_Recv")});
    // Time (all of it) in main/foo/MPI_Recv on rank 1: MPI 1 and Late Sender 0.5, times 3.
    QCOMPARE(w->browser()->systemModel()->absoluteValue(kRank1), 4.5);
  }

  void missingFilesSayWhatToDo() {
    auto w = window();
    report::writeReport(sampleReport(), dir_.filePath(QStringLiteral("plain.waitscope")).toStdString());
    QSignalSpy loaded(w.get(), &MainWindow::reportLoaded);
    w->openReport(dir_.filePath(QStringLiteral("plain.waitscope")));
    QVERIFY(loaded.wait(10000));
    const ReportDataPtr shown = w->selection()->report();

    const QString missing = dir_.filePath(QStringLiteral("nowhere/app.waitscope"));
    w->liveRun()->follow(here(), missing);
    QTRY_COMPARE_WITH_TIMEOUT(
        w->liveRun()->statusText(),
        QStringLiteral("%1.live: no such file yet; check the path, or start the run (waitscope-run --online -o %1 -- PROGRAM)")
            .arg(missing),
        10000);
    QCOMPARE(w->selection()->report(), shown);  // the window keeps what it showed

    // A finished ordinary report is no live run.
    const QString plain = dir_.filePath(QStringLiteral("plain.waitscope"));
    w->liveRun()->follow(here(), plain);
    QTRY_COMPARE_WITH_TIMEOUT(w->liveRun()->statusText(),
                              QStringLiteral("%1 has no plain.waitscope.live beside it: it is not a live run (open it "
                                             "with File > Open)")
                                  .arg(plain),
                              10000);

    // A status file that is not one.
    LiveWriter writer(nextReport());
    QFile status(writer.statusFile());
    QVERIFY(status.open(QIODevice::WriteOnly));
    status.write("state=running\n");
    status.close();
    w->liveRun()->follow(here(), writer.report());
    QTRY_VERIFY_WITH_TIMEOUT(w->liveRun()->statusText().startsWith(writer.statusFile() + QStringLiteral(": not JSON")), 10000);
    QVERIFY(w->liveRun()->statusText().endsWith(QStringLiteral("it should be the status file of waitscope-run --online")));
    // The run starts after all: the follower picks it up.
    writer.writeSnapshot(1);
    QTRY_COMPARE_WITH_TIMEOUT(w->liveRun()->follower()->shownSnapshot(), qint64(1), 10000);
  }

  void stopsWhenAnotherReportOpens() {
    LiveWriter writer(nextReport());
    auto w = followFirstSnapshot(writer);
    QVERIFY(w->liveRun()->stopAction()->isEnabled());

    // The menu action.
    w->liveRun()->stopAction()->trigger();
    QVERIFY(!w->liveRun()->isFollowing());
    QVERIFY(w->liveRun()->statusText().isEmpty());
    const ReportDataPtr kept = w->selection()->report();
    writer.writeSnapshot(2);
    QTest::qWait(400);
    QCOMPARE(w->selection()->report(), kept);  // no longer followed

    // Opening another report.
    w->liveRun()->follow(here(), writer.report());
    QTRY_COMPARE_WITH_TIMEOUT(w->liveRun()->follower()->shownSnapshot(), qint64(2), 10000);
    const QString other = dir_.filePath(QStringLiteral("other.waitscope"));
    report::writeReport(sampleReport(), other.toStdString());
    QSignalSpy loaded(w.get(), &MainWindow::reportLoaded);
    w->openReport(other);
    QVERIFY(!w->liveRun()->isFollowing());
    QVERIFY(loaded.wait(10000));
    writer.writeSnapshot(3);
    QTest::qWait(400);
    QCOMPARE(w->selection()->report()->path(), QFileInfo(other).absoluteFilePath());
  }

  void dialogRemembersRecentSources() {
    auto w = window();
    LiveWriter writer(nextReport());
    writer.writeSnapshot(1);
    QCOMPARE(w->liveRun()->follow(LiveSource{{}, writer.report()}), QString());
    QTRY_COMPARE_WITH_TIMEOUT(w->liveRun()->follower()->shownSnapshot(), qint64(1), 10000);
    QCOMPARE(recentLiveSources().front(), (LiveSource{{}, writer.report()}));
    // An unknown profile: one line, nothing started.
    w->liveRun()->stop();
    const QString error = w->liveRun()->follow(LiveSource{QStringLiteral("gone cluster"), QStringLiteral("~/run.waitscope")});
    QCOMPARE(error, QStringLiteral("The connection profile \"gone cluster\" no longer exists; add it in File > "
                                   "Connection Profiles…."));
    QVERIFY(!w->liveRun()->isFollowing());

    QTemporaryDir profiles;
    FollowLiveDialog dialog(launch::ProfileStore(profiles.filePath(QStringLiteral("p.json"))));
    QCOMPARE(dialog.source(), (LiveSource{{}, writer.report()}));  // the most recent one
    QCOMPARE(qsizetype(dialog.recentList()->count()), recentLiveSources().size());
    QCOMPARE(dialog.whereBox()->count(), 1);  // this computer; no SSH profile saved
  }
};

QTEST_MAIN(LiveFollowTest)
#include "live_follow_test.moc"
