// Remote launches against a real sshd that the test starts on 127.0.0.1 (see
// ssh_server.h): the analysis over ssh with progress and the verified copy of
// the report, Cancel, a connection killed during the copy and the retry, a
// dropped connection during the run, a bad key, an unreachable host, a missing
// analyzer, crafted file names, Test connection, browsing, and Slurm batch jobs
// through fake sbatch/squeue/sacct/scancel that really run the job script.
#include <signal.h>

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QProcess>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include "app/launch/analysis_runner.h"
#include "app/launch/connection_tester.h"
#include "app/launch/remote_browsing.h"
#include "app/launch/report_fetcher.h"
#include "app/launch/report_tool_call.h"
#include "app/launch/shell_command.h"
#include "app/launch/shell_quote.h"
#include "tests/gui/launch/launch_test_support.h"
#include "tests/gui/launch/ssh_server.h"

using namespace waitscope::launch;
using namespace launchtest;

class LaunchSshTest : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    if (!SshServer::sshdInstalled()) QSKIP("/usr/sbin/sshd is not installed (scripts/setup.sh installs openssh-server)");
    qunsetenv("SSH_AUTH_SOCK");  // only the profile's key may count
    QString why;
    QVERIFY2(server_.start(&why), qPrintable(why));
    launchSettings().sshConfigFile = server_.clientConfig();
    launchSettings().connectTimeoutSeconds = 10;
    trace_ = copyTrace(server_.directory() + QStringLiteral("/traces/run one"));
  }

  // A test that failed while the server was away must not fail the next ones.
  void init() {
    QString why;
    if (!server_.isRunning()) QVERIFY2(server_.restart(&why), qPrintable(why));
  }

  void cleanupTestCase() {
    for (qint64 pid : leftovers_) ::kill(static_cast<pid_t>(pid), SIGKILL);
    server_.stop();
  }

  void runsRemotelyAndCopiesTheReport() {
    const QString work = server_.directory() + QStringLiteral("/work");
    QDir().mkpath(work);
    AnalysisRunner runner;
    QSignalSpy progress(&runner, &AnalysisRunner::progressChanged);
    QSignalSpy ready(&runner, &AnalysisRunner::reportReady);
    QSignalSpy copied(&runner, &AnalysisRunner::copyProgress);
    runner.start({server_.profile(work), trace_, 2, {}, {}});
    QTRY_VERIFY_WITH_TIMEOUT(!runner.isActive(), 120000);
    QVERIFY2(ready.size() == 1, qPrintable(runner.failure().message + "\n" + server_.log()));
    QStringList phases;
    for (const QList<QVariant>& s : progress)
      if (!phases.contains(s[0].toString())) phases << s[0].toString();
    QCOMPARE(phases, (QStringList{"read", "validate", "replay", "causes", "write"}));
    QVERIFY(!copied.isEmpty());
    const QString local = ready[0][0].toString();
    const QString remote = work + QStringLiteral("/run one.waitscope");
    QVERIFY(QFile::exists(remote));
    QVERIFY(local != remote);
    QCOMPARE(sha256(local), sha256(remote));
    QVERIFY(!QFile::exists(ReportFetcher::partialPath(local)));

    // The trace stays remote: the timeline asks for slices over the same connection.
    QByteArray slice;
    QString error;
    bool done = false;
    runReportTool(runner.request().profile, {"timeline", runner.request().trace, runner.remoteReport(), "--width", "64"}, 60000,
                  this, [&](const QByteArray& out, const QString& e) {
                    slice = out;
                    error = e;
                    done = true;
                  });
    QTRY_VERIFY_WITH_TIMEOUT(done, 60000);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QJsonParseError parse;
    const QJsonDocument json = QJsonDocument::fromJson(slice, &parse);
    QVERIFY2(json.isObject(), qPrintable(parse.errorString() + ": " + QString::fromUtf8(slice.left(200))));
    done = false;
    runReportTool(runner.request().profile, {"timeline", "no such trace.otf2", "x"}, 60000, this,
                  [&](const QByteArray&, const QString& e) {
                    error = e;
                    done = true;
                  });
    QTRY_VERIFY_WITH_TIMEOUT(done, 60000);
    QVERIFY(!error.isEmpty());
  }

  void testConnectionReportsEachCheck() {
    ConnectionTester tester;
    QSignalSpy done(&tester, &ConnectionTester::finished);
    tester.start(server_.profile());
    QTRY_VERIFY_WITH_TIMEOUT(done.size() == 1, 60000);
    QVERIFY2(tester.allOk(), qPrintable(tester.summary()));
    const QString text = tester.summary();
    QVERIFY2(text.contains(QStringLiteral("Connected to")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("The analyzer is installed: waitscope-analyze ")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("mpiexec is available")), qPrintable(text));

    ConnectionProfile missing = server_.profile();
    missing.analyzerPath = QStringLiteral("/nonexistent/waitscope-analyze");
    tester.start(missing);
    QTRY_VERIFY_WITH_TIMEOUT(done.size() == 2, 60000);
    QVERIFY(!tester.allOk());
    QVERIFY2(tester.summary().contains(QStringLiteral("was not found")), qPrintable(tester.summary()));
  }

  void badKeyIsRefused() {
    ConnectionProfile p = server_.profile();
    p.identityFile = server_.otherKey();
    AnalysisRunner runner;
    runner.start({p, trace_, 2, {}, {}});
    QTRY_VERIFY_WITH_TIMEOUT(!runner.isActive(), 60000);
    QCOMPARE(runner.failure().kind, FailureKind::AuthenticationRefused);
    QVERIFY2(runner.failure().message.startsWith(QStringLiteral("Authentication refused by")), qPrintable(runner.failure().message));

    ConnectionTester tester;
    QSignalSpy done(&tester, &ConnectionTester::finished);
    tester.start(p);
    QTRY_VERIFY_WITH_TIMEOUT(done.size() == 1, 60000);
    QCOMPARE(tester.results().size(), 1);
    QVERIFY(tester.results()[0].message.startsWith(QStringLiteral("Authentication refused")));
  }

  void unreachableHostIsExplained() {
    ConnectionProfile p = server_.profile();
    p.port = freePort();
    AnalysisRunner runner;
    runner.start({p, trace_, 2, {}, {}});
    QTRY_VERIFY_WITH_TIMEOUT(!runner.isActive(), 60000);
    QCOMPARE(runner.failure().kind, FailureKind::Unreachable);
    QVERIFY2(runner.failure().message.contains(QStringLiteral("Cannot reach")), qPrintable(runner.failure().message));
  }

  void missingAnalyzerIsExplained() {
    ConnectionProfile p = server_.profile();
    p.analyzerPath = QStringLiteral("/nonexistent/waitscope-analyze");
    AnalysisRunner runner;
    runner.start({p, trace_, 2, {}, {}});
    QTRY_VERIFY_WITH_TIMEOUT(!runner.isActive(), 60000);
    QCOMPARE(runner.failure().kind, FailureKind::AnalyzerNotFound);
  }

  void wrongRankCountIsExplained() {
    AnalysisRunner runner;
    runner.start({server_.profile(), trace_, 4, server_.directory() + QStringLiteral("/wrong.waitscope"), {}});
    QTRY_VERIFY_WITH_TIMEOUT(!runner.isActive(), 120000);
    QCOMPARE(runner.failure().kind, FailureKind::WrongRankCount);
  }

  // A file name and a working directory made to break out of quotes: the
  // analysis works on them, and none of the embedded commands ran.
  void craftedNamesCannotRunCommands() {
    const QString crafted = QStringLiteral("x'; touch pwned1; echo '$(touch pwned2) `touch pwned3` \"q\" ; touch pwned4");
    const QString base = server_.directory() + QStringLiteral("/crafted");
    const QString trace = copyTrace(base + QLatin1Char('/') + crafted);
    const QString work = base + QStringLiteral("/work 'dir' $(touch pwned5)");
    QDir().mkpath(work);
    AnalysisRunner runner;
    QSignalSpy ready(&runner, &AnalysisRunner::reportReady);
    runner.start({server_.profile(work), trace, 2, {}, {}});
    QTRY_VERIFY_WITH_TIMEOUT(!runner.isActive(), 120000);
    QVERIFY2(ready.size() == 1, qPrintable(runner.failure().message));
    QVERIFY(QFile::exists(work + QLatin1Char('/') + crafted + QStringLiteral(".waitscope")));
    QCOMPARE(sha256(ready[0][0].toString()), sha256(work + QLatin1Char('/') + crafted + QStringLiteral(".waitscope")));
    for (const QString& dir : {base, work, QDir::homePath(), server_.directory()})
      QVERIFY2(QDir(dir).entryList({QStringLiteral("pwned*")}, QDir::Files).isEmpty(), qPrintable(dir));
  }

  // The same over SSH: every launcher and every placeholder with names made to
  // break out of the quoting; each program gets exactly the names, nothing they
  // hold runs on either side, and the batch job script is gone at the end.
  void craftedNamesThroughEveryLauncherOverSsh() {
    const QString base = server_.directory() + QStringLiteral("/crafted-launchers");
    const QString work = base + QStringLiteral("/work");
    QVERIFY(QDir().mkpath(work));
    const QString log = base + QStringLiteral("/arguments");
    const QString recorders = writeArgumentRecorders(base, log);
    const QString slurmBin = writeFakeSlurm(base + QStringLiteral("/slurm"));
    const QString analyzer =
        recorders + QStringLiteral("/analyze {trace}{report} 'it''s' \"q\" $(touch PWNEDa) `touch PWNEDb`; x & y | z *");
    QVERIFY(writeScript(analyzer, QStringLiteral("#!/bin/sh\nexit 0\n")));
    for (const LauncherKind launcher : {LauncherKind::Mpiexec, LauncherKind::Srun, LauncherKind::Batch}) {
      const ConnectionProfile p = craftedLaunchProfile(server_.profile(work), launcher, recorders, slurmBin, analyzer);
      for (const QString& name : craftedNames()) {
        checkCraftedLaunch(p, work, name, log, {server_.directory()});
        if (QTest::currentTestFailed()) return;
      }
    }
  }

  void cancelStopsTheRemoteJob() {
    const QString pids = server_.directory() + QStringLiteral("/cancel-pids");
    ConnectionProfile p = server_.profile();
    p.analyzerPath = writeSlowAnalyzer(server_.directory(), pids);
    AnalysisRunner runner;
    QSignalSpy progress(&runner, &AnalysisRunner::progressChanged);
    runner.start({p, trace_, 2, server_.directory() + QStringLiteral("/slow.waitscope"), {}});
    QTRY_VERIFY_WITH_TIMEOUT(progress.size() >= 2 && readPids(pids).size() == 2, 60000);
    leftovers_ << readPids(pids);
    runner.cancel();
    QTRY_VERIFY_WITH_TIMEOUT(!runner.isActive(), 30000);
    QCOMPARE(runner.state(), AnalysisRunner::State::Cancelled);
    for (qint64 pid : readPids(pids)) QTRY_VERIFY_WITH_TIMEOUT(!processAlive(pid), 15000);
    QVERIFY(!processAlive(runner.processGroup()));
  }

  void droppedConnectionDuringTheRun() {
    const QString pids = server_.directory() + QStringLiteral("/drop-pids");
    ConnectionProfile p = server_.profile();
    p.analyzerPath = writeSlowAnalyzer(server_.directory(), pids);
    AnalysisRunner runner;
    QSignalSpy progress(&runner, &AnalysisRunner::progressChanged);
    runner.start({p, trace_, 2, server_.directory() + QStringLiteral("/slow.waitscope"), {}});
    QTRY_VERIFY_WITH_TIMEOUT(progress.size() >= 2 && readPids(pids).size() == 2, 60000);
    leftovers_ << readPids(pids);
    const qint64 group = runner.processGroup();
    server_.dropConnections();
    QTRY_VERIFY_WITH_TIMEOUT(!runner.isActive(), 60000);
    QCOMPARE(runner.failure().kind, FailureKind::ConnectionDropped);
    QVERIFY2(runner.failure().message.contains(QStringLiteral("dropped during the analysis")), qPrintable(runner.failure().message));
    if (group > 0) ::kill(static_cast<pid_t>(-group), SIGKILL);
  }

  // The connection dies while the report streams in: the partial bytes stay in
  // LOCAL.part (never at LOCAL), and the retry continues from there.
  void killedConnectionMidCopyAndRetry() {
    const QString remote = server_.directory() + QStringLiteral("/big report.waitscope");
    {
      QFile f(remote);
      QVERIFY(f.open(QIODevice::WriteOnly));
      QByteArray block(1 << 20, Qt::Uninitialized);
      for (int i = 0; i < 24; ++i) {
        QRandomGenerator::global()->fillRange(reinterpret_cast<quint32*>(block.data()), block.size() / 4);
        f.write(block);
      }
    }
    QTemporaryDir localDir;
    const QString local = localDir.filePath(QStringLiteral("copy.waitscope"));
    ReportFetcher fetcher;
    QSignalSpy failed(&fetcher, &ReportFetcher::failed);
    QSignalSpy succeeded(&fetcher, &ReportFetcher::succeeded);
    QSignalSpy resumed(&fetcher, &ReportFetcher::resumed);
    bool dropped = false;
    connect(&fetcher, &ReportFetcher::progress, this, [&](qint64 bytes, qint64 total) {
      if (!dropped && bytes > 0 && bytes < total) {
        dropped = true;
        server_.dropConnections();
      }
    });
    fetcher.start(server_.profile(), remote, local);
    QTRY_VERIFY_WITH_TIMEOUT(!fetcher.isRunning(), 60000);
    QVERIFY(dropped);
    QCOMPARE(succeeded.size(), 0);
    QCOMPARE(fetcher.failure().kind, FailureKind::ConnectionDropped);
    QVERIFY2(fetcher.failure().message.contains(QStringLiteral("Retry continues it")), qPrintable(fetcher.failure().message));
    QVERIFY(!QFile::exists(local));  // a partial report is never where reports are opened
    const qint64 partial = QFileInfo(ReportFetcher::partialPath(local)).size();
    QVERIFY(partial > 0 && partial < QFileInfo(remote).size());

    fetcher.start(server_.profile(), remote, local);
    QTRY_VERIFY_WITH_TIMEOUT(!fetcher.isRunning(), 60000);
    QVERIFY2(succeeded.size() == 1, qPrintable(fetcher.failure().message));
    QCOMPARE(resumed.size(), 1);
    QVERIFY(resumed[0][0].toLongLong() >= partial);
    QCOMPARE(sha256(local), sha256(remote));
    QVERIFY(!QFile::exists(ReportFetcher::partialPath(local)));
  }

  // The same through the runner and the dialog's "Retry copy": the server goes
  // away as the copy starts and comes back.
  void runnerRetriesTheCopy() {
    AnalysisRunner runner;
    QSignalSpy ready(&runner, &AnalysisRunner::reportReady);
    bool stopped = false;
    connect(&runner, &AnalysisRunner::copyProgress, this, [&] {
      if (!stopped) {
        stopped = true;
        server_.stop();
      }
    });
    runner.start({server_.profile(), trace_, 2, server_.directory() + QStringLiteral("/retry.waitscope"), {}});
    QTRY_VERIFY_WITH_TIMEOUT(!runner.isActive(), 120000);
    QVERIFY(stopped);
    QCOMPARE(runner.failure().kind, FailureKind::ConnectionDropped);
    QVERIFY(ready.isEmpty());
    QVERIFY(!QFile::exists(runner.localReport()));
    QString why;
    QVERIFY2(server_.restart(&why), qPrintable(why));
    runner.retryCopy();
    QTRY_VERIFY_WITH_TIMEOUT(!runner.isActive(), 60000);
    QVERIFY2(ready.size() == 1, qPrintable(runner.failure().message));
    QCOMPARE(sha256(runner.localReport()), sha256(server_.directory() + QStringLiteral("/retry.waitscope")));
  }

  void browsingAndRankCountThroughAnAlias() {
    ConnectionProfile p = server_.profile();
    p.host = server_.alias();  // HostName and Port come from the ssh config
    p.port = 0;
    DirectoryListing listing;
    bool done = false;
    listDirectory(p, server_.directory() + QStringLiteral("/traces"), this, [&](const DirectoryListing& l) {
      listing = l;
      done = true;
    });
    QTRY_VERIFY_WITH_TIMEOUT(done, 30000);
    QVERIFY2(listing.error.isEmpty(), qPrintable(listing.error));
    QCOMPARE(listing.directories, QStringList{QStringLiteral("run one")});
    int ranks = 0;
    done = false;
    traceRankCount(p, trace_, this, [&](int r, const QString& e) {
      ranks = r;
      done = true;
      QVERIFY2(e.isEmpty(), qPrintable(e));
    });
    QTRY_VERIFY_WITH_TIMEOUT(done, 60000);
    QCOMPARE(ranks, 2);
  }

  void connectionReuse() {
    QTemporaryDir control(QStringLiteral("/tmp/wsctl-XXXXXX"));  // short: socket paths are limited
    launchSettings().controlDirectory = control.path();
    ConnectionProfile p = server_.profile();
    p.reuseConnection = true;
    p.controlPersistSeconds = 30;
    ConnectionTester tester;
    QSignalSpy done(&tester, &ConnectionTester::finished);
    tester.start(p);
    QTRY_VERIFY_WITH_TIMEOUT(done.size() == 1, 60000);
    QVERIFY2(tester.allOk(), qPrintable(tester.summary()));
    QTRY_VERIFY_WITH_TIMEOUT(!QDir(control.path()).entryList({QStringLiteral("waitscope-*")}, QDir::Files | QDir::System | QDir::Hidden).isEmpty(), 10000);
    tester.start(p);  // over the master connection
    QTRY_VERIFY_WITH_TIMEOUT(done.size() == 2, 60000);
    QVERIFY(tester.allOk());
    // End the master connection this test made.
    QStringList args = sshOptions(p);
    args << "-O" << "exit" << "--" << p.host;
    QProcess::execute(launchSettings().sshProgram, args);
    launchSettings().controlDirectory.clear();
  }

  void batchJobThroughFakeSlurm() {
    const QString slurm = server_.directory() + QStringLiteral("/slurm");
    const QString bin = writeFakeSlurm(slurm);
    const QString work = server_.directory() + QStringLiteral("/batch work");
    QDir().mkpath(work);
    ConnectionProfile p = server_.profile(work);
    p.launcher = LauncherKind::Batch;
    p.setupLines << QStringLiteral("export PATH=%1:$PATH").arg(shellQuote(bin));
    p.account.clear();
    p.timeLimit = QStringLiteral("00:05:00");
    p.batchTemplate = QStringLiteral(
        "#!/bin/bash\n#SBATCH --ntasks={ranks}\n#SBATCH --account={account}\n#SBATCH --time={time}\n"
        "mpiexec --oversubscribe -n {ranks} {analyzer} {trace} -o {report}\n");
    AnalysisRunner runner;
    runner.setBatchPollInterval(300);
    QSignalSpy progress(&runner, &AnalysisRunner::progressChanged);
    QSignalSpy ready(&runner, &AnalysisRunner::reportReady);
    QSignalSpy started(&runner, &AnalysisRunner::jobStarted);
    runner.start({p, trace_, 2, {}, {}});
    QTRY_VERIFY_WITH_TIMEOUT(!runner.isActive(), 120000);
    QVERIFY2(ready.size() == 1, qPrintable(runner.failure().message));
    QCOMPARE(started.size(), 1);
    QVERIFY(!runner.batchJobId().isEmpty());
    QStringList phases;
    for (const QList<QVariant>& s : progress)
      if (!phases.contains(s[0].toString())) phases << s[0].toString();
    QVERIFY2(phases.contains(QStringLiteral("write")), qPrintable(phases.join(',')));
    QFile script(slurm + QStringLiteral("/state/last-job-script"));
    QVERIFY(script.open(QIODevice::ReadOnly));
    const QByteArray text = script.readAll();
    QVERIFY(text.contains("#SBATCH --ntasks=2"));
    QVERIFY(text.contains("#SBATCH --time=00:05:00"));
    QVERIFY(!text.contains("--account"));
    QVERIFY(QFile::exists(slurm + QStringLiteral("/state/squeue.log")));
    QCOMPARE(sha256(ready[0][0].toString()), sha256(work + QStringLiteral("/run one.waitscope")));
    QCOMPARE(QDir(work).entryList({QStringLiteral("waitscope-job-*.sh")}, QDir::Files), QStringList());
  }

  void batchCancelRunsScancel() {
    const QString slurm = server_.directory() + QStringLiteral("/slurm-cancel");
    const QString bin = writeFakeSlurm(slurm);
    const QString pids = slurm + QStringLiteral("/pids");
    ConnectionProfile p = server_.profile(slurm);
    p.launcher = LauncherKind::Batch;
    p.setupLines << QStringLiteral("export PATH=%1:$PATH").arg(shellQuote(bin));
    p.analyzerPath = writeSlowAnalyzer(slurm, pids);
    p.batchTemplate = QStringLiteral("#!/bin/bash\nmpiexec --oversubscribe -n {ranks} {analyzer} {trace} -o {report}\n");
    AnalysisRunner runner;
    runner.setBatchPollInterval(300);
    QSignalSpy progress(&runner, &AnalysisRunner::progressChanged);
    runner.start({p, trace_, 2, {}, {}});
    QTRY_VERIFY_WITH_TIMEOUT(progress.size() >= 2 && readPids(pids).size() == 2, 60000);
    leftovers_ << readPids(pids);
    runner.cancel();
    QTRY_VERIFY_WITH_TIMEOUT(!runner.isActive(), 60000);
    QCOMPARE(runner.state(), AnalysisRunner::State::Cancelled);
    QFile log(slurm + QStringLiteral("/state/scancel.log"));
    QVERIFY(log.open(QIODevice::ReadOnly));
    QCOMPARE(log.readAll().trimmed(), runner.batchJobId().toLatin1());
    for (qint64 pid : readPids(pids)) QTRY_VERIFY_WITH_TIMEOUT(!processAlive(pid), 15000);
    QCOMPARE(QDir(slurm).entryList({QStringLiteral("waitscope-job-*.sh")}, QDir::Files), QStringList());
  }

  void batchJobKilledIsExplained() {
    const QString slurm = server_.directory() + QStringLiteral("/slurm-killed");
    const QString bin = writeFakeSlurm(slurm);
    ConnectionProfile p = server_.profile(slurm);
    p.launcher = LauncherKind::Batch;
    p.setupLines << QStringLiteral("export PATH=%1:$PATH").arg(shellQuote(bin));
    p.batchTemplate = QStringLiteral("#!/bin/bash\necho 'progress read 0' >&2\nkill -s KILL $$\n");
    AnalysisRunner runner;
    runner.setBatchPollInterval(300);
    runner.start({p, trace_, 2, {}, {}});
    QTRY_VERIFY_WITH_TIMEOUT(!runner.isActive(), 60000);
    QCOMPARE(runner.state(), AnalysisRunner::State::Failed);
    QVERIFY2(runner.failure().kind == FailureKind::AnalysisFailed || runner.failure().kind == FailureKind::JobKilled,
             qPrintable(runner.failure().message));
    QVERIFY(runner.failure().message.contains(QStringLiteral("batch job")));
    QCOMPARE(QDir(slurm).entryList({QStringLiteral("waitscope-job-*.sh")}, QDir::Files), QStringList());
  }

 private:
  SshServer server_;
  QString trace_;
  QList<qint64> leftovers_;
};

QTEST_GUILESS_MAIN(LaunchSshTest)
#include "launch_ssh_test.moc"
