#pragma once
// A short shell script run asynchronously on a profile's machine (queries:
// test connection, directory listing, trace statistics, checksums, cancel).
#include <functional>

#include <QByteArray>
#include <QString>

#include "app/launch/connection_profile.h"

class QObject;
class QProcess;

namespace waitscope::launch {

struct ShellResult {
  int exitCode = -1;
  bool started = true;    // false: the program (sh or ssh) could not be started
  bool timedOut = false;  // killed after the timeout
  QByteArray out;
  QString err;
  bool ok() const { return started && !timedOut && exitCode == 0; }
};

// Starts `script` and calls `done` once (in `context`'s thread) when it ended or
// after `timeoutMs` (then the process is killed). The process is a child of
// `context` and deletes itself; the returned pointer is valid until `done` runs.
QProcess* runShellJob(const ConnectionProfile& profile, const QString& script, int timeoutMs, QObject* context,
                      std::function<void(const ShellResult&)> done);

// Ends every QProcess child of `owner` without running their callbacks: for
// destructors, whose members the callbacks would otherwise touch.
void stopChildProcesses(QObject* owner);

}  // namespace waitscope::launch
