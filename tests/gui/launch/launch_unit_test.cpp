// Unit tests of the launcher's pieces that need no MPI and no network: shell
// quoting (run through a real /bin/sh), scripts, batch templates, progress
// lines, failure messages, ssh arguments, ssh config aliases, profiles, the
// profile store and the profile list model (under QAbstractItemModelTester).
#include <QAbstractItemModelTester>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include "analyzer_progress.h"
#include "connection_profile.h"
#include "launch_failure.h"
#include "profile_list_model.h"
#include "profile_store.h"
#include "remote_browsing.h"
#include "remote_scripts.h"
#include "shell_command.h"
#include "shell_quote.h"
#include "ssh_config_aliases.h"

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
      AnalysisJob job{name, name + QStringLiteral(".waitscope"), 3, {}};
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
    const AnalysisJob job{QStringLiteral("my trace/traces.otf2"), QStringLiteral("out'put.waitscope"), 8, QStringLiteral("log")};
    const QString script = batchScript(p, job);
    QVERIFY(script.contains(QStringLiteral("#SBATCH --ntasks=8")));
    QVERIFY(script.contains(QStringLiteral("#SBATCH --nodes=2")));
    QVERIFY(script.contains(QStringLiteral("#SBATCH --partition=short")));
    QVERIFY(script.contains(QStringLiteral("#SBATCH --time=00:10:00")));
    QVERIFY(!script.contains(QStringLiteral("--account")));
    QVERIFY(script.contains(QStringLiteral("srun -n 8 /opt/ws/bin/waitscope-analyze 'my trace/traces.otf2' -o 'out'\\''put.waitscope'")));
    // A value that could break out of an #SBATCH line is dropped, not pasted.
    p.partition = QStringLiteral("x\nrm -rf ~");
    QVERIFY(!batchScript(p, job).contains(QStringLiteral("rm -rf")));
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
        p, 1, "waitscope-analyze: t.otf2: the trace has 2 MPI ranks but waitscope-analyze runs on 3; run it with mpiexec -n 2\n");
    QCOMPARE(ranks.kind, FailureKind::WrongRankCount);
    QVERIFY(ranks.message.contains(QStringLiteral("2 MPI ranks")));
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
    QCOMPARE(batchFailure(QStringLiteral("FAILED|1:0"), "the trace has 4 MPI ranks but waitscope-analyze runs on 2").kind,
             FailureKind::WrongRankCount);
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
    QCOMPARE(ConnectionProfile::fromJson(p.toJson()), p);
    QCOMPARE(p.reportToolPath(), QStringLiteral("/opt/ws/bin/waitscope-report"));
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
