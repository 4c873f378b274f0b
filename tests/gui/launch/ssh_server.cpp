#include "tests/gui/launch/ssh_server.h"

#include <signal.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <unistd.h>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QThread>

#include "tests/gui/launch/launch_test_support.h"

namespace launchtest {

namespace {

bool canConnect(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(static_cast<uint16_t>(port));
  const bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0;
  ::close(fd);
  return ok;
}

bool keygen(const QString& path) {
  QFile::remove(path);
  QFile::remove(path + QStringLiteral(".pub"));
  return QProcess::execute(QStringLiteral("ssh-keygen"),
                           {"-q", "-t", "ed25519", "-N", "", "-C", "waitscope-test", "-f", path}) == 0;
}

bool writeFile(const QString& path, const QByteArray& text) {
  QFile f(path);
  if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate)) return false;
  f.write(text);
  return true;
}

qint64 parentOf(qint64 pid, QString* comm) {
  QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
  if (!stat.open(QIODevice::ReadOnly)) return -1;
  const QByteArray text = stat.readAll();
  const qsizetype open = text.indexOf('('), close = text.lastIndexOf(')');
  if (open < 0 || close < 0) return -1;
  if (comm) *comm = QString::fromLatin1(text.mid(open + 1, close - open - 1));
  const QList<QByteArray> fields = text.mid(close + 2).split(' ');
  return fields.size() > 1 ? fields[1].toLongLong() : -1;
}

}  // namespace

SshServer::SshServer() = default;

SshServer::~SshServer() { stop(); }

bool SshServer::sshdInstalled() { return QFileInfo(QStringLiteral("/usr/sbin/sshd")).isExecutable(); }

QString SshServer::log() const {
  QFile f(dir_.path() + QStringLiteral("/sshd.log"));
  return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

bool SshServer::start(QString* why) {
  const QString d = dir_.path();
  if (!dir_.isValid()) return *why = QStringLiteral("no temporary directory"), false;
  if (!keygen(d + "/host_key") || !keygen(d + "/client_key") || !keygen(d + "/other_key"))
    return *why = QStringLiteral("ssh-keygen failed"), false;
  QFile pub(d + "/client_key.pub");
  if (!pub.open(QIODevice::ReadOnly) || !writeFile(d + "/authorized_keys", pub.readAll()))
    return *why = QStringLiteral("cannot write authorized_keys"), false;
  port_ = freePort();
  const QByteArray config = QStringLiteral(
                                "ListenAddress 127.0.0.1\n"
                                "Port %1\n"
                                "HostKey %2/host_key\n"
                                "AuthorizedKeysFile %2/authorized_keys\n"
                                "PidFile %2/sshd.pid\n"
                                "StrictModes no\n"
                                "UsePAM no\n"
                                "PasswordAuthentication no\n"
                                "KbdInteractiveAuthentication no\n"
                                "PermitRootLogin prohibit-password\n"
                                "MaxStartups 50\n"
                                "MaxSessions 50\n"
                                "LogLevel VERBOSE\n")
                                .arg(port_)
                                .arg(d)
                                .toUtf8();
  const QByteArray client = QStringLiteral(
                                "Host %1\n"
                                "  HostName 127.0.0.1\n"
                                "  Port %2\n"
                                "Host *\n"
                                "  UserKnownHostsFile %3/known_hosts\n"
                                "  StrictHostKeyChecking no\n"
                                "  LogLevel ERROR\n")
                                .arg(alias())
                                .arg(port_)
                                .arg(d)
                                .toUtf8();
  if (!writeFile(d + "/sshd_config", config) || !writeFile(clientConfig(), client))
    return *why = QStringLiteral("cannot write the configuration"), false;
  QDir().mkpath(QStringLiteral("/run/sshd"));  // sshd's privilege separation directory
  return launch(why);
}

bool SshServer::launch(QString* why) {
  const QString d = dir_.path();
  sshd_.setProgram(QStringLiteral("/usr/sbin/sshd"));
  sshd_.setArguments({"-D", "-f", d + "/sshd_config", "-E", d + "/sshd.log"});
  sshd_.start();
  if (!sshd_.waitForStarted(5000)) return *why = QStringLiteral("sshd does not start: ") + sshd_.errorString(), false;
  QElapsedTimer t;
  t.start();
  while (t.elapsed() < 10000) {
    if (sshd_.state() == QProcess::NotRunning)
      return *why = QStringLiteral("sshd exited: ") + QString::fromUtf8(sshd_.readAllStandardError()) + log(), false;
    if (canConnect(port_)) return true;
    QThread::msleep(50);
  }
  return *why = QStringLiteral("sshd does not listen on port %1").arg(port_), false;
}

QList<qint64> SshServer::sshdDescendants() const {
  const qint64 root = sshd_.processId();
  QList<qint64> out;
  if (root <= 0) return out;
  QList<qint64> frontier{root};
  const QStringList all = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
  while (!frontier.isEmpty()) {
    const qint64 parent = frontier.takeFirst();
    for (const QString& name : all) {
      bool ok = false;
      const qint64 pid = name.toLongLong(&ok);
      QString comm;
      if (ok && parentOf(pid, &comm) == parent) {
        frontier << pid;
        if (comm.startsWith(QLatin1String("sshd"))) out << pid;
      }
    }
  }
  return out;
}

void SshServer::dropConnections() {
  for (qint64 pid : sshdDescendants()) ::kill(static_cast<pid_t>(pid), SIGKILL);
}

void SshServer::stop() {
  if (sshd_.state() == QProcess::NotRunning) return;
  const QList<qint64> children = sshdDescendants();
  sshd_.kill();
  sshd_.waitForFinished(5000);
  for (qint64 pid : children) ::kill(static_cast<pid_t>(pid), SIGKILL);
}

waitscope::launch::ConnectionProfile SshServer::profile(const QString& workingDirectory) const {
  waitscope::launch::ConnectionProfile p;
  p.name = QStringLiteral("test sshd");
  p.kind = waitscope::launch::ConnectionKind::Ssh;
  p.host = QStringLiteral("127.0.0.1");
  p.port = port_;
  p.user = QString::fromLocal8Bit(qgetenv("USER"));
  if (p.user.isEmpty()) p.user = QStringLiteral("root");
  p.identityFile = clientKey();
  p.reuseConnection = false;
  p.workingDirectory = workingDirectory;
  p.setupLines = mpiSetupLines();
  p.mpiexecOptions = QStringLiteral("--oversubscribe");
  p.analyzerPath = analyzerPath();
  return p;
}

}  // namespace launchtest
