// Following a real online run end to end: the test starts `waitscope-run --online
// -o REPORT -- p2p_coll` (docs/online.md) after the window began following
// REPORT, and checks that the window shows more than one snapshot, keeps the picked
// metric across them, and ends with "Live run finished" on the run's last snapshot.
#include <QApplication>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include "analysis/report/report_io.h"
#include "tests/gui/live/live_test_window.h"
#include "views/model/selection.h"
#include "views/widgets/report_browser.h"
#include "views/widgets/tree_pane.h"

using namespace waitscope;
using namespace waitscope::app;

class LiveOnlineTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QApplication::setOrganizationName(QStringLiteral("WaitscopeTest"));
    QApplication::setApplicationName(QStringLiteral("live_online_test"));
  }

  void followsARealOnlineRun() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString report = dir.filePath(QStringLiteral("live.waitscope"));
    auto w = livetest::liveWindow(100);
    LiveFollower* follower = w->liveRun()->follower();
    QSignalSpy snapshots(follower, &LiveFollower::snapshotReady);
    QSignalSpy ended(follower, &LiveFollower::ended);
    launch::ConnectionProfile here;
    here.name = QStringLiteral("This computer");
    w->liveRun()->follow(here, report);
    QTRY_VERIFY_WITH_TIMEOUT(w->liveRun()->statusText().startsWith(report + QStringLiteral(".live: no such file yet")), 10000);

    QProcess run;
    run.setProcessChannelMode(QProcess::MergedChannels);
    run.start(QStringLiteral(WAITSCOPE_RUN_PATH),
              {"-n", "4", "--online", "--snapshot-interval", "0.3", "-o", report, "--", QStringLiteral(WAITSCOPE_P2P_COLL_PATH),
               "6", "0.05"});
    QVERIFY2(run.waitForStarted(10000), qPrintable(run.errorString()));

    // Pick the deepest metric once the first snapshot is there; it must stay picked.
    QTRY_VERIFY2_WITH_TIMEOUT(!snapshots.isEmpty(), qPrintable(w->liveRun()->statusText() + run.readAll()), 120000);
    const views::ValueTree& metrics = w->selection()->report()->metricTree();
    std::uint32_t deepest = 0;
    for (std::uint32_t n = 0; n < metrics.size(); ++n)
      if (metrics.depth[n] > metrics.depth[deepest]) deepest = n;
    const QString picked = metrics.names[deepest];
    w->browser()->metricPane()->selectNode(deepest);

    QTRY_VERIFY2_WITH_TIMEOUT(!ended.isEmpty(), qPrintable(w->liveRun()->statusText() + run.readAll()), 180000);
    // (It may have ended while the event loop ran: waitForFinished is for a process still running.)
    QVERIFY(run.state() == QProcess::NotRunning || run.waitForFinished(60000));
    QCOMPARE(run.exitStatus(), QProcess::NormalExit);
    QCOMPARE(run.exitCode(), 0);
    QVERIFY2(snapshots.size() >= 2, qPrintable(QString::number(snapshots.size())));

    // The last snapshot shown is the run's final report.
    const report::Report final = report::readReport(report.toStdString());
    QCOMPARE(final.metaValue("kind"), std::string("online"));
    const qint64 last = QString::fromStdString(final.metaValue("online_snapshot")).toLongLong();
    QCOMPARE(follower->shownSnapshot(), last);
    QVERIFY2(w->liveRun()->statusText().startsWith(QStringLiteral("Live run finished (snapshot %1 · ").arg(last)),
             qPrintable(w->liveRun()->statusText()));
    const views::TreePicks picks = w->selection()->metrics();
    QCOMPARE(picks.size(), std::size_t(1));
    QCOMPARE(w->selection()->report()->metricTree().names[picks.front().node], picked);
  }
};

QTEST_MAIN(LiveOnlineTest)
#include "live_online_test.moc"
