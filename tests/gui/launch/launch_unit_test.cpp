// Unit tests of the launcher's pieces that need no MPI and no network: shell
// quoting (run through a real /bin/sh), scripts, batch templates, progress
// lines, failure messages (from real Open MPI and MPICH output), ssh arguments,
// ssh config aliases, profiles, the profile store, the profile list model (under
// QAbstractItemModelTester) and where a local profile finds the analyzer.
#include <QAbstractItemModelTester>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include "app/launch/analyzer_progress.h"
#include "app/launch/batch_template.h"
#include "app/launch/connection_profile.h"
#include "app/launch/launch_failure.h"
#include "app/launch/local_tools.h"
#include "app/launch/profile_list_model.h"
#include "app/launch/profile_store.h"
#include "app/launch/remote_browsing.h"
#include "app/launch/remote_origin.h"
#include "app/launch/remote_scripts.h"
#include "app/launch/shell_command.h"
#include "app/launch/shell_quote.h"
#include "app/launch/ssh_config_aliases.h"
#include "tests/gui/launch/launch_test_support.h"

using namespace waitscope::launch;

namespace {

// Runs `script` with /bin/sh in `dir`; returns stdout.
QByteArray runShell(const QString& script, const QString& dir) {
  QProcess p;
  p.setWorkingDirectory(dir);
  p.start(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), script});
  p.waitForFinished(10000);
  return p.readAllStandardOutput();
}

const QStringList kNastyNames = {
    QStringLiteral("plain.otf2"),
    QStringLiteral("with space/traces.otf2"),
    QStringLiteral("it's"),
    QStringLiteral("x'; touch pwned1; echo '"),
    QStringLiteral("$(touch pwned2)"),
    QStringLiteral("`touch pwned3`"),
    QStringLiteral("a\"b\"c ; touch pwned4"),
    QStringLiteral("line\ntouch pwned5"),
    QStringLiteral("back\\slash $HOME *"),
    QStringLiteral("-n"),
    QString(),
    QStringLiteral("'"),
    QStringLiteral("''\\''"),
    QStringLiteral("ünïcødé ✓"),
};

}  // namespace

class LaunchUnitTest : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

  void shellQuoteIsOneLiteralWord() {
    QTemporaryDir dir;
    for (const QString& name : kNastyNames) {
      const QByteArray out = runShell(QStringLiteral("printf '%s|' ") + shellQuote(name), dir.path());
      QCOMPARE(QString::fromUtf8(out), name + QLatin1Char('|'));
    }
    QVERIFY2(QDir(dir.path()).entryList(QDir::Files).isEmpty(), "a crafted name ran a command");
  }

  void shellQuoteKeepsPlainWordsReadable() {
    QCOMPARE(shellQuote(QStringLiteral("/opt/waitscope/bin/waitscope-analyze")), QStringLiteral("/opt/waitscope/bin/waitscope-analyze"));
    QCOMPARE(shellQuote(QStringLiteral("a b")), QStringLiteral("'a b'"));
    QCOMPARE(shellQuote(QString()), QStringLiteral("''"));
  }

  void shellQuotePathExpandsOnlyTheLeadingTilde() {
    QTemporaryDir dir;
    const QString home = QDir::homePath();
    QCOMPARE(QString::fromUtf8(runShell(QStringLiteral("printf %s ") + shellQuotePath(QStringLiteral("~/x y")), dir.path())),
             home + QStringLiteral("/x y"));
    QCOMPARE(QString::fromUtf8(runShell(QStringLiteral("printf %s ") + shellQuotePath(QStringLiteral("a/~/b")), dir.path())),
             QStringLiteral("a/~/b"));
    QCOMPARE(QString::fromUtf8(runShell(QStringLiteral("printf %s ") + shellQuotePath(QStringLiteral("~/$(touch pwned)")), dir.path())),
             home + QStringLiteral("/$(touch pwned)"));
    QVERIFY(QDir(dir.path()).entryList(QDir::Files).isEmpty());
  }

  // The whole run script (not just one word) keeps crafted names literal: the
  // "launcher" here is a stand-in that prints its arguments.
  void runScriptPassesCraftedNamesAsArguments() {
    QTemporaryDir dir;
    const QString bin = dir.filePath(QStringLiteral("bin"));
    QDir().mkpath(bin);
    QFile f(bin + QStringLiteral("/mpiexec"));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("#!/bin/sh\nfor a in \"$@\"; do printf '%s|' \"$a\"; done\n");
    f.close();
    f.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    ConnectionProfile p;
    p.workingDirectory = dir.path();
    p.setupLines = {QStringLiteral("PATH=%1:$PATH").arg(shellQuote(bin))};
    p.analyzerPath = QStringLiteral("/bin/true");
    for (const QString& name : kNastyNames) {
      if (name.isEmpty() || name == QLatin1String("-n")) continue;
      AnalysisJob job{name, name + QStringLiteral(".waitscope"), 3, {}, {}};
      const QString out = QString::fromUtf8(runShell(runScript(p, job), dir.path()));
      QCOMPARE(out, QStringLiteral("-n|3|/bin/true|%1|-o|%1.waitscope|").arg(name));
    }
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList());
  }

  void batchTemplateFillsAndQuotes() {
    ConnectionProfile p;
    p.launcher = LauncherKind::Batch;
    p.partition = QStringLiteral("short");
    p.account.clear();  // its line is dropped
    p.timeLimit = QStringLiteral("00:10:00");
    p.nodes = 2;
    p.analyzerPath = QStringLiteral("/opt/ws/bin/waitscope-analyze");
    const AnalysisJob job{QStringLiteral("my trace/traces.otf2"), QStringLiteral("out'put.waitscope"), 8, QStringLiteral("log"), {}};
    const QString script = batchScript(p, job);
    QVERIFY(script.contains(QStringLiteral("#SBATCH --ntasks=8")));
    QVERIFY(script.contains(QStringLiteral("#SBATCH --nodes=2")));
    QVERIFY(script.contains(QStringLiteral("#SBATCH --partition=short")));
    QVERIFY(script.contains(QStringLiteral("#SBATCH --time=00:10:00")));
    QVERIFY(!script.contains(QStringLiteral("--account")));
    // Each name is quoted once, in its variable; the command line refers to the variables.
    QVERIFY(script.contains(QStringLiteral("\nWAITSCOPE_TRACE='my trace/traces.otf2'\n")));
    QVERIFY(script.contains(QStringLiteral("\nWAITSCOPE_REPORT='out'\\''put.waitscope'\n")));
    QVERIFY(script.contains(QStringLiteral("\nWAITSCOPE_ANALYZER=/opt/ws/bin/waitscope-analyze\n")));
    QVERIFY(script.contains(
        QStringLiteral("\nsrun -n 8 \"${WAITSCOPE_ANALYZER}\" \"${WAITSCOPE_TRACE}\" -o \"${WAITSCOPE_REPORT}\"\n")));
    // The variables come after the #SBATCH lines (Slurm stops reading them at the first command).
    QVERIFY(script.indexOf(QStringLiteral("WAITSCOPE_TRACE=")) > script.lastIndexOf(QStringLiteral("#SBATCH")));
    // A value that could break out of an #SBATCH line is dropped, not pasted.
    p.partition = QStringLiteral("x\nrm -rf ~");
    QVERIFY(!batchScript(p, job).contains(QStringLiteral("rm -rf")));
  }

  // One pass: a placeholder inside a value is never filled in, the values of
  // #SBATCH lines are plain words or the line goes, and the job script run by
  // bash hands the programs exactly the names whatever they hold.
  void batchTemplateIsFilledInOnePass() {
    QTemporaryDir dir;
    const QString log = dir.filePath(QStringLiteral("arguments"));
    const QString bin = launchtest::writeArgumentRecorders(dir.path(), log);
    ConnectionProfile p = launchtest::craftedLaunchProfile(ConnectionProfile(), LauncherKind::Batch, bin, bin,
                                                           QStringLiteral("/opt/ws {trace}/waitscope-analyze"));
    for (const QString& name : launchtest::craftedNames()) {
      const AnalysisJob job{name + QStringLiteral("/traces.otf2"), name + QStringLiteral(".waitscope"), 2, {}, {}};
      const QString script = batchScript(p, job);
      // A name that is not a plain word never reaches an #SBATCH line (Slurm, not a shell, reads those).
      const bool plain = QRegularExpression(QStringLiteral("^[A-Za-z0-9_./:=@%+,~-]+$")).match(name).hasMatch();
      QCOMPARE(script.contains(QStringLiteral("#SBATCH --job-name=")), plain);
      QCOMPARE(script.contains(QStringLiteral("#SBATCH --comment=")), plain);
      QFile::remove(log);
      QProcess bash;
      bash.setWorkingDirectory(dir.path());
      bash.setEnvironment(QProcess::systemEnvironment() << QStringLiteral("PATH=%1:/usr/bin:/bin").arg(bin));
      bash.start(QStringLiteral("/bin/bash"), {QStringLiteral("-c"), script});
      QVERIFY(bash.waitForFinished(10000));
      const QString t = launchtest::asArgument(job.trace), r = launchtest::asArgument(job.report);
      const QList<QStringList> records = launchtest::readArgumentRecords(log);
      QVERIFY2(records.size() >= 5, qPrintable(name));
      QCOMPARE(records[0], (QStringList{"printargs", "2", "1", "00:05:00", "acct", "part", t, r, p.analyzerPath}));
      QCOMPARE(records[1], (QStringList{"printargs", t, "in " + r + " quotes", "x" + p.analyzerPath + "y"}));
      QCOMPARE(records[2], (QStringList{"printargs", t, r}));
      QCOMPARE(records[3], (QStringList{"printargs", t}));
      QCOMPARE(records.last(), (QStringList{"srun", "-n", "2", p.analyzerPath, t, "-o", r}));
    }
    QCOMPARE(launchtest::pwnedFiles({dir.path()}), QStringList());

    // Restricted values: only words of a safe alphabet, or the line goes.
    p.account = QStringLiteral("{trace}");
    p.partition = QStringLiteral("p;touch PWNED");
    p.timeLimit = QStringLiteral("$(touch PWNED)");
    p.batchTemplate = QStringLiteral("#!/bin/bash\n#SBATCH --account={account}\n#SBATCH --partition={partition}\n"
                                     "#SBATCH --time={time}\nsrun {trace}\n");
    const QString script = batchScript(p, AnalysisJob{QStringLiteral("t.otf2"), QStringLiteral("r"), 2, {}, {}});
    QVERIFY2(!script.contains(QStringLiteral("--account")) && !script.contains(QStringLiteral("--partition")) &&
                 !script.contains(QStringLiteral("--time")) && !script.contains(QStringLiteral("PWNED")),
             qPrintable(script));
    QVERIFY(script.contains(QStringLiteral("srun \"${WAITSCOPE_TRACE}\"")));
  }

  void batchTemplateContexts() {
    using Kind = BatchTemplateValue::Kind;
    const QList<BatchTemplateValue> values{{QStringLiteral("trace"), QStringLiteral("a b"), Kind::Path},
                                           {QStringLiteral("ranks"), QStringLiteral("4"), Kind::Word}};
    const auto fill = [&](const QString& text) { return fillBatchTemplate(text, values); };
    QCOMPARE(fill(QStringLiteral("x {trace}")), QStringLiteral("WAITSCOPE_TRACE='a b'\nexport WAITSCOPE_TRACE\nx \"${WAITSCOPE_TRACE}\""));
    QVERIFY(fill(QStringLiteral("x \"in {trace}\"")).endsWith(QStringLiteral("x \"in ${WAITSCOPE_TRACE}\"")));
    QVERIFY(fill(QStringLiteral("sh -c 'x {trace}'")).endsWith(QStringLiteral("sh -c 'x \"${WAITSCOPE_TRACE}\"'")));
    QVERIFY(fill(QStringLiteral("x $(y {trace})")).endsWith(QStringLiteral("x $(y \"${WAITSCOPE_TRACE}\")")));
    QVERIFY(fill(QStringLiteral("x \"$(y {trace})\"")).endsWith(QStringLiteral("x \"$(y \"${WAITSCOPE_TRACE}\")\"")));
    QVERIFY(fill(QStringLiteral("cat <<E\n{trace}\nE\nx {trace}"))
                .endsWith(QStringLiteral("cat <<E\n${WAITSCOPE_TRACE}\nE\nx \"${WAITSCOPE_TRACE}\"")));
    QVERIFY(fill(QStringLiteral("x \\{trace}")).endsWith(QStringLiteral("x \\\"${WAITSCOPE_TRACE}\"")));
    // Comment lines take plain words only; numbers go anywhere.
    QCOMPARE(fill(QStringLiteral("#SBATCH -J {trace}\n#SBATCH -n {ranks}\nrun")),
             QStringLiteral("#SBATCH -n 4\nWAITSCOPE_TRACE='a b'\nexport WAITSCOPE_TRACE\nrun"));
    // Unknown braces stay as they are.
    QVERIFY(fill(QStringLiteral("echo {x} ${HOME}")).endsWith(QStringLiteral("echo {x} ${HOME}")));
  }

  // The file beside a copied-back report names a profile and its host, and holds nothing that runs.
  void remoteOriginNamesAProfileOnly() {
    QTemporaryDir dir;
    const QString report = dir.filePath(QStringLiteral("r.waitscope"));
    ConnectionProfile p;
    p.name = QStringLiteral("Cluster");
    p.kind = ConnectionKind::Ssh;
    p.host = QStringLiteral("login.example.org");
    p.user = QStringLiteral("me");
    p.port = 2222;
    p.identityFile = QStringLiteral("~/.ssh/id");
    p.setupLines = {QStringLiteral("module load otf2")};
    p.analyzerPath = QStringLiteral("/opt/ws/bin/waitscope-analyze");
    QCOMPARE(writeRemoteOrigin(report, originOf(p, QStringLiteral("run/traces.otf2"), QStringLiteral("run.waitscope"))),
             QString());
    QFile file(remoteOriginPath(report));
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonObject o = QJsonDocument::fromJson(file.readAll()).object();
    QCOMPARE(o.keys(), (QStringList{"format", "host", "port", "profile", "report", "trace", "version"}));
    const std::optional<RemoteOrigin> read = readRemoteOrigin(report);
    QVERIFY(read);
    QCOMPARE(read->profileName, QStringLiteral("Cluster"));
    QCOMPARE(read->host, QStringLiteral("login.example.org"));
    QCOMPARE(read->port, 2222);

    // Resolved against the user's profiles: by name, and only where the file says.
    ConnectionProfile local;
    local.name = QStringLiteral("This computer");
    QCOMPARE(resolveRemoteOrigin(*read, {local, p}).match, ResolvedOrigin::Match::Known);
    QCOMPARE(resolveRemoteOrigin(*read, {local}).match, ResolvedOrigin::Match::UnknownProfile);
    ConnectionProfile moved = p;
    moved.host = QStringLiteral("elsewhere.example.org");
    QCOMPARE(resolveRemoteOrigin(*read, {moved}).match, ResolvedOrigin::Match::HostDiffers);
    moved = p;
    moved.port = 22;
    QCOMPARE(resolveRemoteOrigin(*read, {moved}).match, ResolvedOrigin::Match::HostDiffers);
    moved = p;
    moved.setupLines = {QStringLiteral("module load other")};  // the user's own settings are the user's to change
    QCOMPARE(resolveRemoteOrigin(*read, {moved}).match, ResolvedOrigin::Match::Known);
    QCOMPARE(resolveRemoteOrigin(*read, {moved}).profile.setupLines, moved.setupLines);

    // A file in the old format (a whole profile) gives its name, host and port and nothing else.
    QFile old(remoteOriginPath(report));
    QVERIFY(old.open(QIODevice::WriteOnly | QIODevice::Truncate));
    old.write(R"({"format":"waitscope-remote-origin","version":1,"trace":"t","report":"r",
                  "profile":{"name":"evil","kind":"local","host":"ignored","setupLines":["touch PWNED"]}})");
    old.close();
    const std::optional<RemoteOrigin> v1 = readRemoteOrigin(report);
    QVERIFY(v1);
    QCOMPARE(v1->profileName, QStringLiteral("evil"));
    QCOMPARE(v1->host, QString());  // a local profile records no host
    QCOMPARE(recordedDestination(*v1), QStringLiteral("this computer"));
  }

  void progressLines() {
    const auto read = parseProgressLine(QStringLiteral("progress read 0"));
    QVERIFY(read);
    QCOMPARE(read->phase, QStringLiteral("read"));
    QCOMPARE(read->overall, 0);
    const auto replay = parseProgressLine(QStringLiteral("progress replay 50"));
    QVERIFY(replay);
    QCOMPARE(replay->percent, 50);
    QVERIFY(replay->overall > 25 && replay->overall < 70);
    QCOMPARE(parseProgressLine(QStringLiteral("progress write 100"))->overall, 100);
    QVERIFY(!parseProgressLine(QStringLiteral("waitscope-analyze: wrote x")));
    QVERIFY(!parseProgressLine(QStringLiteral("progress read")));
    QCOMPARE(phaseTitle(QStringLiteral("causes")), QStringLiteral("Finding root causes"));
  }

  void sshFailureMessages() {
    ConnectionProfile p;
    p.kind = ConnectionKind::Ssh;
    p.host = QStringLiteral("cluster");
    p.user = QStringLiteral("me");
    QCOMPARE(sshFailure(p, "me@cluster: Permission denied (publickey).", false).kind, FailureKind::AuthenticationRefused);
    QCOMPARE(sshFailure(p, "ssh: connect to host cluster port 22: Connection refused", false).kind, FailureKind::Unreachable);
    QCOMPARE(sshFailure(p, "ssh: Could not resolve hostname cluster: Name or service not known", false).kind, FailureKind::Unreachable);
    QCOMPARE(sshFailure(p, "ssh: connect to host cluster port 22: Connection timed out", false).kind, FailureKind::Unreachable);
    QCOMPARE(sshFailure(p, "Connection to cluster closed by remote host.", true).kind, FailureKind::ConnectionDropped);
    QCOMPARE(sshFailure(p, "Host key verification failed.", false).kind, FailureKind::HostKeyMismatch);
    QVERIFY(!sshFailure(p, "Permission denied (publickey).", false).message.contains(QLatin1Char('\n')));
  }

  void analysisFailureMessages() {
    ConnectionProfile p;
    p.analyzerPath = QStringLiteral("/x/waitscope-analyze");
    QCOMPARE(analysisFailure(p, 0, "progress read 0\nwaitscope-analyze: wrote r\n").kind, FailureKind::None);
    const Failure ranks = analysisFailure(
        p, 1,
        "waitscope-analyze: t.otf2: the trace has 2 MPI ranks but waitscope-analyze runs on 3 processes; run it with "
        "mpiexec -n M for an M from 1 to 2\n");
    QCOMPARE(ranks.kind, FailureKind::WrongRankCount);
    QVERIFY(ranks.message.contains(QStringLiteral("2 MPI ranks")));
    QVERIFY(ranks.message.contains(QStringLiteral("at most 2")));
    QCOMPARE(analysisFailure(p, 127, "waitscope-launch: missing-analyzer\n").kind, FailureKind::AnalyzerNotFound);
    QCOMPARE(analysisFailure(p, 127, "waitscope-launch: missing-launcher srun\n").kind, FailureKind::LauncherNotFound);
    QCOMPARE(analysisFailure(p, 120, "waitscope-launch: missing-workdir\n").kind, FailureKind::WorkingDirectoryMissing);
    QCOMPARE(analysisFailure(p, 137, "").kind, FailureKind::JobKilled);
    QCOMPARE(analysisFailure(p, -1, "").kind, FailureKind::JobKilled);
    QCOMPARE(analysisFailure(p, 1, "mpiexec noticed that process rank 1 with PID 7 on node n exited on signal 9 (Killed).").kind,
             FailureKind::JobKilled);
    QCOMPARE(analysisFailure(p, 1, "waitscope-analyze: t.otf2: broken\n").message, QStringLiteral("The analysis failed: waitscope-analyze: t.otf2: broken"));
    QCOMPARE(batchFailure(QStringLiteral("COMPLETED|0:0"), {}).kind, FailureKind::None);
    QCOMPARE(batchFailure(QStringLiteral("TIMEOUT|0:0"), {}).kind, FailureKind::JobTimedOut);
    QCOMPARE(batchFailure(QStringLiteral("CANCELLED by 1000|0:15"), {}).kind, FailureKind::JobKilled);
    QCOMPARE(batchFailure(QStringLiteral("OUT_OF_MEMORY|0:125"), {}).kind, FailureKind::JobKilled);
    QCOMPARE(batchFailure(QStringLiteral("FAILED|1:0"), "the trace has 4 MPI ranks but waitscope-analyze runs on 8 processes").kind,
             FailureKind::WrongRankCount);
  }

  // The one line that says what went wrong, from what Open MPI and MPICH really print
  // (launcher_failures/README.md): before their boilerplate, the analyzer's own line first.
  void failureCauseOfRealLauncherOutput() {
    const auto text = [](const char* name) {
      QFile file(QStringLiteral(WAITSCOPE_LAUNCHER_FAILURES_DIR "/") + QLatin1String(name));
      if (!file.open(QIODevice::ReadOnly)) qFatal("cannot read %s", name);
      return QString::fromUtf8(file.readAll());
    };
    const QString analyzerLine = QStringLiteral(
        "waitscope-analyze: /tmp/missing/traces.otf2: no such file; give the anchor file (traces.otf2) of an OTF2 archive");
    QCOMPARE(failureCause(text("ompi-analyzer.txt")), analyzerLine);
    QCOMPARE(failureCause(text("mpich-analyzer.txt")), analyzerLine);
    QCOMPARE(failureCause(text("ompi-root.txt")), QStringLiteral("mpiexec has detected an attempt to run as root."));
    QCOMPARE(failureCause(text("ompi-slots.txt")),
             QStringLiteral("There are not enough slots available in the system to satisfy the 64 slots that were requested "
                            "by the application: /work/main/build/analysis/tools/waitscope-analyze"));
    QCOMPARE(failureCause(text("ompi-noexe.txt")),
             QStringLiteral("mpiexec was unable to launch the specified application as it could not access or execute an "
                            "executable: Executable: /no/such/waitscope-analyze"));
    QCOMPARE(failureCause(text("ompi-badopt.txt")), QStringLiteral("mpiexec: Error: unknown option \"--bogus-option\""));
    QCOMPARE(failureCause(text("mpich-noexe.txt")),
             QStringLiteral("execvp error on file /no/such/waitscope-analyze (No such file or directory)"));
    QCOMPARE(failureCause(text("mpich-badopt.txt")), QStringLiteral("unrecognized argument bogus-option"));
    QCOMPARE(failureCause(text("mpich-killed.txt")),
             QStringLiteral("YOUR APPLICATION TERMINATED WITH THE EXIT STRING: Killed (signal 9)"));
    QCOMPARE(failureCause({}), QString());

    // The messages built on them, with the launchers' exit codes.
    ConnectionProfile p;
    p.analyzerPath = QStringLiteral("waitscope-analyze");
    QCOMPARE(analysisFailure(p, 1, text("ompi-analyzer.txt")).message, QStringLiteral("The analysis failed: ") + analyzerLine);
    QCOMPARE(analysisFailure(p, 1, text("ompi-root.txt")).message,
             QStringLiteral("The analysis failed: mpiexec has detected an attempt to run as root."));
    const Failure slotShortage = analysisFailure(p, 1, text("ompi-slots.txt"));
    QCOMPARE(slotShortage.kind, FailureKind::WrongRankCount);
    QVERIFY2(slotShortage.message.contains(QStringLiteral("not enough slots for 64 ranks")) &&
                 slotShortage.message.contains(QStringLiteral("--oversubscribe")),
             qPrintable(slotShortage.message));
    QCOMPARE(analysisFailure(p, 132, text("ompi-noexe.txt")).kind, FailureKind::AnalyzerNotFound);
    QCOMPARE(analysisFailure(p, 255, text("mpich-noexe.txt")).kind, FailureKind::AnalyzerNotFound);
    const Failure killed = analysisFailure(p, 9, text("mpich-killed.txt"));
    QCOMPARE(killed.kind, FailureKind::JobKilled);
    QVERIFY2(killed.message.contains(QStringLiteral("signal 9")), qPrintable(killed.message));
  }

  // A local profile's analyzer: beside the app, else in the build tree (build/app beside
  // build/analysis/tools), else on PATH; when missing, one line naming the places.
  void localToolsBesideTheAppFirst() {
    QTemporaryDir dir;
    const QString app = dir.filePath(QStringLiteral("build/app"));
    const QString tools = dir.filePath(QStringLiteral("build/analysis/tools"));
    QVERIFY(QDir().mkpath(app) && QDir().mkpath(tools));
    const QStringList dirs = localToolDirectories(app);
    QCOMPARE(dirs.mid(0, 2), (QStringList{app, tools}));
    QVERIFY(launchtest::writeScript(tools + QStringLiteral("/waitscope-analyze"), QStringLiteral("#!/bin/sh\nexit 0\n")));
    QCOMPARE(findLocalTool(QStringLiteral("waitscope-analyze"), dirs).path, tools + QStringLiteral("/waitscope-analyze"));
    QString error;
    ConnectionProfile local;  // analyzerPath "waitscope-analyze", as a fresh installation's "This computer"
    const ConnectionProfile resolved = withLocalTools(local, &error, dirs);
    QCOMPARE(error, QString());
    QCOMPARE(resolved.analyzerPath, tools + QStringLiteral("/waitscope-analyze"));
    QCOMPARE(resolved.reportToolPath(), tools + QStringLiteral("/waitscope-report"));
    // An installation: beside the app, before the build tree.
    QVERIFY(launchtest::writeScript(app + QStringLiteral("/waitscope-analyze"), QStringLiteral("#!/bin/sh\nexit 0\n")));
    QCOMPARE(findLocalTool(QStringLiteral("waitscope-analyze"), dirs).path, app + QStringLiteral("/waitscope-analyze"));

    const LocalTool missing = findLocalTool(QStringLiteral("waitscope-nothing-here"), dirs);
    QVERIFY(!missing);
    QCOMPARE(missing.searched, dirs + QStringList{QStringLiteral("PATH")});
    const QString message = localToolMissing(missing, QStringLiteral("waitscope-nothing-here"));
    QVERIFY2(message.startsWith(QStringLiteral("waitscope-nothing-here was not found in %1, %2").arg(app, tools)), qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("PATH")) && message.contains(QStringLiteral("set the analyzer's path in the profile")),
             qPrintable(message));
    QVERIFY(!message.contains(QLatin1Char('\n')));
    local.analyzerPath = QStringLiteral("waitscope-nothing-here");
    withLocalTools(local, &error, dirs);
    QCOMPARE(error, message);
    // A path is taken as it is.
    local.analyzerPath = dir.filePath(QStringLiteral("no/waitscope-analyze"));
    error.clear();
    withLocalTools(local, &error, dirs);
    QVERIFY2(error.startsWith(QStringLiteral("waitscope-analyze was not found at %1").arg(local.analyzerPath)), qPrintable(error));
  }

  void sshArguments() {
    launchSettings() = LaunchSettings();
    ConnectionProfile p;
    p.kind = ConnectionKind::Ssh;
    p.host = QStringLiteral("cluster");
    p.user = QStringLiteral("me");
    p.port = 2222;
    p.jumpHosts = {QStringLiteral("gate1"), QStringLiteral("me@gate2:22")};
    p.identityFile = QStringLiteral("/keys/id");
    p.reuseConnection = true;
    p.controlPersistSeconds = 300;
    const ShellCommand c = shellCommand(p, QStringLiteral("echo hi"));
    QCOMPARE(c.program, QStringLiteral("ssh"));
    const QStringList& a = c.arguments;
    QVERIFY(a.contains(QStringLiteral("BatchMode=yes")));
    QCOMPARE(a[a.indexOf(QStringLiteral("-l")) + 1], QStringLiteral("me"));
    QCOMPARE(a[a.indexOf(QStringLiteral("-p")) + 1], QStringLiteral("2222"));
    QCOMPARE(a[a.indexOf(QStringLiteral("-J")) + 1], QStringLiteral("gate1,me@gate2:22"));
    QCOMPARE(a[a.indexOf(QStringLiteral("-i")) + 1], QStringLiteral("/keys/id"));
    QVERIFY(a.contains(QStringLiteral("ControlMaster=auto")));
    QVERIFY(a.contains(QStringLiteral("ControlPersist=300")));
    QCOMPARE(a.mid(a.size() - 3), (QStringList{"--", "cluster", "echo hi"}));
    p.reuseConnection = false;
    QVERIFY(!shellCommand(p, {}).arguments.contains(QStringLiteral("ControlMaster=auto")));
    const ShellCommand local = shellCommand(ConnectionProfile(), QStringLiteral("echo hi"));
    QCOMPARE(local.program, QStringLiteral("/bin/sh"));
    QCOMPARE(local.arguments, (QStringList{"-c", "echo hi"}));
    p.host = QStringLiteral("-oProxyCommand=evil");
    QVERIFY(!profileProblem(p).isEmpty());
  }

  void sshConfigAliases() {
    QTemporaryDir dir;
    QFile main(dir.filePath(QStringLiteral("config")));
    QVERIFY(main.open(QIODevice::WriteOnly));
    main.write(QStringLiteral("# comment\nHost cluster login2\n  HostName login.example.org\nHost *.example.org !bad\n"
                              "Host=\"quoted alias\"\nInclude %1/conf.d/*\nhost lower\n")
                   .arg(dir.path())
                   .toUtf8());
    main.close();
    QDir().mkpath(dir.filePath(QStringLiteral("conf.d")));
    QFile inc(dir.filePath(QStringLiteral("conf.d/extra")));
    QVERIFY(inc.open(QIODevice::WriteOnly));
    inc.write("Host included\n  User x\nHost cluster\n");
    inc.close();
    QCOMPARE(waitscope::launch::sshConfigAliases(main.fileName()),
             (QStringList{"cluster", "login2", "quoted alias", "included", "lower"}));
    QVERIFY(waitscope::launch::sshConfigAliases(dir.filePath(QStringLiteral("missing"))).isEmpty());
  }

  void profileJsonRoundTrip() {
    ConnectionProfile p;
    p.name = QStringLiteral("Cluster");
    p.kind = ConnectionKind::Ssh;
    p.host = QStringLiteral("login");
    p.user = QStringLiteral("me");
    p.port = 22;
    p.jumpHosts = {QStringLiteral("gate")};
    p.identityFile = QStringLiteral("~/.ssh/id");
    p.reuseConnection = false;
    p.controlPersistSeconds = 60;
    p.workingDirectory = QStringLiteral("~/ws");
    p.setupLines = {QStringLiteral("module load openmpi otf2")};
    p.launcher = LauncherKind::Batch;
    p.mpiexecOptions = QStringLiteral("--bind-to none");
    p.batchTemplate = QStringLiteral("#!/bin/bash\nsrun {analyzer}");
    p.account = QStringLiteral("proj");
    p.partition = QStringLiteral("short");
    p.timeLimit = QStringLiteral("01:00:00");
    p.nodes = 3;
    p.analyzerPath = QStringLiteral("/opt/ws/bin/waitscope-analyze");
    p.analysisProcesses = 8;
    QCOMPARE(ConnectionProfile::fromJson(p.toJson()), p);
    QCOMPARE(p.reportToolPath(), QStringLiteral("/opt/ws/bin/waitscope-report"));
  }

  // Analysis processes: one per core here, one per rank on a cluster, or the profile's number;
  // never more than the trace's ranks, never none.
  void analysisProcessesPerProfile() {
    ConnectionProfile local;
    QCOMPARE(analysisProcessesFor(local, 256, 8), 8);
    QCOMPARE(analysisProcessesFor(local, 4, 8), 4);
    QCOMPARE(analysisProcessesFor(local, 4, 0), 1);
    ConnectionProfile cluster;
    cluster.kind = ConnectionKind::Ssh;
    QCOMPARE(analysisProcessesFor(cluster, 256, 8), 256);
    cluster.analysisProcesses = 64;
    QCOMPARE(analysisProcessesFor(cluster, 256, 8), 64);
    QCOMPARE(analysisProcessesFor(cluster, 16, 8), 16);
    local.analysisProcesses = 3;
    QCOMPARE(analysisProcessesFor(local, 256, 8), 3);
  }

  void storeSavesLoadsImportsExportsWithoutSecrets() {
    QTemporaryDir dir;
    const ProfileStore store(dir.filePath(QStringLiteral("sub/profiles.json")));
    QCOMPARE(store.load().size(), 1);  // a fresh installation: "This computer"
    ConnectionProfile a;
    a.name = QStringLiteral("A");
    ConnectionProfile b;
    b.name = QStringLiteral("B");
    b.kind = ConnectionKind::Ssh;
    b.host = QStringLiteral("h");
    QVERIFY(store.save({a, b}));
    QCOMPARE(store.load(), (QList<ConnectionProfile>{a, b}));

    // A shared file with a password key: the key is dropped on import and never written back.
    QFile shared(dir.filePath(QStringLiteral("shared.json")));
    QVERIFY(shared.open(QIODevice::WriteOnly));
    shared.write(R"({"format":"waitscope-connection-profiles","version":1,"profiles":[{"name":"B","kind":"ssh","host":"x","password":"hunter2"}]})");
    shared.close();
    QString error;
    const QList<ConnectionProfile> imported = ProfileStore::importProfiles(shared.fileName(), &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(imported.size(), 1);
    QCOMPARE(imported[0].host, QStringLiteral("x"));
    const QString exported = dir.filePath(QStringLiteral("export.json"));
    QVERIFY(ProfileStore::exportProfiles(imported, exported));
    QFile check(exported);
    QVERIFY(check.open(QIODevice::ReadOnly));
    const QByteArray text = check.readAll();
    QVERIFY(!text.contains("hunter2"));
    QVERIFY(!text.toLower().contains("password"));
    QVERIFY(!text.toLower().contains("passphrase"));

    QVERIFY(ProfileStore::importProfiles(dir.filePath(QStringLiteral("missing.json")), &error).isEmpty());
    QVERIFY(!error.isEmpty());
    QFile bad(dir.filePath(QStringLiteral("bad.json")));
    QVERIFY(bad.open(QIODevice::WriteOnly));
    bad.write("{\"something\": 1}");
    bad.close();
    error.clear();
    QVERIFY(ProfileStore::importProfiles(bad.fileName(), &error).isEmpty());
    QVERIFY(error.contains(QStringLiteral("not a Waitscope connection profile file")));
    QVERIFY(ProfileStore::defaultFilePath().endsWith(QStringLiteral("/connection-profiles.json")));
  }

  void modelOperations() {
    ProfileListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    ConnectionProfile p;
    p.name = QStringLiteral("one");
    model.setProfiles({p});
    QCOMPARE(model.rowCount(), 1);
    QCOMPARE(model.addProfile(p), 1);
    QCOMPARE(model.profile(1).name, QStringLiteral("one (2)"));
    QCOMPARE(model.duplicateProfile(0), 1);
    QCOMPARE(model.profile(1).name, QStringLiteral("one copy"));
    QCOMPARE(model.rowCount(), 3);
    QVERIFY(!model.renameProfile(1, QStringLiteral("one")));  // taken
    QVERIFY(!model.renameProfile(1, QStringLiteral("  ")));
    QVERIFY(model.setData(model.index(1), QStringLiteral("two"), Qt::EditRole));
    QCOMPARE(model.data(model.index(1), Qt::DisplayRole).toString(), QStringLiteral("two"));
    QVERIFY(model.moveProfile(0, +1));
    QCOMPARE(model.profile(0).name, QStringLiteral("two"));
    QCOMPARE(model.profile(1).name, QStringLiteral("one"));
    QVERIFY(model.moveProfile(2, -1));
    QCOMPARE(model.profile(1).name, QStringLiteral("one (2)"));
    QVERIFY(!model.moveProfile(0, -1));
    QVERIFY(!model.moveProfile(2, +1));
    QVERIFY(model.removeRows(0, 1));
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.rowOfName(QStringLiteral("one")), 1);
    ConnectionProfile renamed = model.profile(0);
    renamed.name = QStringLiteral("one");  // taken by row 1: made unique
    model.setProfile(0, renamed);
    QCOMPARE(model.profile(0).name, QStringLiteral("one (2)"));
  }

  void listingAndStatsParsing() {
    const DirectoryListing l = parseListing("/home/me\n./\n../\nrun1/\ntraces.otf2\ntraces.def\nname with space/\n");
    QCOMPARE(l.path, QStringLiteral("/home/me"));
    QCOMPARE(l.directories, (QStringList{"run1", "name with space"}));
    QCOMPARE(l.files, (QStringList{"traces.otf2", "traces.def"}));
    QCOMPARE(parseStatsLocations("module banner\n{\"locations\": 16, \"events\": {}}"), 16);
    QCOMPARE(parseStatsLocations("garbage"), -1);
  }
};

QTEST_GUILESS_MAIN(LaunchUnitTest)
#include "launch_unit_test.moc"
