#include "app/launch/shell_job.h"

#include <memory>

#include <QProcess>
#include <QTimer>

#include "app/launch/shell_command.h"

namespace waitscope::launch {

QProcess* runShellJob(const ConnectionProfile& profile, const QString& script, int timeoutMs, QObject* context,
                      std::function<void(const ShellResult&)> done) {
  auto* process = new QProcess(context);
  auto result = std::make_shared<ShellResult>();
  auto finish = [process, result, done = std::move(done)]() mutable {
    if (!done) return;  // once
    auto callback = std::move(done);
    done = nullptr;
    result->out += process->readAllStandardOutput();
    result->err += QString::fromUtf8(process->readAllStandardError());
    process->deleteLater();
    callback(*result);
  };
  auto finishShared = std::make_shared<decltype(finish)>(std::move(finish));
  QObject::connect(process, &QProcess::finished, process, [process, result, finishShared](int code, QProcess::ExitStatus status) {
    result->exitCode = status == QProcess::NormalExit ? code : -1;
    (*finishShared)();
    (void)process;
  });
  QObject::connect(process, &QProcess::errorOccurred, process, [process, result, finishShared](QProcess::ProcessError error) {
    if (error != QProcess::FailedToStart) return;
    result->started = false;
    result->err = process->errorString();
    (*finishShared)();
  });
  if (timeoutMs > 0) {
    auto* timer = new QTimer(process);
    timer->setSingleShot(true);
    QObject::connect(timer, &QTimer::timeout, process, [process, result] {
      result->timedOut = true;
      process->kill();  // finished follows
    });
    timer->start(timeoutMs);
  }
  const ShellCommand command = shellCommand(profile, script);
  process->setStandardInputFile(QProcess::nullDevice());
  process->start(command.program, command.arguments);
  return process;
}

void stopChildProcesses(QObject* owner) {
  for (QProcess* process : owner->findChildren<QProcess*>(Qt::FindDirectChildrenOnly)) {
    process->disconnect();
    process->kill();
    process->waitForFinished(2000);
    delete process;
  }
}

}  // namespace waitscope::launch
