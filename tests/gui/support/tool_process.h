#pragma once
// Runs one of the real tools (waitscope-run, mpiexec waitscope-analyze,
// xvfb-run …) to completion for an end-to-end GUI test; on failure, a warning
// with the command and everything it printed says why.
#include <QDebug>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace waitscope::test {

inline bool runTool(const QString& program, const QStringList& arguments, const QProcessEnvironment& env,
                    int timeoutMs = 180000) {
  QProcess process;
  process.setProcessEnvironment(env);
  process.setProcessChannelMode(QProcess::MergedChannels);
  process.start(program, arguments);
  if (!process.waitForFinished(timeoutMs)) {
    process.kill();
    qWarning() << program << "timed out:" << process.readAll();
    return false;
  }
  if (process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0) {
    qWarning() << program << arguments << "failed:" << process.readAll();
    return false;
  }
  return true;
}

}  // namespace waitscope::test
