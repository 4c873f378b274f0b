// The timeline of a trace that stays on another machine, against a real sshd
// on 127.0.0.1 (ssh_server.h): a remote analysis records where its trace is
// beside the copied-back report; the timeline loader then opens a
// RemoteSliceSource, whose slices (from `waitscope-report timeline --binary`
// run over SSH, the index built there) are exactly the local query's for the
// rows asked; the view shows them; a lost connection is one line naming the
// host, never a hang.
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QSignalSpy>
#include <QtTest>

#include "analysis_runner.h"
#include "launch_test_support.h"
#include "remote_origin.h"
#include "remote_timeline.h"
#include "report_loader.h"
#include "shell_command.h"
#include "ssh_server.h"
#include "timeline/timeline_index_file.h"
#include "timeline/timeline_query.h"
#include "timeline_loader.h"
#include "timeline_view.h"

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
    QCOMPARE(origin->profile.host, QStringLiteral("127.0.0.1"));
    QCOMPARE(origin->profile.port, server_.port());
    QVERIFY(!QFileInfo::exists(QFileInfo(localReport_).dir().filePath(QStringLiteral("traces.otf2"))));
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
    std::shared_ptr<timeline::SliceSource> source;
    QString error;
    connect(&loader, &app::TimelineLoader::loaded, this, [&](std::shared_ptr<timeline::SliceSource> s) { source = s; });
    connect(&loader, &app::TimelineLoader::failed, this, [&](const QString& e) { error = e; });
    loader.load(loaded.report);
    QTRY_VERIFY_WITH_TIMEOUT(source || !error.isEmpty(), 120000);
    QVERIFY2(source, qPrintable(error));
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
    views::TimelineView view;
    QVERIFY(showExact(view, source, loaded.report));
    QVERIFY(view.lastSliceItems() > 0);
    const double t = a.regions[a.regions.size() / 2].start / 2 + a.regions[a.regions.size() / 2].end / 2;
    const QString tip = view.describeAt(view.positionOf(1, t).toPoint());
    QVERIFY2(tip.contains(QStringLiteral(" on %1\n").arg(QString::fromStdString(report.locations[1].name))), qPrintable(tip));
  }

  // Last: it stops the server.
  void aLostConnectionIsOneLineNamingTheHost() {
    const std::optional<launch::RemoteOrigin> origin = launch::readRemoteOrigin(localReport_);
    QVERIFY(origin);
    auto [source, error] = openRemote(*origin);
    QVERIFY2(source, qPrintable(error));
    const app::LoadResult loaded = app::ReportLoader::loadNow(localReport_);
    views::TimelineView view;
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
    app::RemoteSliceSource::open(origin, {}, this, [&](std::shared_ptr<app::RemoteSliceSource> s, const QString& e) {
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

  SshServer server_;
  QString trace_, localReport_, remoteReport_, remoteReportFile_;
};

QTEST_MAIN(RemoteTimelineTest)
#include "remote_timeline_test.moc"
