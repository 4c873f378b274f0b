// Local launches through the real mpiexec: the same scripts as for SSH
// profiles, run by /bin/sh. The analyzer analyzes a real 2-rank Score-P trace.
#include <signal.h>

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include "app/launch/analysis_runner.h"
#include "app/launch/remote_browsing.h"
#include "app/launch/shell_quote.h"
#include "tests/gui/launch/launch_test_support.h"

using namespace waitscope::launch;
using namespace launchtest;

class LaunchLocalTest : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

  void analyzesATraceWithProgress() {
    QTemporaryDir dir;
    const QString trace = copyTrace(dir.filePath(QStringLiteral("run 1")));
    AnalysisRunner runner;
    QSignalSpy progress(&runner, &AnalysisRunner::progressChanged);
    QSignalSpy ready(&runner, &AnalysisRunner::reportReady);
    QSignalSpy failed(&runner, &AnalysisRunner::failed);
    runner.start({localProfile(), trace, 2, {}, {}});
    QCOMPARE(runner.state(), AnalysisRunner::State::Running);
    QTRY_VERIFY_WITH_TIMEOUT(!runner.isActive(), 120000);
    QVERIFY2(failed.isEmpty(), qPrintable(runner.failure().message));
    QCOMPARE(ready.size(), 1);
    const QString report = ready[0][0].toString();
    // Beside the trace, named after its archive (Score-P names every trace "traces").
    QCOMPARE(report, dir.filePath(QStringLiteral("run 1/run 1.waitscope")));
    QFile f(report);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QVERIFY(f.read(16).startsWith("SQLite format 3"));
    QStringList phases;
    int last = -1;
    for (const QList<QVariant>& signal : progress) {
      if (!phases.contains(signal[0].toString())) phases << signal[0].toString();
      QVERIFY(signal[3].toInt() >= last);  // overall progress never goes back
      last = signal[3].toInt();
    }
    QCOMPARE(phases, (QStringList{"read", "validate", "replay", "causes", "write"}));
    QCOMPARE(last, 100);
    QVERIFY(runner.processGroup() > 0);
    QVERIFY(runner.elapsedMs() > 0);
  }

  void reportGoesToTheWorkingDirectory() {
    QTemporaryDir dir;
    const QString trace = copyTrace(dir.filePath(QStringLiteral("archive")));
    const QString work = dir.filePath(QStringLiteral("work dir"));
    QDir().mkpath(work);
    AnalysisRunner runner;
    QSignalSpy ready(&runner, &AnalysisRunner::reportReady);
    runner.start({localProfile(work), trace, 2, {}, {}});
    QTRY_VERIFY_WITH_TIMEOUT(!runner.isActive(), 120000);
    QVERIFY2(ready.size() == 1, qPrintable(runner.failure().message));
    QCOMPARE(ready[0][0].toString(), work + QStringLiteral("/archive.waitscope"));
    QVERIFY(QFile::exists(work + QStringLiteral("/archive.waitscope")));
  }

  void wrongRankCountIsExplained() {
    QTemporaryDir dir;
    const QString trace = copyTrace(dir.filePath(QStringLiteral("t")));
    AnalysisRunner runner;
    runner.start({localProfile(), trace, 3, {}, {}});
    QTRY_VERIFY_WITH_TIMEOUT(!runner.isActive(), 120000);
    QCOMPARE(runner.state(), AnalysisRunner::State::Failed);
    QCOMPARE(runner.failure().kind, FailureKind::WrongRankCount);
    QVERIFY2(runner.failure().message.contains(QStringLiteral("the trace has 2 MPI ranks")), qPrintable(runner.failure().message));
  }

  void missingAnalyzerIsExplained() {
    QTemporaryDir dir;
    ConnectionProfile p = localProfile();
    p.analyzerPath = dir.filePath(QStringLiteral("no/waitscope-analyze"));
    AnalysisRunner runner;
    runner.start({p, dir.filePath(QStringLiteral("traces.otf2")), 2, {}, {}});
    QTRY_VERIFY_WITH_TIMEOUT(!runner.isActive(), 30000);
    QCOMPARE(runner.failure().kind, FailureKind::AnalyzerNotFound);
    QVERIFY(runner.failure().message.contains(QStringLiteral("was not found")));
  }

  // A bare analyzer name that is nowhere: which was looked for where, and what to do; no
  // shell's "not found". The rank count says the same of waitscope-report.
  void missingLocalToolsAreExplained() {
    QTemporaryDir dir;
    ConnectionProfile p = localProfile();
    p.setupLines.clear();
    p.analyzerPath = QStringLiteral("waitscope-analyze-nowhere");
    AnalysisRunner runner;
    runner.start({p, dir.filePath(QStringLiteral("traces.otf2")), 2, {}, {}});
    QTRY_VERIFY_WITH_TIMEOUT(!runner.isActive(), 30000);
    QCOMPARE(runner.failure().kind, FailureKind::AnalyzerNotFound);
    const QString message = runner.failure().message;
    QVERIFY2(message.startsWith(QStringLiteral("waitscope-analyze-nowhere was not found in %1")
                                    .arg(QDir::cleanPath(QCoreApplication::applicationDirPath()))),
             qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("PATH")) && !message.contains(QStringLiteral("/bin/sh")), qPrintable(message));

    // An analyzer without waitscope-report beside it: the rank count cannot be read, and says why.
    const QString bin = dir.filePath(QStringLiteral("bin"));
    QVERIFY(QDir().mkpath(bin));
    QVERIFY(writeScript(bin + QStringLiteral("/waitscope-analyze"), QStringLiteral("#!/bin/sh\nexit 0\n")));
    p.analyzerPath = bin + QStringLiteral("/waitscope-analyze");
    QString error;
    bool done = false;
    traceRankCount(p, copyTrace(dir.filePath(QStringLiteral("t"))), this, [&](int ranks, const QString& e) {
      QCOMPARE(ranks, -1);
      error = e;
      done = true;
    });
    QTRY_VERIFY_WITH_TIMEOUT(done, 30000);
    QCOMPARE(error, QStringLiteral("Cannot read the trace's rank count: waitscope-report was not found at %1/waitscope-report "
                                   "(or is not executable); correct the analyzer's path in the profile (Profiles…).")
                        .arg(bin));
  }

  // A failed run is summed up by the analyzer's own line, not by mpiexec's boilerplate after it.
  void failedRunIsSummedUpByItsCause() {
    QTemporaryDir dir;
    const QString trace = dir.filePath(QStringLiteral("none/traces.otf2"));
    AnalysisRunner runner;
    runner.start({localProfile(), trace, 2, {}, {}});
    QTRY_VERIFY_WITH_TIMEOUT(!runner.isActive(), 120000);
    QCOMPARE(runner.state(), AnalysisRunner::State::Failed);
    QVERIFY2(runner.failure().message.startsWith(QStringLiteral("The analysis failed: waitscope-analyze: %1: ").arg(trace)),
             qPrintable(runner.failure().message));
  }

  void missingWorkingDirectoryIsExplained() {
    QTemporaryDir dir;
    AnalysisRunner runner;
    runner.start({localProfile(dir.filePath(QStringLiteral("nowhere"))), QStringLiteral("t.otf2"), 2, {}, {}});
    QTRY_VERIFY_WITH_TIMEOUT(!runner.isActive(), 30000);
    QCOMPARE(runner.failure().kind, FailureKind::WorkingDirectoryMissing);
  }

  // Cancel kills the job's whole process group: mpiexec and every analyzer rank.
  void cancelStopsTheProcessGroup() {
    QTemporaryDir dir;
    const QString pids = dir.filePath(QStringLiteral("pids"));
    ConnectionProfile p = localProfile();
    p.analyzerPath = writeSlowAnalyzer(dir.path(), pids);
    AnalysisRunner runner;
    QSignalSpy progress(&runner, &AnalysisRunner::progressChanged);
    runner.start({p, dir.filePath(QStringLiteral("traces.otf2")), 2, {}, {}});
    QTRY_VERIFY_WITH_TIMEOUT(progress.size() >= 2 && readPids(pids).size() == 2, 60000);
    const qint64 group = runner.processGroup();
    QVERIFY(group > 0);
    runner.cancel();
    QTRY_VERIFY_WITH_TIMEOUT(!runner.isActive(), 30000);
    QCOMPARE(runner.state(), AnalysisRunner::State::Cancelled);
    for (qint64 pid : readPids(pids)) QTRY_VERIFY_WITH_TIMEOUT(!processAlive(pid), 10000);
    QVERIFY(!processAlive(group));
  }

  // A rank killed from outside (the OOM killer, an administrator): said in plain words.
  void killedJobIsExplained() {
    QTemporaryDir dir;
    const QString pids = dir.filePath(QStringLiteral("pids"));
    ConnectionProfile p = localProfile();
    p.analyzerPath = writeSlowAnalyzer(dir.path(), pids);
    AnalysisRunner runner;
    runner.start({p, dir.filePath(QStringLiteral("traces.otf2")), 2, {}, {}});
    QTRY_VERIFY_WITH_TIMEOUT(readPids(pids).size() == 2, 60000);
    ::kill(static_cast<pid_t>(readPids(pids)[0]), SIGKILL);
    QTRY_VERIFY_WITH_TIMEOUT(!runner.isActive(), 60000);
    QCOMPARE(runner.state(), AnalysisRunner::State::Failed);
    QCOMPARE(runner.failure().kind, FailureKind::JobKilled);
    QVERIFY2(runner.failure().message.contains(QStringLiteral("killed (signal 9)")), qPrintable(runner.failure().message));
    for (qint64 pid : readPids(pids)) QTRY_VERIFY_WITH_TIMEOUT(!processAlive(pid), 15000);
  }

  // Every launcher and every placeholder with names made to break out of the
  // quoting: each program gets exactly the names, nothing they hold runs, and
  // the batch job script is gone when the job has ended.
  void craftedNamesThroughEveryLauncher() {
    QTemporaryDir dir;
    const QString work = dir.filePath(QStringLiteral("work"));
    QVERIFY(QDir().mkpath(work));
    const QString log = dir.filePath(QStringLiteral("arguments"));
    const QString recorders = writeArgumentRecorders(dir.path(), log);
    const QString slurmBin = writeFakeSlurm(dir.filePath(QStringLiteral("slurm")));
    const QString analyzer =
        recorders + QStringLiteral("/analyze {trace}{report} 'it''s' \"q\" $(touch PWNEDa) `touch PWNEDb`; x & y | z *");
    QVERIFY(writeScript(analyzer, QStringLiteral("#!/bin/sh\nexit 0\n")));
    for (const LauncherKind launcher : {LauncherKind::Mpiexec, LauncherKind::Srun, LauncherKind::Batch}) {
      const ConnectionProfile p = craftedLaunchProfile(localProfile(work), launcher, recorders, slurmBin, analyzer);
      for (const QString& name : craftedNames()) {
        checkCraftedLaunch(p, work, name, log, {dir.path()});
        if (QTest::currentTestFailed()) return;
      }
    }
  }

  // A job script that cannot be submitted is removed at once.
  void unsubmittedJobScriptIsRemoved() {
    QTemporaryDir dir;
    const QString bin = dir.filePath(QStringLiteral("bin"));
    QVERIFY(QDir().mkpath(bin));
    QVERIFY(writeScript(bin + QStringLiteral("/sbatch"), QStringLiteral("#!/bin/sh\necho 'sbatch: error: no partition' >&2\nexit 1\n")));
    ConnectionProfile p = localProfile(dir.path());
    p.launcher = LauncherKind::Batch;
    p.setupLines << QStringLiteral("PATH=%1:$PATH").arg(shellQuote(bin));
    AnalysisRunner runner;
    runner.start({p, QStringLiteral("t/traces.otf2"), 2, {}, {}});
    QTRY_VERIFY_WITH_TIMEOUT(!runner.isActive(), 30000);
    QCOMPARE(runner.state(), AnalysisRunner::State::Failed);
    QCOMPARE(QDir(dir.path()).entryList({QStringLiteral("waitscope-job-*.sh")}, QDir::Files), QStringList());
  }

  void traceRankCountAndListing() {
    QTemporaryDir dir;
    const QString trace = copyTrace(dir.filePath(QStringLiteral("t")));
    int ranks = 0;
    QString error;
    bool done = false;
    traceRankCount(localProfile(), trace, this, [&](int r, const QString& e) {
      ranks = r;
      error = e;
      done = true;
    });
    QTRY_VERIFY_WITH_TIMEOUT(done, 60000);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(ranks, 2);

    DirectoryListing listing;
    done = false;
    listDirectory(localProfile(), dir.filePath(QStringLiteral("t")), this, [&](const DirectoryListing& l) {
      listing = l;
      done = true;
    });
    QTRY_VERIFY_WITH_TIMEOUT(done, 30000);
    QVERIFY2(listing.error.isEmpty(), qPrintable(listing.error));
    QCOMPARE(listing.path, dir.filePath(QStringLiteral("t")));
    QVERIFY(listing.files.contains(QStringLiteral("traces.otf2")));
    QVERIFY(listing.directories.contains(QStringLiteral("traces")));
  }
};

QTEST_GUILESS_MAIN(LaunchLocalTest)
#include "launch_local_test.moc"
