#include "launch_test_support.h"

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
