#include "app/launch/shell_command.h"

#include <QDir>
#include <QFile>

#include "app/launch/shell_quote.h"

namespace waitscope::launch {

LaunchSettings& launchSettings() {
  static LaunchSettings settings;
  return settings;
}

QString ShellCommand::display() const { return shellJoin(QStringList{program} + arguments); }

QStringList sshOptions(const ConnectionProfile& p) {
  const LaunchSettings& s = launchSettings();
  QStringList o;
  if (!s.sshConfigFile.isEmpty()) o << "-F" << s.sshConfigFile;
  // The app has no terminal: never prompt (passwords and passphrases belong to
  // ssh-agent), fail fast, and accept a new host key once (trust on first use).
  o << "-o" << "BatchMode=yes";
  o << "-o" << QStringLiteral("ConnectTimeout=%1").arg(s.connectTimeoutSeconds);
  o << "-o" << "StrictHostKeyChecking=accept-new";
  o << "-o" << "ServerAliveInterval=15" << "-o" << "ServerAliveCountMax=3";
  if (!p.user.isEmpty()) o << "-l" << p.user;
  if (p.port > 0) o << "-p" << QString::number(p.port);
  if (!p.jumpHosts.isEmpty()) o << "-J" << p.jumpHosts.join(QLatin1Char(','));
  if (!p.identityFile.isEmpty()) {
    QString key = p.identityFile;
    if (key.startsWith(QLatin1String("~/"))) key = QDir::homePath() + key.mid(1);
    o << "-i" << key << "-o" << "IdentitiesOnly=yes";
  }
  if (p.reuseConnection) {
    const QString dir = s.controlDirectory.isEmpty() ? QStringLiteral("~/.ssh") : s.controlDirectory;
    o << "-o" << "ControlMaster=auto";
    o << "-o" << QStringLiteral("ControlPath=%1/waitscope-%C").arg(dir);
    o << "-o" << QStringLiteral("ControlPersist=%1").arg(p.controlPersistSeconds);
  }
  return o;
}

ShellCommand shellCommand(const ConnectionProfile& p, const QString& script) {
  if (!p.isRemote()) return {QStringLiteral("/bin/sh"), {QStringLiteral("-c"), script}};
  if (p.reuseConnection && launchSettings().controlDirectory.isEmpty()) {
    // ssh cannot create its control socket in a missing ~/.ssh.
    const QString dir = QDir::homePath() + QStringLiteral("/.ssh");
    if (!QDir(dir).exists() && QDir().mkpath(dir))
      QFile::setPermissions(dir, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
  }
  ShellCommand c{launchSettings().sshProgram, sshOptions(p)};
  // "--" ends ssh's options: the host can never be taken for one.
  c.arguments << "--" << p.host << script;
  return c;
}

QString profileProblem(const ConnectionProfile& p) {
  if (!p.isRemote()) return {};
  if (p.host.trimmed().isEmpty()) return QStringLiteral("The profile \"%1\" has no host.").arg(p.name);
  if (p.host.startsWith(QLatin1Char('-')) || p.host.contains(QLatin1Char(' ')))
    return QStringLiteral("The host \"%1\" is not a host name.").arg(p.host);
  if (p.user.startsWith(QLatin1Char('-'))) return QStringLiteral("The user \"%1\" is not a user name.").arg(p.user);
  for (const QString& j : p.jumpHosts)
    if (j.startsWith(QLatin1Char('-')) || j.contains(QLatin1Char(' ')) || j.contains(QLatin1Char(',')))
      return QStringLiteral("The jump host \"%1\" is not a host name.").arg(j);
  return {};
}

}  // namespace waitscope::launch
