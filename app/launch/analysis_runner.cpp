#include "app/launch/analysis_runner.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QStandardPaths>

#include "app/launch/analyzer_progress.h"
#include "app/launch/local_tools.h"
#include "app/launch/remote_origin.h"
#include "app/launch/report_fetcher.h"
#include "app/launch/shell_command.h"
#include "app/launch/shell_job.h"

namespace waitscope::launch {

namespace {

// A file name made of safe characters (a profile name in a local path).
QString safeFileName(const QString& name) {
  QString out;
  for (const QChar c : name) out += c.isLetterOrNumber() || c == QLatin1Char('-') || c == QLatin1Char('.') ? c : QLatin1Char('_');
  return out.isEmpty() ? QStringLiteral("profile") : out;
}

QString expandHome(const QString& path) {
  if (path == QLatin1String("~")) return QDir::homePath();
  if (path.startsWith(QLatin1String("~/"))) return QDir::homePath() + path.mid(1);
  return path;
}

}  // namespace

AnalysisRunner::AnalysisRunner(QObject* parent) : QObject(parent) {
  pollTimer_.setInterval(3000);
  pollTimer_.setSingleShot(true);
  connect(&pollTimer_, &QTimer::timeout, this, &AnalysisRunner::poll);
}

AnalysisRunner::~AnalysisRunner() {
  // A job must not outlive the app: stop it, waiting a few seconds (the one
  // place that blocks, when the window closes during a run).
  const bool batch = request_.profile.launcher == LauncherKind::Batch;
  if (state_ == State::Running && !cancelSent_ && (batch ? !jobId_.isEmpty() : pgid_ != 0)) {
    const ShellCommand command = shellCommand(request_.profile, batch ? cancelBatchScript(request_.profile, jobId_, job_)
                                                                     : cancelProcessGroupScript(pgid_));
    QProcess cancel;
    cancel.setStandardInputFile(QProcess::nullDevice());
    cancel.start(command.program, command.arguments);
    cancel.waitForFinished(10000);
  }
  stopChildProcesses(this);
}

QString AnalysisRunner::defaultRemoteReport(const ConnectionProfile& profile, const QString& trace) {
  const QFileInfo info(trace);
  const QString archive = QFileInfo(info.path()).fileName();
  const QString stem = info.completeBaseName();
  const bool inArchive = !archive.isEmpty() && archive != QLatin1String(".") && archive != QLatin1String("..");
  if (!profile.workingDirectory.trimmed().isEmpty()) return (inArchive ? archive : stem) + QStringLiteral(".waitscope");
  // Beside the trace, named after it: Score-P calls every trace "traces", so its archive's name tells runs apart.
  const QString name = stem == QLatin1String("traces") && inArchive ? archive : stem;
  return info.path() + QLatin1Char('/') + name + QStringLiteral(".waitscope");
}

QString AnalysisRunner::defaultLocalReport(const ConnectionProfile& profile, const QString& remoteReport) {
  if (!profile.isRemote()) {
    const QString report = expandHome(remoteReport);
    if (QFileInfo(report).isAbsolute() || profile.workingDirectory.trimmed().isEmpty()) return QFileInfo(report).absoluteFilePath();
    return QDir(expandHome(profile.workingDirectory.trimmed())).absoluteFilePath(report);
  }
  const QString dir = QStandardPaths::writableLocation(QStandardPaths::CacheLocation) + QStringLiteral("/reports/") +
                      safeFileName(profile.name);
  return dir + QLatin1Char('/') + QFileInfo(remoteReport).fileName();
}

qint64 AnalysisRunner::elapsedMs() const {
  if (finalElapsed_ >= 0) return finalElapsed_;
  return clock_.isValid() ? clock_.elapsed() : 0;
}

void AnalysisRunner::setState(State state) {
  if (state_ == state) return;
  state_ = state;
  if (state == State::Succeeded || state == State::Failed || state == State::Cancelled) finalElapsed_ = clock_.elapsed();
  emit stateChanged(state);
}

void AnalysisRunner::start(const Request& request) {
  if (isActive()) return;
  request_ = request;
  job_ = {};
  job_.trace = request.trace;
  job_.ranks = request.ranks;
  job_.report = request.remoteReport.isEmpty() ? defaultRemoteReport(request.profile, request.trace) : request.remoteReport;
  job_.batchLog = job_.report + QStringLiteral(".log");
  // A name of its own per job: the polls and Cancel remove it when the job ends.
  job_.jobScript = QStringLiteral("waitscope-job-%1.sh").arg(QRandomGenerator::global()->generate64(), 16, 16, QLatin1Char('0'));
  localReport_ = request.localReport.isEmpty() || !request.profile.isRemote()
                     ? defaultLocalReport(request.profile, job_.report)
                     : request.localReport;
  if (request.profile.isRemote()) {
    // What is at LOCAL is always this analysis's complete report, never an older one.
    QFile::remove(localReport_);
    QFile::remove(ReportFetcher::partialPath(localReport_));
    QFile::remove(remoteOriginPath(localReport_));
  }
  failure_ = {};
  stdoutBuffer_.clear();
  stderrBuffer_.clear();
  output_.clear();
  pgid_ = 0;
  jobId_.clear();
  logOffset_ = 0;
  pollFailures_ = 0;
  cancelRequested_ = cancelSent_ = false;
  finalElapsed_ = -1;
  clock_.start();
  setState(State::Running);

  if (const QString problem = profileProblem(request.profile); !problem.isEmpty())
    return finishWith(FailureKind::Unreachable, problem);
  if (request.ranks < 1) return finishWith(FailureKind::WrongRankCount, QStringLiteral("The number of ranks must be at least 1."));
  // Locally, the analyzer beside the app (or in the build tree) comes before PATH.
  QString missing;
  request_.profile = withLocalTools(request.profile, &missing);
  if (!missing.isEmpty()) return finishWith(FailureKind::AnalyzerNotFound, missing);

  const ShellCommand command = shellCommand(request_.profile, runScript(request_.profile, job_));
  emit logLine(QStringLiteral("$ %1").arg(request.profile.isRemote() ? QStringLiteral("ssh %1 …").arg(request.profile.host)
                                                                      : QStringLiteral("sh -c …")));
  auto* process = new QProcess(this);
  process_ = process;
  connect(process, &QProcess::readyReadStandardOutput, this,
          [this, process] { handleOutput(QString::fromUtf8(process->readAllStandardOutput()), stdoutBuffer_, false); });
  connect(process, &QProcess::readyReadStandardError, this,
          [this, process] { handleOutput(QString::fromUtf8(process->readAllStandardError()), stderrBuffer_, false); });
  connect(process, &QProcess::finished, this, [this, process](int code, QProcess::ExitStatus status) {
    handleOutput(QString::fromUtf8(process->readAllStandardOutput()), stdoutBuffer_, true);
    handleOutput(QString::fromUtf8(process->readAllStandardError()), stderrBuffer_, true);
    process->deleteLater();
    const int exitCode = status == QProcess::NormalExit ? code : -1;
    if (request_.profile.launcher == LauncherKind::Batch) onSubmitted(exitCode);
    else onDirectFinished(exitCode);
  });
  connect(process, &QProcess::errorOccurred, this, [this, process](QProcess::ProcessError error) {
    if (error != QProcess::FailedToStart) return;
    process->deleteLater();
    finishWith(FailureKind::Unreachable, QStringLiteral("Cannot start %1: %2").arg(process->program(), process->errorString()));
  });
  process->setStandardInputFile(QProcess::nullDevice());
  process->start(command.program, command.arguments);
}

void AnalysisRunner::handleOutput(const QString& text, QString& buffer, bool flush) {
  buffer += text;
  qsizetype newline;
  while ((newline = buffer.indexOf(QLatin1Char('\n'))) >= 0) {
    const QString line = buffer.left(newline);
    buffer.remove(0, newline + 1);
    handleLine(line);
  }
  if (flush && !buffer.isEmpty()) {
    handleLine(buffer);
    buffer.clear();
  }
}

void AnalysisRunner::handleLine(const QString& rawLine) {
  const QString line = rawLine.endsWith(QLatin1Char('\r')) ? rawLine.chopped(1) : rawLine;
  output_ += line + QLatin1Char('\n');
  if (const auto step = parseProgressLine(line)) {
    emit progressChanged(step->phase, phaseTitle(step->phase), step->percent, step->overall);
    return;
  }
  const QString marker = QString::fromLatin1(kMarker);
  if (line.startsWith(marker + QStringLiteral("pgid "))) {
    pgid_ = line.mid(marker.size() + 5).trimmed().toLongLong();
    emit jobStarted(QString::number(pgid_));
    if (cancelRequested_) sendCancel();  // Cancel came before the job had started
    return;
  }
  if (line.startsWith(marker + QStringLiteral("job "))) {
    jobId_ = line.mid(marker.size() + 4).trimmed();
    emit jobStarted(jobId_);
    emit logLine(QStringLiteral("Submitted batch job %1").arg(jobId_));
    return;
  }
  if (line.startsWith(marker)) return;
  if (line.startsWith(QLatin1String("Warning: Permanently added"))) return;  // ssh's first-contact note
  emit logLine(line);
}

void AnalysisRunner::onDirectFinished(int exitCode) {
  if (state_ != State::Running) return;
  if (cancelRequested_) return finishWith(FailureKind::Cancelled, QStringLiteral("The analysis was cancelled."));
  if (request_.profile.isRemote() && (exitCode == 255 || (exitCode == -1 && pgid_ == 0))) {
    const Failure f = sshFailure(request_.profile, output_, pgid_ != 0);
    if (f.kind == FailureKind::ConnectionDropped)
      return finishWith(f.kind, QStringLiteral("The connection to %1 dropped during the analysis.").arg(request_.profile.displayHost()));
    return finishWith(f.kind, f.message);
  }
  if (const Failure f = analysisFailure(request_.profile, exitCode, output_)) return finishWith(f.kind, f.message);
  jobSucceeded();
}

void AnalysisRunner::onSubmitted(int exitCode) {
  if (state_ != State::Running) return;
  if (request_.profile.isRemote() && exitCode == 255) {
    const Failure f = sshFailure(request_.profile, output_, false);
    return finishWith(f.kind, f.message);
  }
  if (const Failure f = analysisFailure(request_.profile, exitCode, output_)) return finishWith(f.kind, f.message);
  if (jobId_.isEmpty()) return finishWith(FailureKind::AnalysisFailed, QStringLiteral("sbatch printed no job id."));
  if (cancelRequested_) sendCancel();
  poll();
}

void AnalysisRunner::poll() {
  if (state_ != State::Running || polling_) return;
  polling_ = true;
  runShellJob(request_.profile, batchPollScript(request_.profile, jobId_, job_, logOffset_), 120000, this,
              [this](const ShellResult& r) {
                polling_ = false;
                if (state_ != State::Running) return;
                if (!r.ok()) {
                  // A poll may fail on a flaky connection; the job keeps running on the cluster.
                  if (++pollFailures_ < 3) return pollTimer_.start();
                  const Failure f = request_.profile.isRemote() && r.exitCode == 255 ? sshFailure(request_.profile, r.err, true)
                                                                                      : Failure{FailureKind::ConnectionDropped, {}};
                  return finishWith(FailureKind::ConnectionDropped,
                                    QStringLiteral("The connection to %1 dropped while following batch job %2 (%3); the job "
                                                   "may still be running.")
                                        .arg(request_.profile.displayHost(), jobId_, f.message.isEmpty() ? r.err.trimmed() : f.message));
                }
                pollFailures_ = 0;
                const QByteArray logMarker = QByteArray(kMarker) + "log\n";
                const qsizetype logAt = r.out.indexOf(logMarker);
                const QString head = QString::fromUtf8(logAt >= 0 ? r.out.left(logAt) : r.out);
                const QByteArray log = logAt >= 0 ? r.out.mid(logAt + logMarker.size()) : QByteArray();
                logOffset_ += log.size();
                handleOutput(QString::fromUtf8(log), stdoutBuffer_, false);
                QString queueState, sacct;
                bool sawSacct = false;
                for (const QString& line : head.split(QLatin1Char('\n'))) {
                  const QString marker = QString::fromLatin1(kMarker);
                  if (line.startsWith(marker + QStringLiteral("state "))) queueState = line.mid(marker.size() + 6).trimmed();
                  if (line.startsWith(marker + QStringLiteral("sacct "))) {
                    sacct = line.mid(marker.size() + 6).trimmed();
                    sawSacct = true;
                  }
                }
                if (!queueState.isEmpty() || !sawSacct) return pollTimer_.start();
                handleOutput({}, stdoutBuffer_, true);
                onBatchDone(sacct);
              });
}

void AnalysisRunner::onBatchDone(const QString& sacct) {
  if (cancelRequested_) return finishWith(FailureKind::Cancelled, QStringLiteral("The batch job %1 was cancelled.").arg(jobId_));
  if (const Failure f = batchFailure(sacct, output_)) return finishWith(f.kind, f.message);
  if (const Failure f = analysisFailure(request_.profile, 0, output_)) return finishWith(f.kind, f.message);
  jobSucceeded();
}

void AnalysisRunner::jobSucceeded() {
  if (!request_.profile.isRemote()) {
    if (!QFileInfo(localReport_).isFile())
      return finishWith(FailureKind::AnalysisFailed, QStringLiteral("The analysis ended but wrote no report at %1.").arg(localReport_));
    setState(State::Succeeded);
    emit reportReady(localReport_);
    return;
  }
  startCopy();
}

void AnalysisRunner::startCopy() {
  setState(State::Copying);
  if (!fetcher_) {
    fetcher_ = new ReportFetcher(this);
    connect(fetcher_, &ReportFetcher::progress, this, &AnalysisRunner::copyProgress);
    connect(fetcher_, &ReportFetcher::resumed, this, [this](qint64 offset) {
      emit logLine(QStringLiteral("Continuing the copy of the report at byte %1").arg(offset));
    });
    connect(fetcher_, &ReportFetcher::succeeded, this, [this](const QString& path) {
      emit logLine(QStringLiteral("Report copied to %1 (checksum verified)").arg(path));
      // The trace stays where it is: the timeline asks that machine for slices.
      // Beside the report: the name of the profile and its host, never what it runs.
      const QString problem = writeRemoteOrigin(path, originOf(request_.profile, request_.trace, job_.report));
      if (!problem.isEmpty()) emit logLine(problem);
      setState(State::Succeeded);
      emit reportReady(path);
    });
    connect(fetcher_, &ReportFetcher::failed, this, [this] {
      if (cancelRequested_) return finishWith(FailureKind::Cancelled, QStringLiteral("The copy of the report was cancelled."));
      finishWith(fetcher_->failure().kind, fetcher_->failure().message);
    });
  }
  emit logLine(QStringLiteral("Copying the report %1 from %2").arg(job_.report, request_.profile.displayHost()));
  fetcher_->start(request_.profile, job_.report, localReport_);
}

void AnalysisRunner::retryCopy() {
  if (state_ != State::Failed || !request_.profile.isRemote()) return;
  // Only a copy can be retried: the job must have finished and produced its report.
  if (failure_.kind != FailureKind::ConnectionDropped && failure_.kind != FailureKind::CopyFailed &&
      failure_.kind != FailureKind::ChecksumMismatch && failure_.kind != FailureKind::Cancelled && failure_.kind != FailureKind::Unreachable)
    return;
  if (!fetcher_) return;
  failure_ = {};
  cancelRequested_ = false;
  finalElapsed_ = -1;
  startCopy();
}

void AnalysisRunner::cancel() {
  if (!isActive() || cancelRequested_) return;
  cancelRequested_ = true;
  emit logLine(QStringLiteral("Cancelling…"));
  if (state_ == State::Copying) return fetcher_->cancel();
  sendCancel();
  if (request_.profile.launcher != LauncherKind::Batch && pgid_ == 0) {
    // No job yet (ssh still connecting): ending ssh keeps the job from starting.
    QTimer::singleShot(5000, this, [this] {
      if (pgid_ == 0 && process_) process_->kill();
    });
  }
}

void AnalysisRunner::sendCancel() {
  const bool batch = request_.profile.launcher == LauncherKind::Batch;
  if (batch ? jobId_.isEmpty() : pgid_ == 0) return;  // sent when the job id / process group arrives
  if (cancelSent_) return;
  cancelSent_ = true;
  const QString script = batch ? cancelBatchScript(request_.profile, jobId_, job_) : cancelProcessGroupScript(pgid_);
  runShellJob(request_.profile, script, 30000, this, [this, batch](const ShellResult& r) {
    if (!r.ok()) emit logLine(QStringLiteral("Stopping the job failed: %1").arg(r.err.trimmed()));
    if (batch) {
      if (state_ == State::Running) pollTimer_.start(0);
    } else if (process_) {
      // The job's process group is gone; the connection ends by itself, or now.
      QTimer::singleShot(3000, process_.data(), [p = process_] {
        if (p) p->kill();
      });
    }
  });
}

void AnalysisRunner::finishWith(FailureKind kind, const QString& message) {
  pollTimer_.stop();
  failure_ = {kind, message};
  if (process_ && process_->state() != QProcess::NotRunning) process_->kill();
  emit logLine(message);
  setState(kind == FailureKind::Cancelled ? State::Cancelled : State::Failed);
  emit failed(message);
}

}  // namespace waitscope::launch
