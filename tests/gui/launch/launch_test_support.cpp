#include "tests/gui/launch/launch_test_support.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QSignalSpy>
#include <QtTest>

#include "app/launch/analysis_runner.h"
#include "app/launch/remote_origin.h"
#include "app/launch/shell_quote.h"

namespace launchtest {

using waitscope::launch::ConnectionProfile;

QString analyzerPath() { return QStringLiteral(WAITSCOPE_ANALYZE_PATH); }
QString reportToolPath() { return QStringLiteral(WAITSCOPE_REPORT_PATH); }

QStringList mpiSetupLines() {
  return {QStringLiteral("export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1"),
          QStringLiteral("export OMPI_MCA_rmaps_base_oversubscribe=1")};
}

ConnectionProfile localProfile(const QString& workingDirectory) {
  ConnectionProfile p;
  p.name = QStringLiteral("local test");
  p.kind = waitscope::launch::ConnectionKind::Local;
  p.workingDirectory = workingDirectory;
  p.setupLines = mpiSetupLines();
  p.mpiexecOptions = QStringLiteral("--oversubscribe");
  p.analyzerPath = analyzerPath();
  return p;
}

QString copyTrace(const QString& directory) {
  const QString source = QStringLiteral(WAITSCOPE_SHARED_DIR "/traces/pipit_ping-pong-otf2");
  QDir().mkpath(directory);
  QDirIterator it(source, QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
  while (it.hasNext()) {
    const QString from = it.next();
    const QString to = directory + QLatin1Char('/') + QDir(source).relativeFilePath(from);
    if (QFileInfo(from).isDir()) {
      QDir().mkpath(to);
    } else {
      QFile::copy(from, to);
      QFile(to).setPermissions(QFile::ReadOwner | QFile::WriteOwner);  // the shared copy is read-only
    }
  }
  return directory + QStringLiteral("/traces.otf2");
}

bool writeScript(const QString& path, const QString& text) {
  QFile f(path);
  if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate)) return false;
  f.write(text.toUtf8());
  f.close();
  return f.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadGroup | QFile::ExeGroup);
}

QString writeSlowAnalyzer(const QString& directory, const QString& pidFile) {
  const QString path = directory + QStringLiteral("/slow-analyzer");
  writeScript(path, QStringLiteral("#!/bin/sh\n"
                                   "if [ \"$1\" = --version ]; then echo 'waitscope-analyze 0.0-slow'; exit 0; fi\n"
                                   "echo $$ >> '%1'\n"
                                   "echo 'progress read 0' >&2\n"
                                   "echo 'progress replay 50' >&2\n"
                                   "exec sleep 120\n")
                        .arg(pidFile));
  return path;
}

QString writeFakeSlurm(const QString& directory) {
  const QString bin = directory + QStringLiteral("/bin");
  const QString state = directory + QStringLiteral("/state");
  QDir().mkpath(bin);
  QDir().mkpath(state);
  // sbatch: runs the job script with bash in a new session; the job id is that session's pid.
  // The job writes COMPLETED/FAILED when it ends; scancel writes CANCELLED first.
  writeScript(bin + QStringLiteral("/sbatch"), QStringLiteral(R"(#!/bin/sh
state='%1'
out=slurm.out
script=
while [ $# -gt 0 ]; do
  case "$1" in
    --output) out="$2"; shift ;;
    --output=*) out="${1#--output=}" ;;
    -*) ;;
    *) script="$1" ;;
  esac
  shift
done
[ -f "$script" ] || { echo "sbatch: no job script" >&2; exit 1; }
cp "$script" "$state/last-job-script"
setsid sh -c 'bash "$1" > "$2" 2>&1; rc=$?; if [ $rc -eq 0 ]; then echo "COMPLETED|0:0"; else echo "FAILED|$rc:0"; fi > "$0/$$.state"' "$state" "$script" "$out" </dev/null >/dev/null 2>&1 &
echo "$!"
)").arg(state));
  writeScript(bin + QStringLiteral("/squeue"), QStringLiteral(R"(#!/bin/sh
id=
while [ $# -gt 0 ]; do case "$1" in -j) id="$2"; shift ;; esac; shift; done
echo "$id" >> '%1/squeue.log'
[ -n "$id" ] && kill -0 "$id" 2>/dev/null && echo RUNNING
exit 0
)").arg(state));
  writeScript(bin + QStringLiteral("/sacct"), QStringLiteral(R"(#!/bin/sh
id=
while [ $# -gt 0 ]; do case "$1" in -j) id="$2"; shift ;; esac; shift; done
if [ -f '%1'/"$id.cancelled" ]; then cat '%1'/"$id.cancelled"; else cat '%1'/"$id.state" 2>/dev/null; fi
exit 0
)").arg(state));
  writeScript(bin + QStringLiteral("/scancel"), QStringLiteral(R"(#!/bin/sh
echo "$1" >> '%1/scancel.log'
echo "CANCELLED by $(id -u)|0:15" > '%1'/"$1.cancelled"
kill -s TERM -- -"$1" 2>/dev/null
exit 0
)").arg(state));
  return bin;
}

QStringList craftedNames() {
  return {
      QStringLiteral("a{report}b;id>PWNED1;c"),
      QStringLiteral("{trace}{report}{analyzer}{ranks}{nodes}{account}{partition}{time};touch PWNED2"),
      QStringLiteral("it's \"q\" '$(touch PWNED3)' \"$(touch PWNED4)\""),
      QStringLiteral("`touch PWNED5` $(touch PWNED6)"),
      QStringLiteral("x; touch PWNED7 & touch PWNED8 | touch PWNED9"),
      QStringLiteral("line\ntouch PWNED10\n"),
      QStringLiteral("* star ?"),
      QStringLiteral("-n"),
      QStringLiteral("-o x ; touch PWNED11"),
      QStringLiteral("two  spaces\ttab"),
  };
}

QString writeArgumentRecorders(const QString& directory, const QString& log) {
  const QString bin = directory + QStringLiteral("/bin");
  QDir().mkpath(bin);
  // One record: NUL after every word, then an end marker (no argument is empty or holds NUL).
  const QString recorder = QStringLiteral(R"(#!/bin/bash
name=$(basename "$0")
printf '%s\0' "$name" "$@" '--end-of-record--' >> '%1'
if [ "$name" != printargs ]; then
  prev=
  for a in "$@"; do
    if [ "$prev" = -o ]; then printf 'report\n' > "$a" || exit 1; fi
    prev=$a
  done
fi
exit 0
)")
                               .arg(log);
  for (const char* name : {"mpiexec", "srun", "printargs"})
    writeScript(bin + QLatin1Char('/') + QLatin1String(name), recorder);
  return bin;
}

QList<QStringList> readArgumentRecords(const QString& log) {
  QList<QStringList> records;
  QFile f(log);
  if (!f.open(QIODevice::ReadOnly)) return records;
  QStringList record;
  for (const QByteArray& word : f.readAll().split('\0')) {
    if (word == "--end-of-record--") {
      records << record;
      record.clear();
    } else if (!word.isEmpty() || !record.isEmpty()) {
      record << QString::fromUtf8(word);
    }
  }
  return records;
}

QStringList pwnedFiles(const QStringList& directories) {
  QStringList found;
  for (const QString& dir : directories) {
    QDirIterator it(dir, {QStringLiteral("PWNED*")}, QDir::Files | QDir::Hidden | QDir::System, QDirIterator::Subdirectories);
    while (it.hasNext()) found << it.next();
  }
  // Where a shell starts before it changes directory: the login directory, the test's own.
  for (const QString& dir : {QDir::homePath(), QDir::currentPath()})
    for (const QString& name : QDir(dir).entryList({QStringLiteral("PWNED*")}, QDir::Files | QDir::Hidden | QDir::System))
      found << QDir(dir).filePath(name);
  return found;
}

QString asArgument(const QString& path) { return path.startsWith(QLatin1Char('-')) ? QStringLiteral("./") + path : path; }

QString craftedBatchTemplate() {
  return QStringLiteral(
      "#!/bin/bash\n"
      "#SBATCH --ntasks={ranks}\n"
      "#SBATCH --nodes={nodes}\n"
      "#SBATCH --time={time}\n"
      "#SBATCH --account={account}\n"
      "#SBATCH --partition={partition}\n"
      "#SBATCH --job-name={trace}\n"
      "#SBATCH --comment={report}\n"
      "printargs {ranks} {nodes} {time} {account} {partition} {trace} {report} {analyzer}\n"
      "printargs \"{trace}\" \"in {report} quotes\" x{analyzer}y\n"
      "sh -c 'printargs {trace} {report}'\n"
      "printargs \"$(printf '%s' {trace})\"\n"
      "while IFS= read -r line; do printargs \"$line\"; done <<END\n"
      "{ranks}:{time}\n"
      "{report}\n"
      "END\n"
      "srun -n {ranks} {analyzer} {trace} -o {report}\n");
}

waitscope::launch::ConnectionProfile craftedLaunchProfile(ConnectionProfile base, waitscope::launch::LauncherKind launcher,
                                                          const QString& recorders, const QString& slurmBin,
                                                          const QString& analyzer) {
  base.launcher = launcher;
  base.mpiexecOptions.clear();
  base.analyzerPath = analyzer;
  base.setupLines = {QStringLiteral("PATH=%1:%2:$PATH").arg(waitscope::launch::shellQuote(recorders),
                                                            waitscope::launch::shellQuote(slurmBin))};
  base.batchTemplate = craftedBatchTemplate();
  base.account = QStringLiteral("acct");
  base.partition = QStringLiteral("part");
  base.timeLimit = QStringLiteral("00:05:00");
  base.nodes = 1;
  return base;
}

void checkCraftedLaunch(const ConnectionProfile& profile, const QString& work, const QString& name, const QString& log,
                        const QStringList& watched) {
  using waitscope::launch::AnalysisRunner;
  using waitscope::launch::LauncherKind;
  QFile::remove(log);
  QVERIFY(QDir(work).mkpath(name));
  QFile traceFile(QDir(work).filePath(name + QStringLiteral("/traces.otf2")));
  QVERIFY(traceFile.open(QIODevice::WriteOnly));
  traceFile.close();
  const QString trace = name + QStringLiteral("/traces.otf2");
  const QString report = name + QStringLiteral(".waitscope");
  const QString what = QStringLiteral("%1 via %2, trace %3").arg(waitscope::launch::toString(profile.launcher),
                                                                 profile.displayHost(), trace);

  AnalysisRunner runner;
  runner.setBatchPollInterval(200);
  QSignalSpy ready(&runner, &AnalysisRunner::reportReady);
  runner.start({profile, trace, 2, {}, {}});
  QTRY_VERIFY_WITH_TIMEOUT(!runner.isActive(), 120000);
  QVERIFY2(ready.size() == 1, qPrintable(what + QStringLiteral(": ") + runner.failure().message));
  QCOMPARE(runner.remoteReport(), report);

  const QString t = asArgument(trace), r = asArgument(report), a = profile.analyzerPath;
  QList<QStringList> expected;
  if (profile.launcher == LauncherKind::Batch) {
    expected = {
        {"printargs", "2", "1", "00:05:00", "acct", "part", t, r, a},
        {"printargs", t, QStringLiteral("in %1 quotes").arg(r), QLatin1Char('x') + a + QLatin1Char('y')},
        {"printargs", t, r},
        {"printargs", t},
        {"printargs", "2:00:05:00"},
    };
    for (const QString& line : r.split(QLatin1Char('\n'))) expected << QStringList{"printargs", line};
    expected << QStringList{"srun", "-n", "2", a, t, "-o", r};
  } else {
    expected = {{profile.launcher == LauncherKind::Srun ? "srun" : "mpiexec", "-n", "2", a, t, "-o", r}};
  }
  const QList<QStringList> got = readArgumentRecords(log);
  if (got != expected) {
    for (const QStringList& record : got) qWarning().noquote() << "got:" << record;
    for (const QStringList& record : expected) qWarning().noquote() << "expected:" << record;
  }
  QVERIFY2(got == expected, qPrintable(what));
  QVERIFY2(QDir(work).entryList({QStringLiteral("waitscope-job-*.sh")}, QDir::Files).isEmpty(),
           qPrintable(what + QStringLiteral(": the job script was left behind")));
  const QStringList pwned = pwnedFiles(QStringList(watched) << work);
  QVERIFY2(pwned.isEmpty(), qPrintable(what + QStringLiteral(" ran a command: ") + pwned.join(QLatin1Char(' '))));
  if (profile.isRemote()) {  // the copy in the app's cache
    QFile::remove(runner.localReport());
    QFile::remove(waitscope::launch::remoteOriginPath(runner.localReport()));
  }
}

QList<qint64> readPids(const QString& file) {
  QList<qint64> pids;
  QFile f(file);
  if (!f.open(QIODevice::ReadOnly)) return pids;
  for (const QByteArray& line : f.readAll().split('\n'))
    if (!line.trimmed().isEmpty()) pids << line.trimmed().toLongLong();
  return pids;
}

bool processAlive(qint64 pid) {
  if (pid <= 0) return false;
  // A zombie still answers kill(0): look at its state.
  QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
  if (!stat.open(QIODevice::ReadOnly)) return false;
  const QByteArray text = stat.readAll();
  const qsizetype close = text.lastIndexOf(')');
  return close > 0 && text.size() > close + 2 && text[close + 2] != 'Z';
}

QString sha256(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return {};
  QCryptographicHash hash(QCryptographicHash::Sha256);
  hash.addData(&f);
  return QString::fromLatin1(hash.result().toHex());
}

int freePort() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = 0;
  socklen_t length = sizeof address;
  int port = 0;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 &&
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0)
    port = ntohs(address.sin_port);
  ::close(fd);
  return port;
}

}  // namespace launchtest
