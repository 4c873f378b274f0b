#include "app/launch/connection_tester.h"

#include "app/launch/launch_failure.h"
#include "app/launch/remote_scripts.h"
#include "app/launch/shell_job.h"

namespace waitscope::launch {

namespace {

QString launcherName(const ConnectionProfile& p) {
  switch (p.launcher) {
    case LauncherKind::Srun: return QStringLiteral("srun");
    case LauncherKind::Batch: return QStringLiteral("sbatch");
    case LauncherKind::Mpiexec: break;
  }
  return QStringLiteral("mpiexec");
}

}  // namespace

ConnectionTester::ConnectionTester(QObject* parent) : QObject(parent) {}

ConnectionTester::~ConnectionTester() { stopChildProcesses(this); }

bool ConnectionTester::allOk() const {
  if (results_.isEmpty()) return false;
  for (const ConnectionCheck& c : results_)
    if (!c.ok) return false;
  return true;
}

QString ConnectionTester::summary() const {
  QStringList lines;
  for (const ConnectionCheck& c : results_) lines << (c.ok ? QStringLiteral("✔ ") : QStringLiteral("✘ ")) + c.message;
  return lines.join(QLatin1Char('\n'));
}

void ConnectionTester::start(const ConnectionProfile& profile, int timeoutMs) {
  if (running_) return;
  running_ = true;
  results_.clear();
  runShellJob(profile, checkScript(profile), timeoutMs, this, [this, profile, timeoutMs](const ShellResult& r) {
    running_ = false;
    const QString host = profile.displayHost();
    const QStringList lines = QString::fromUtf8(r.out).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    auto find = [&](const QString& name) -> QString {
      const QString prefix = QStringLiteral("waitscope-check %1 ").arg(name);
      for (const QString& l : lines)
        if (l.startsWith(prefix)) return l.mid(prefix.size());
      return {};
    };
    if (find(QStringLiteral("connected")).isEmpty()) {
      QString why;
      if (!r.started) why = QStringLiteral("Cannot start %1: %2").arg(profile.isRemote() ? "ssh" : "/bin/sh", r.err);
      else if (r.timedOut) why = QStringLiteral("No answer from %1 within %2 s.").arg(host).arg(timeoutMs / 1000);
      else if (profile.isRemote()) why = sshFailure(profile, r.err, false).message;
      else why = QStringLiteral("The shell failed: %1").arg(r.err.trimmed());
      results_ << ConnectionCheck{QStringLiteral("connection"), false, why};
      emit finished();
      return;
    }
    results_ << ConnectionCheck{QStringLiteral("connection"), true,
                                profile.isRemote() ? QStringLiteral("Connected to %1.").arg(host)
                                                   : QStringLiteral("Commands run on this computer.")};
    const QString workdir = find(QStringLiteral("workdir"));
    if (!workdir.isEmpty()) {
      const bool ok = workdir.startsWith(QLatin1String("ok"));
      results_ << ConnectionCheck{QStringLiteral("working directory"), ok,
                                  ok ? QStringLiteral("The working directory %1 exists.").arg(profile.workingDirectory)
                                     : QStringLiteral("The working directory %1 does not exist.").arg(profile.workingDirectory)};
    }
    const QString analyzer = find(QStringLiteral("analyzer"));
    if (analyzer.startsWith(QLatin1String("ok"))) {
      const QString version = analyzer.mid(2).trimmed();
      const bool looksRight = version.startsWith(QLatin1String("waitscope-analyze"));
      results_ << ConnectionCheck{QStringLiteral("analyzer"), looksRight,
                                  looksRight ? QStringLiteral("The analyzer is installed: %1.").arg(version)
                                             : QStringLiteral("%1 is there but does not run: %2")
                                                   .arg(profile.analyzerPath, version.isEmpty() ? "no version printed" : version)};
    } else {
      results_ << ConnectionCheck{QStringLiteral("analyzer"), false,
                                  QStringLiteral("The analyzer \"%1\" was not found; install Waitscope there or set its path.")
                                      .arg(profile.analyzerPath)};
    }
    const QString launcher = find(QStringLiteral("launcher"));
    const QString name = launcherName(profile);
    if (launcher.startsWith(QLatin1String("ok"))) {
      const QString version = launcher.mid(2).trimmed();
      results_ << ConnectionCheck{QStringLiteral("launcher"), true,
                                  version.isEmpty() ? QStringLiteral("%1 is available.").arg(name)
                                                    : QStringLiteral("%1 is available: %2.").arg(name, version)};
    } else {
      results_ << ConnectionCheck{QStringLiteral("launcher"), false,
                                  QStringLiteral("%1 was not found; add the set-up line that provides it (e.g. module load openmpi).")
                                      .arg(name)};
    }
    emit finished();
  });
}

}  // namespace waitscope::launch
