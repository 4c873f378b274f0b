#pragma once
// How a shell script reaches the machine of a profile: `/bin/sh -c SCRIPT` for
// local profiles, `ssh [options] -- HOST SCRIPT` for SSH profiles. The script
// text is the same for both, so local runs exercise the remote code path.
#include <QString>
#include <QStringList>

#include "app/launch/connection_profile.h"

namespace waitscope::launch {

// Process-wide settings of the launcher (not part of a profile, never exported).
struct LaunchSettings {
  QString sshProgram = QStringLiteral("ssh");
  // An ssh client configuration used instead of ~/.ssh/config (ssh -F); empty: the user's.
  QString sshConfigFile;
  int connectTimeoutSeconds = 15;
  // Where ControlMaster sockets live; empty: ~/.ssh.
  QString controlDirectory;
};
LaunchSettings& launchSettings();

struct ShellCommand {
  QString program;
  QStringList arguments;
  // For logs: the command as one would type it.
  QString display() const;
};

// The ssh options of a profile (no destination, no command).
QStringList sshOptions(const ConnectionProfile& profile);

// Runs `script` (POSIX shell text) on the profile's machine.
ShellCommand shellCommand(const ConnectionProfile& profile, const QString& script);

// Empty when the profile can be used, otherwise why not (one line).
QString profileProblem(const ConnectionProfile& profile);

}  // namespace waitscope::launch
