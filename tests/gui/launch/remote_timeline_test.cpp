// The timeline of a trace that stays on another machine, against a real sshd
// on 127.0.0.1 (ssh_server.h): a remote analysis records where its trace is
// beside the copied-back report; the timeline loader then opens a
// RemoteSliceSource, whose slices (from `waitscope-report timeline --binary`
// run over SSH, the index built there) are exactly the local query's for the
// rows asked; the view shows them; a lost connection is one line naming the
// host, never a hang.
//
// The file beside the report is data: files of both kinds that try to run
// something (set-up lines, analyzer paths, hosts, crafted trace names) run
// nothing; the loader asks before connecting when the profile they name is
// not the user's or now connects elsewhere, and a command-line export never
// connects without --allow-remote-timeline.
#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPushButton>
#include <QSignalSpy>
#include <QtTest>

#include "analysis/timeline/timeline_index_file.h"
#include "analysis/timeline/timeline_query.h"
#include "app/command_line.h"
#include "app/launch/analysis_runner.h"
#include "app/launch/profile_store.h"
#include "app/launch/remote_connect_dialog.h"
#include "app/launch/remote_origin.h"
#include "app/launch/shell_command.h"
#include "app/main_window.h"
#include "app/remote_timeline.h"
#include "app/report_loader.h"
#include "app/scripted_export.h"
#include "app/timeline_loader.h"
#include "tests/gui/launch/launch_test_support.h"
#include "tests/gui/launch/ssh_server.h"
#include "views/model/selection.h"
#include "views/timeline/timeline_view.h"

using namespace waitscope;
using namespace launchtest;
using timeline::SliceStatus;

class RemoteTimelineTest : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    if (!SshServer::sshdInstalled()) QSKIP("/usr/sbin/sshd is not installed (scripts/setup.sh installs openssh-server)");
    qunsetenv("SSH_AUTH_SOCK");
    QString why;
    QVERIFY2(server_.start(&why), qPrintable(why));
    launch::launchSettings().sshConfigFile = server_.clientConfig();
    launch::launchSettings().connectTimeoutSeconds = 10;
    trace_ = copyTrace(server_.directory() + QStringLiteral("/traces/run one"));
    const QString work = server_.directory() + QStringLiteral("/work");
    QDir().mkpath(work);
    // A remote analysis, as File > Analyze Trace… runs it: the report comes home, the trace stays.
    launch::AnalysisRunner runner;
    QSignalSpy ready(&runner, &launch::AnalysisRunner::reportReady);
    runner.start({server_.profile(work), trace_, 2, {}, {}});
    QTRY_VERIFY_WITH_TIMEOUT(!runner.isActive(), 120000);
    QVERIFY2(ready.size() == 1, qPrintable(runner.failure().message + "\n" + server_.log()));
    localReport_ = ready[0][0].toString();
    remoteReport_ = runner.remoteReport();  // relative to the profile's working directory
    remoteReportFile_ = QDir(work).filePath(remoteReport_);
    // The user's own profiles: this computer and the test server's.
    profile_ = server_.profile(work);
    store_ = launch::ProfileStore(server_.directory() + QStringLiteral("/profiles.json"));
    QVERIFY(store_.save(launch::ProfileStore::defaultProfiles() << profile_));
  }

  void init() {
    QString why;
    if (!server_.isRunning()) QVERIFY2(server_.restart(&why), qPrintable(why));
  }

  void cleanupTestCase() { server_.stop(); }

  void theRunnerRecordsWhereTheTraceIs() {
    const std::optional<launch::RemoteOrigin> origin = launch::readRemoteOrigin(localReport_);
    QVERIFY(origin);
    QCOMPARE(origin->trace, trace_);
    QCOMPARE(origin->report, remoteReport_);
    QCOMPARE(origin->profileName, QStringLiteral("test sshd"));
    QCOMPARE(origin->host, QStringLiteral("127.0.0.1"));
    QCOMPARE(origin->port, server_.port());
    QVERIFY(!QFileInfo::exists(QFileInfo(localReport_).dir().filePath(QStringLiteral("traces.otf2"))));
    // Nothing that runs or says how to log in is in the file.
    QFile file(launch::remoteOriginPath(localReport_));
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray text = file.readAll();
    for (const char* key : {"setupLines", "analyzerPath", "user", "identityFile", "jumpHosts", "batchTemplate", "export"})
      QVERIFY2(!text.contains(key), key);
  }

  void timelineShowsTheRightRowsFromTheRemoteTrace() {
    const app::LoadResult loaded = app::ReportLoader::loadNow(localReport_);
    QVERIFY2(loaded.report, qPrintable(loaded.error));
    // The synchronous path (command-line export) cannot wait for SSH: it says where the trace is.
    const app::TimelineLoad now = app::TimelineLoader::loadNow(loaded.report);
    QVERIFY(!now.source);
    QVERIFY(now.remote);
    QVERIFY2(now.error.contains(QStringLiteral("127.0.0.1")), qPrintable(now.error));

    app::TimelineLoader loader;
    loader.setProfileStore(store_);
    QSignalSpy asked(&loader, &app::TimelineLoader::questionAsked);
    std::shared_ptr<timeline::SliceSource> source;
    QString error;
    connect(&loader, &app::TimelineLoader::loaded, this, [&](std::shared_ptr<timeline::SliceSource> s) { source = s; });
    connect(&loader, &app::TimelineLoader::failed, this, [&](const QString& e) { error = e; });
    loader.load(loaded.report);
    QTRY_VERIFY_WITH_TIMEOUT(source || !error.isEmpty(), 120000);
    QVERIFY2(source, qPrintable(error));
    QVERIFY(asked.isEmpty());  // the user's own profile, where the file says: no question
    QVERIFY(dynamic_cast<app::RemoteSliceSource*>(source.get()));
    // The index was built there, beside the remote report.
    QVERIFY(QFileInfo::exists(QString::fromStdString(timeline::defaultIndexPath(remoteReportFile_.toStdString()))));

    // The reference: the same query on an index built here from the same files.
    const report::Report& report = loaded.report->report();
    const timeline::TimelineIndex index = timeline::buildTimelineIndex(trace_.toStdString(), report);
    QCOMPARE(source->begin(), index.begin);
    QCOMPARE(source->end(), index.end);
    QCOMPARE(std::size_t(source->locationCount()), index.locations.size());

    // One row, rank 1, over the middle of the run.
    timeline::SliceRequest request;
    request.from = index.begin + 0.25 * (index.end - index.begin);
    request.to = index.begin + 0.75 * (index.end - index.begin);
    request.width = 640;
    request.locations = {1};
    timeline::Slice got, expected;
    QCOMPARE(source->query(request, got), SliceStatus::Loading);  // never waits
    QTRY_VERIFY_WITH_TIMEOUT(source->query(request, got) == SliceStatus::Exact, 60000);
    timeline::querySlice(index, request, expected);
    QCOMPARE(got.locations.size(), std::size_t(1));
    QCOMPARE(got.locations[0].location, 1u);
    const timeline::LocationSlice& a = got.locations[0];
    const timeline::LocationSlice& b = expected.locations[0];
    QVERIFY(!b.regions.empty());
    QCOMPARE(a.regions.size(), b.regions.size());
    for (std::size_t i = 0; i < a.regions.size(); ++i) {
      QCOMPARE(a.regions[i].start, b.regions[i].start);
      QCOMPARE(a.regions[i].end, b.regions[i].end);
      QCOMPARE(a.regions[i].callPath, b.regions[i].callPath);
      QCOMPARE(a.regions[i].merged, b.regions[i].merged);
      QCOMPARE(a.regions[i].group, b.regions[i].group);
    }
    QCOMPARE(a.messages.size(), b.messages.size());
    for (std::size_t i = 0; i < a.messages.size(); ++i) {
      QCOMPARE(a.messages[i].start, b.messages[i].start);
      QCOMPARE(a.messages[i].sender, b.messages[i].sender);
      QCOMPARE(a.messages[i].receiver, b.messages[i].receiver);
    }
    QCOMPARE(a.instances.size(), b.instances.size());

    // In the view: both ranks' rows, from the remote, and what is under the mouse on rank 1's row.
    views::Selection selection;
    views::TimelineView view(&selection);
    QVERIFY(showExact(view, source, loaded.report));
    QVERIFY(view.lastSliceItems() > 0);
    const double t = a.regions[a.regions.size() / 2].start / 2 + a.regions[a.regions.size() / 2].end / 2;
    const QString tip = view.describeAt(view.positionOf(1, t).toPoint());
    QVERIFY2(tip.contains(QStringLiteral(" on %1\n").arg(QString::fromStdString(report.locations[1].name))), qPrintable(tip));
  }

  // Files beside a mailed report that try to run something, of both kinds:
  // nothing runs, and nothing connects without the user's answer.
  void sidecarsThatTryToRunSomethingRunNothing_data() {
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("profileName");
    QTest::addColumn<QString>("host");
    QTest::addColumn<bool>("asks");
    const auto row = [](const char* name, const char* kind, const char* profile, const char* host, bool asks) {
      QTest::newRow(name) << QString::fromLatin1(kind) << QString::fromLatin1(profile) << QString::fromLatin1(host) << asks;
    };
    row("local, unknown profile", "local", "evil local", "", true);
    row("ssh, unknown profile", "ssh", "evil ssh", "127.0.0.1", true);
    row("ssh, the user's profile on another host", "ssh", "test sshd", "127.0.0.2", true);
    row("ssh, the user's profile", "ssh", "test sshd", "127.0.0.1", false);
    row("local, the user's profile", "local", "This computer", "", false);
  }

  void sidecarsThatTryToRunSomethingRunNothing() {
    QFETCH(QString, kind);
    QFETCH(QString, profileName);
    QFETCH(QString, host);
    QFETCH(bool, asks);
    QTemporaryDir mailed(server_.directory() + QStringLiteral("/mailed-XXXXXX"));
    const QString report = writeMailedReport(mailed.path(), kind, profileName, host);
    const int logins = loginCount();

    // In the app: the loader asks first when it is not sure; the answer here is "Don't Connect".
    app::TimelineLoader loader;
    loader.setProfileStore(store_);
    QSignalSpy asked(&loader, &app::TimelineLoader::questionAsked);
    QSignalSpy failed(&loader, &app::TimelineLoader::failed);
    const app::LoadResult loaded = app::ReportLoader::loadNow(report);
    QVERIFY2(loaded.report, qPrintable(loaded.error));
    loader.load(loaded.report);
    if (asks) {
      QTRY_VERIFY_WITH_TIMEOUT(loader.pendingQuestion(), 30000);
      QCOMPARE(asked.size(), 1);
      const QString question = loader.pendingQuestion()->message();
      QVERIFY2(question.contains(profileName), qPrintable(question));
      loader.pendingQuestion()->reject();
      QTRY_VERIFY_WITH_TIMEOUT(!failed.isEmpty(), 30000);
      QVERIFY2(failed[0][0].toString().contains(QStringLiteral("not connected")), qPrintable(failed[0][0].toString()));
      QCOMPARE(loginCount(), logins);
    } else {
      // The user's own profile: it connects, runs the user's set-up lines and
      // waitscope-report with the crafted names as arguments, which fails.
      QTRY_VERIFY_WITH_TIMEOUT(!failed.isEmpty(), 120000);
      QVERIFY(asked.isEmpty());
    }
    QCOMPARE(launchtest::pwnedFiles({server_.directory()}), QStringList());

    // Command-line exports: the window's timeline never connects; --view timeline
    // connects only with --allow-remote-timeline, and then only where the user's profile goes.
    const int loginsBeforeExports = loginCount();
    QCOMPARE(scriptedExport(report, mailed.filePath(QStringLiteral("window.png")), false, false), 0);
    QCOMPARE(scriptedExport(report, mailed.filePath(QStringLiteral("timeline.png")), true, false), 1);
    QCOMPARE(loginCount(), loginsBeforeExports);
    QCOMPARE(scriptedExport(report, mailed.filePath(QStringLiteral("timeline.png")), true, true), 1);
    if (asks) QCOMPARE(loginCount(), loginsBeforeExports);
    QVERIFY(!QFileInfo::exists(mailed.filePath(QStringLiteral("timeline.png"))));
    QCOMPARE(launchtest::pwnedFiles({server_.directory()}), QStringList());
  }

  // The window asks with a dialog found like any other modal one; "Don't Connect" leaves a notice.
  void theWindowAsksBeforeConnecting() {
    QTemporaryDir mailed(server_.directory() + QStringLiteral("/window-XXXXXX"));
    const QString report = writeMailedReport(mailed.path(), QStringLiteral("ssh"), QStringLiteral("evil ssh"),
                                             QStringLiteral("127.0.0.1"));
    const int logins = loginCount();
    app::MainWindow window;
    window.setInteractive(false);
    window.findChild<app::TimelineLoader*>()->setProfileStore(store_);
    window.show();
    QSignalSpy loadedReport(&window, &app::MainWindow::reportLoaded);
    window.openReport(report);
    QTRY_VERIFY_WITH_TIMEOUT(qobject_cast<launch::RemoteConnectDialog*>(QApplication::activeModalWidget()), 30000);
    auto* dialog = qobject_cast<launch::RemoteConnectDialog*>(QApplication::activeModalWidget());
    QCOMPARE(dialog->parentWidget(), &window);
    dialog->findChild<QPushButton*>(QStringLiteral("dontConnect"))->click();
    QTRY_VERIFY_WITH_TIMEOUT(window.timelineNotice().contains(QStringLiteral("not connected")), 30000);
    QCOMPARE(loginCount(), logins);
    QCOMPARE(launchtest::pwnedFiles({server_.directory()}), QStringList());
  }

  // A profile name the user does not have: the user picks their own profile,
  // the timeline opens, and the next opening uses it without asking.
  void theUserPicksTheirOwnProfile() {
    QTemporaryDir copy(server_.directory() + QStringLiteral("/renamed-XXXXXX"));
    const QString report = copy.filePath(QStringLiteral("report.waitscope"));
    QVERIFY(QFile::copy(localReport_, report));
    launch::RemoteOrigin origin = *launch::readRemoteOrigin(localReport_);
    origin.profileName = QStringLiteral("the cluster (old name)");
    QCOMPARE(launch::writeRemoteOrigin(report, origin), QString());
    const app::LoadResult loaded = app::ReportLoader::loadNow(report);
    QVERIFY2(loaded.report, qPrintable(loaded.error));

    app::TimelineLoader loader;
    loader.setProfileStore(store_);
    std::shared_ptr<timeline::SliceSource> source;
    QString error;
    connect(&loader, &app::TimelineLoader::loaded, this, [&](std::shared_ptr<timeline::SliceSource> s) { source = s; });
    connect(&loader, &app::TimelineLoader::failed, this, [&](const QString& e) { error = e; });
    loader.load(loaded.report);
    QTRY_VERIFY_WITH_TIMEOUT(loader.pendingQuestion(), 30000);
    launch::RemoteConnectDialog* dialog = loader.pendingQuestion();
    QCOMPARE(dialog->chosenProfile().name, QStringLiteral("test sshd"));  // the one that connects to the recorded host
    QVERIFY(dialog->selectProfile(QStringLiteral("test sshd")));
    dialog->accept();
    QTRY_VERIFY_WITH_TIMEOUT(source || !error.isEmpty(), 120000);
    QVERIFY2(source, qPrintable(error));
    QCOMPARE(launch::readRemoteOrigin(report)->profileName, QStringLiteral("test sshd"));

    source.reset();
    QSignalSpy asked(&loader, &app::TimelineLoader::questionAsked);
    loader.load(loaded.report);
    QTRY_VERIFY_WITH_TIMEOUT(source || !error.isEmpty(), 120000);
    QVERIFY2(source, qPrintable(error));
    QVERIFY(asked.isEmpty());
  }

  // With --allow-remote-timeline and the user's own profile, a command-line export draws the remote timeline.
  void headlessExportWithTheFlag() {
    QString error;
    app::CommandLine options;
    QVERIFY(app::parseCommandLine({localReport_, QStringLiteral("--quit"), QStringLiteral("--allow-remote-timeline")},
                                  &options, &error));
    QVERIFY(options.allowRemoteTimeline);
    QVERIFY(app::parseCommandLine({localReport_, QStringLiteral("--quit")}, &options, &error));
    QVERIFY(!options.allowRemoteTimeline);

    const launch::ProfileStore userStore;  // what a command-line run reads
    QVERIFY(userStore.save(store_.load()));
    QTemporaryDir out;
    const QString png = out.filePath(QStringLiteral("timeline.png"));
    const int status = scriptedExport(localReport_, png, true, true);
    QFile::remove(userStore.filePath());
    QCOMPARE(status, 0);
    QImage image(png);
    QVERIFY(!image.isNull());
    QCOMPARE(image.size(), QSize(900, 400));
  }

  // Last: it stops the server.
  void aLostConnectionIsOneLineNamingTheHost() {
    const std::optional<launch::RemoteOrigin> origin = launch::readRemoteOrigin(localReport_);
    QVERIFY(origin);
    auto [source, error] = openRemote(*origin);
    QVERIFY2(source, qPrintable(error));
    const app::LoadResult loaded = app::ReportLoader::loadNow(localReport_);
    views::Selection selection;
    views::TimelineView view(&selection);
    QVERIFY(showExact(view, source, loaded.report));

    server_.stop();
    view.zoomIn();
    QTRY_VERIFY_WITH_TIMEOUT(view.sliceStatus() == SliceStatus::Failed, 60000);
    const QString line = view.statusText();
    qInfo().noquote() << "the view shows:" << line;
    QVERIFY2(line.contains(QStringLiteral("127.0.0.1")), qPrintable(line));
    QVERIFY2(line.contains(QStringLiteral("Check the connection")), qPrintable(line));
    QVERIFY2(!line.contains(QLatin1Char('\n')), qPrintable(line));
    QVERIFY(view.lastSliceItems() > 0);  // the whole-trace slice stays drawn under the line

    // Opening fails the same way: one line, naming the trace and the host.
    std::tie(source, error) = openRemote(*origin);
    QVERIFY(!source);
    qInfo().noquote() << "opening says:" << error;
    QVERIFY2(error.contains(QStringLiteral("127.0.0.1")) && error.contains(trace_), qPrintable(error));
    QVERIFY2(!error.contains(QLatin1Char('\n')), qPrintable(error));
  }

 private:
  // Opens a remote source as the timeline loader does; (source, "") or (nullptr, error).
  std::pair<std::shared_ptr<app::RemoteSliceSource>, QString> openRemote(const launch::RemoteOrigin& origin) {
    std::pair<std::shared_ptr<app::RemoteSliceSource>, QString> result;
    bool done = false;
    app::RemoteSliceSource::open(profile_, origin, {}, this, [&](std::shared_ptr<app::RemoteSliceSource> s, const QString& e) {
      result = {std::move(s), e};
      done = true;
    });
    QElapsedTimer clock;
    clock.start();
    while (!done && clock.elapsed() < 60000) QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
    if (!done) result.second = QStringLiteral("no answer within 60 s");
    return result;
  }

  // Shows `source` in `view` and waits until the view draws an exact slice.
  static bool showExact(views::TimelineView& view, std::shared_ptr<timeline::SliceSource> source,
                        const views::ReportDataPtr& report) {
    view.resize(900, 300);
    view.setData(std::move(source), std::shared_ptr<const report::Report>(report, &report->report()));
    view.show();
    if (!QTest::qWaitForWindowExposed(&view)) return false;
    return QTest::qWaitFor([&] { return view.sliceStatus() == SliceStatus::Exact; }, 60000);
  }

  // A copy of the report in `directory` with a REPORT.remote.json of `kind` that
  // names `profileName` and `host` and tries to run things (old format: a whole
  // profile with set-up lines, an analyzer, a key, a working directory; crafted
  // trace and report names). What would run creates PWNED... files.
  QString writeMailedReport(const QString& directory, const QString& kind, const QString& profileName,
                            const QString& host) {
    const QString report = directory + QStringLiteral("/mailed.waitscope");
    if (!QFile::copy(localReport_, report)) return {};
    const QString pwned = server_.directory() + QStringLiteral("/PWNED");
    QJsonObject profile;
    profile[QStringLiteral("name")] = profileName;
    profile[QStringLiteral("kind")] = kind;
    profile[QStringLiteral("host")] = host;
    profile[QStringLiteral("port")] = server_.port();
    profile[QStringLiteral("user")] = profile_.user;
    profile[QStringLiteral("identityFile")] = server_.clientKey();
    profile[QStringLiteral("reuseConnection")] = false;
    profile[QStringLiteral("workingDirectory")] = directory;
    profile[QStringLiteral("setupLines")] = QJsonArray{QStringLiteral("touch %1-setup").arg(pwned)};
    profile[QStringLiteral("analyzerPath")] = QStringLiteral("/bin/sh -c 'touch %1-analyzer' x/waitscope-analyze").arg(pwned);
    QJsonObject o;
    o[QStringLiteral("format")] = QStringLiteral("waitscope-remote-origin");
    o[QStringLiteral("version")] = 1;
    o[QStringLiteral("profile")] = profile;
    o[QStringLiteral("trace")] = QStringLiteral("--index=/tmp/x $(touch %1-trace) `touch %1-trace2`; touch %1-trace3").arg(pwned);
    o[QStringLiteral("report")] = QStringLiteral("-h'; touch %1-report '").arg(pwned);
    QFile file(launch::remoteOriginPath(report));
    if (!file.open(QIODevice::WriteOnly)) return {};
    file.write(QJsonDocument(o).toJson());
    return report;
  }

  // Logins the test server accepted so far.
  int loginCount() const { return int(server_.log().count(QStringLiteral("Accepted publickey"))); }

  // `waitscope REPORT --quit --export-png PNG [--view timeline] [--allow-remote-timeline]`.
  static int scriptedExport(const QString& report, const QString& png, bool timelineView, bool allowRemote) {
    QStringList args{report, QStringLiteral("--quit"), QStringLiteral("--size"), QStringLiteral("900x400"),
                     QStringLiteral("--export-png"), png};
    if (timelineView) args << QStringLiteral("--view") << QStringLiteral("timeline");
    if (allowRemote) args << QStringLiteral("--allow-remote-timeline");
    app::CommandLine options;
    QString error;
    if (!app::parseCommandLine(args, &options, &error)) return 2;
    app::MainWindow window;
    return app::runScriptedExport(window, options);
  }

  SshServer server_;
  QString trace_, localReport_, remoteReport_, remoteReportFile_;
  launch::ConnectionProfile profile_;
  launch::ProfileStore store_{QStringLiteral("/nonexistent/profiles.json")};
};

QTEST_MAIN(RemoteTimelineTest)
#include "remote_timeline_test.moc"
