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

// `output` (optional) gets everything it printed.
inline bool runTool(const QString& program, const QStringList& arguments, const QProcessEnvironment& env,
                    int timeoutMs = 180000, QString* output = nullptr) {
  QProcess process;
  process.setProcessEnvironment(env);
  process.setProcessChannelMode(QProcess::MergedChannels);
  process.start(program, arguments);
  const bool finished = process.waitForFinished(timeoutMs);
  if (!finished) process.kill();
  const QByteArray printed = process.readAll();
  if (output) *output = QString::fromUtf8(printed);
  if (!finished) {
    qWarning() << program << "timed out:" << printed;
    return false;
  }
  if (process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0) {
    qWarning() << program << arguments << "failed:" << printed;
    return false;
  }
  return true;
}

}  // namespace waitscope::test
