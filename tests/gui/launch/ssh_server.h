#pragma once
// A real OpenSSH server for the tests: /usr/sbin/sshd on 127.0.0.1 on a free
// port, with its own host key, a generated client key in its authorized_keys
// (StrictModes no, UsePAM no), everything in one temporary directory. The ssh
// client is pointed at a config file of the same directory (known_hosts there).
#include <QProcess>
#include <QString>
#include <QTemporaryDir>

#include "app/launch/connection_profile.h"

namespace launchtest {

class SshServer {
 public:
  SshServer();
  ~SshServer();

  static bool sshdInstalled();
  // Generates keys and config and starts sshd; false and `why` when it cannot.
  bool start(QString* why);
  // Stops the listener and drops every open connection (kills the server's sshd children).
  void stop();
  // Drops the open connections only (the listener keeps accepting).
  void dropConnections();
  bool restart(QString* why) { stop(); return launch(why); }

  bool isRunning() const { return sshd_.state() != QProcess::NotRunning; }
  int port() const { return port_; }
  QString directory() const { return dir_.path(); }
  QString clientKey() const { return dir_.path() + QStringLiteral("/client_key"); }
  QString otherKey() const { return dir_.path() + QStringLiteral("/other_key"); }  // not authorized
  QString clientConfig() const { return dir_.path() + QStringLiteral("/ssh_config"); }
  QString alias() const { return QStringLiteral("waitscope-test-host"); }  // Host alias in clientConfig()
  QString log() const;

  // An SSH profile for this server running the built analyzer (no connection reuse).
  waitscope::launch::ConnectionProfile profile(const QString& workingDirectory = {}) const;

 private:
  bool launch(QString* why);
  QList<qint64> sshdDescendants() const;

  QTemporaryDir dir_;
  QProcess sshd_;
  int port_ = 0;
};

}  // namespace launchtest
