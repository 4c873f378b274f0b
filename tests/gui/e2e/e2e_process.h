#pragma once
// What the end-to-end GUI tests share besides the screenshots on Xvfb
// (tests/gui/support/xvfb_screenshots.h): the build's real binaries, running
// them to completion, recording and analyzing a run. The including target
// defines WAITSCOPE_BINARY_DIR and WAITSCOPE_MPIEXEC.
#include <QProcess>
#include <QString>
#include <QStringList>

namespace waitscope::test {

inline QString binary(const QString& relative) { return QStringLiteral(WAITSCOPE_BINARY_DIR "/") + relative; }

// Runs `program` to completion (4 minutes at most); true when it exited with 0.
inline bool runProcess(const QString& program, const QStringList& arguments, const QProcessEnvironment& env,
                       QString* output, int* exitCode = nullptr) {
  QProcess process;
  process.setProcessEnvironment(env);
  process.setProcessChannelMode(QProcess::MergedChannels);
  process.start(program, arguments);
  const bool finished = process.waitForFinished(240000);
  if (!finished) process.kill();
  *output = QString::fromUtf8(process.readAll());
  if (exitCode) *exitCode = process.exitCode();
  return finished && process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0;
}

// Records `program` on `processes` ranks with waitscope-run into `traceDir` and analyzes the
// trace with `mpiexec waitscope-analyze` into `report`.
inline bool recordReport(const QStringList& program, int processes, const QString& traceDir, const QString& report,
                         QString* output) {
  const QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  return runProcess(binary(QStringLiteral("analysis/tools/waitscope-run")),
                    QStringList{QStringLiteral("-n"), QString::number(processes), QStringLiteral("-o"), traceDir,
                                QStringLiteral("--")} + program,
                    env, output) &&
         runProcess(QStringLiteral(WAITSCOPE_MPIEXEC),
                    {QStringLiteral("--oversubscribe"), QStringLiteral("-n"), QString::number(processes),
                     binary(QStringLiteral("analysis/tools/waitscope-analyze")), QStringLiteral("--quiet"),
                     traceDir + QStringLiteral("/traces.otf2"), QStringLiteral("-o"), report},
                    env, output);
}

}  // namespace waitscope::test
