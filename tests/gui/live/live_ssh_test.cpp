// Following a live run on another machine, against a real sshd that the test
// starts on 127.0.0.1 (tests/gui/launch/ssh_server.h): REPORT.live read over
// the user's ssh client, each new REPORT copied home (verified) and shown in
// place, then finished; a stale run named by host:path; browsing for the report;
// a missing file and an unreachable host as one line each, with the window
// keeping what it showed.
#include <QApplication>
#include <QDir>
#include <QListWidget>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

#include "analysis/report/report_io.h"
#include "app/launch/remote_file_dialog.h"
#include "app/launch/shell_command.h"
#include "app/live/live_follower.h"
#include "app/live/live_run_controller.h"
#include "app/live/live_source.h"
#include "app/live/live_status.h"
#include "app/main_window.h"
#include "tests/gui/launch/launch_test_support.h"
#include "tests/gui/launch/ssh_server.h"
#include "tests/gui/live/live_test_window.h"
#include "tests/gui/live/live_writer.h"
#include "tests/gui/views/sample_report.h"
#include "views/model/selection.h"
#include "views/model/value_tree_model.h"
#include "views/widgets/report_browser.h"
#include "views/widgets/tree_pane.h"

using namespace waitscope;
using namespace waitscope::app;
using namespace waitscope::test;
using launchtest::SshServer;
using livetest::LiveWriter;

class LiveSshTest : public QObject {
  Q_OBJECT

  SshServer server_;
  QTemporaryDir cache_;

  std::unique_ptr<MainWindow> window() {
    auto w = livetest::liveWindow(300);
    w->liveRun()->follower()->setCacheDirectory(cache_.path());
    return w;
  }

  QString why(MainWindow* w) const { return w->liveRun()->statusText() + QStringLiteral("\n") + server_.log().right(2000); }

 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QApplication::setOrganizationName(QStringLiteral("WaitscopeTest"));
    QApplication::setApplicationName(QStringLiteral("live_ssh_test"));
    if (!SshServer::sshdInstalled()) QSKIP("/usr/sbin/sshd is not installed (scripts/setup.sh installs openssh-server)");
    qunsetenv("SSH_AUTH_SOCK");  // only the profile's key may count
    QString reason;
    QVERIFY2(server_.start(&reason), qPrintable(reason));
    launch::launchSettings().sshConfigFile = server_.clientConfig();
    launch::launchSettings().connectTimeoutSeconds = 10;
    QVERIFY(cache_.isValid());
  }

  void cleanupTestCase() { server_.stop(); }

  void followsARemoteRun() {
    const QString work = server_.directory() + QStringLiteral("/live run");  // a space: quoting matters
    LiveWriter writer(work + QStringLiteral("/app.waitscope"));
    writer.writeSnapshot(1);
    auto w = window();
    LiveFollower* follower = w->liveRun()->follower();
    QSignalSpy snapshots(follower, &LiveFollower::snapshotReady);
    const launch::ConnectionProfile profile = server_.profile();
    w->liveRun()->follow(profile, writer.report());
    QVERIFY2(snapshots.wait(60000), qPrintable(why(w.get())));
    QCOMPARE(follower->shownSnapshot(), qint64(1));
    QCOMPARE(follower->sourceName(), QStringLiteral("%1:%2").arg(profile.displayHost(), writer.report()));
    // The snapshot came home through the verified copy, into the cache.
    const QString local = w->selection()->report()->path();
    QVERIFY2(local.startsWith(cache_.path()), qPrintable(local));
    QCOMPARE(launchtest::sha256(local), launchtest::sha256(writer.report()));
    QCOMPARE(w->liveRun()->statusText(), QStringLiteral("Live: snapshot 1 · 1.5 s · 0 pauses · peak queue 112"));

    views::ReportBrowser* b = w->browser();
    b->metricPane()->selectNode(kMpi);
    b->callPane()->selectNode(kFooRecv);
    b->systemPane()->selectNode(kRank1);
    const views::TreePicks metrics = w->selection()->metrics(), calls = w->selection()->callPaths(),
                           system = w->selection()->systemItems();
    QCOMPARE(b->systemModel()->absoluteValue(kRank1), 1.5);  // MPI with Late Sender in main/foo/MPI_Recv

    writer.writeSnapshot(2);
    QVERIFY2(snapshots.wait(60000), qPrintable(why(w.get())));
    QCOMPARE(follower->shownSnapshot(), qint64(2));
    QCOMPARE(w->selection()->metrics(), metrics);
    QCOMPARE(w->selection()->callPaths(), calls);
    QCOMPARE(w->selection()->systemItems(), system);
    QVERIFY(b->callPane()->view()->isExpanded(b->callPane()->view()->currentIndex().parent()));
    QCOMPARE(b->systemModel()->absoluteValue(kRank1), 3.0);
    QCOMPARE(b->metricModel()->inclusiveValue(kTime), 2 * 8.75);

    QSignalSpy ended(follower, &LiveFollower::ended);
    report::writeReport(LiveWriter::snapshotReport(3), writer.report().toStdString());
    writer.writeStatus(QStringLiteral("finished"), 3);
    QVERIFY2(ended.wait(60000), qPrintable(why(w.get())));
    QCOMPARE(follower->shownSnapshot(), qint64(3));
    QCOMPARE(b->systemModel()->absoluteValue(kRank1), 4.5);
    QCOMPARE(w->liveRun()->statusText(), QStringLiteral("Live run finished (snapshot 3 · 4.5 s · 1 pause · peak queue 312)"));
  }

  void staleRemoteRunNamesHostAndPath() {
    const QString work = server_.directory() + QStringLiteral("/stale");
    LiveWriter writer(work + QStringLiteral("/app.waitscope"));
    report::writeReport(LiveWriter::snapshotReport(4), writer.report().toStdString());
    const QDateTime updated = QDateTime::currentDateTimeUtc().addSecs(-120);
    writer.writeStatus(QStringLiteral("running"), 4, updated, 2.0);
    auto w = window();
    const launch::ConnectionProfile profile = server_.profile();
    w->liveRun()->follow(profile, writer.report());
    QTRY_VERIFY2_WITH_TIMEOUT(w->liveRun()->follower()->shownSnapshot() == 4, qPrintable(why(w.get())), 60000);
    QTRY_COMPARE_WITH_TIMEOUT(w->liveRun()->statusText(),
                              staleLine(QStringLiteral("%1:%2").arg(profile.displayHost(), writer.report()), updated), 10000);
  }

  void browsingPicksTheReportNotItsStatus() {
    // The dialog's Browse… on a profile: the remote folder, where only reports can be picked.
    LiveWriter writer(server_.directory() + QStringLiteral("/browse/app.waitscope"));
    writer.writeSnapshot(1);
    launch::RemoteFileDialog dialog(server_.profile(), server_.directory() + QStringLiteral("/browse"), nullptr,
                                    {QStringLiteral(".waitscope")});
    QSignalSpy loaded(&dialog, &launch::RemoteFileDialog::directoryLoaded);
    QTRY_VERIFY_WITH_TIMEOUT(loaded.size() == 1, 60000);
    auto* list = dialog.findChild<QListWidget*>(QStringLiteral("entries"));
    QCOMPARE(list->count(), 2);
    QVERIFY(!(list->findItems(QStringLiteral("app.waitscope.live"), Qt::MatchExactly).value(0)->flags() & Qt::ItemIsEnabled));
    emit list->itemActivated(list->findItems(QStringLiteral("app.waitscope"), Qt::MatchExactly).value(0));
    QCOMPARE(dialog.result(), int(QDialog::Accepted));
    QCOMPARE(dialog.selectedPath(), writer.report());
  }

  void missingRemoteFileAndUnreachableHost() {
    auto w = window();
    const QString shownPath = server_.directory() + QStringLiteral("/shown.waitscope");
    report::writeReport(sampleReport(), shownPath.toStdString());
    QSignalSpy loaded(w.get(), &MainWindow::reportLoaded);
    w->openReport(shownPath);
    QVERIFY(loaded.wait(10000));
    const views::ReportDataPtr shown = w->selection()->report();

    const launch::ConnectionProfile profile = server_.profile();
    const QString missing = server_.directory() + QStringLiteral("/nothing/app.waitscope");
    w->liveRun()->follow(profile, missing);
    QTRY_COMPARE_WITH_TIMEOUT(w->liveRun()->statusText(),
                              QStringLiteral("%1.live is not on %2 yet; check the path, or start the run "
                                             "(waitscope-run --online -o %1 -- PROGRAM)")
                                  .arg(missing, profile.displayHost()),
                              60000);

    launch::ConnectionProfile nobody = profile;
    nobody.port = launchtest::freePort();
    QSignalSpy problems(w->liveRun()->follower(), &LiveFollower::problem);
    w->liveRun()->follow(nobody, missing);
    QTRY_VERIFY_WITH_TIMEOUT(!problems.isEmpty(), 60000);
    const QString message = w->liveRun()->statusText();
    QVERIFY2(message.startsWith(QStringLiteral("Cannot reach %1").arg(nobody.displayHost())), qPrintable(message));
    QVERIFY(!message.contains(QLatin1Char('\n')));
    QVERIFY(w->liveRun()->isFollowing());  // the network may come back
    QCOMPARE(w->selection()->report(), shown);
    w->liveRun()->stop();
    QVERIFY(!w->liveRun()->isFollowing());
  }
};

QTEST_MAIN(LiveSshTest)
#include "live_ssh_test.moc"
