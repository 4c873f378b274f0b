#pragma once
// Runs one analysis on a profile's machine and brings its report home:
//   direct (mpiexec/srun): `ssh HOST 'cd DIR && <set-up> && setsid mpiexec -n N waitscope-analyze ...'`
//     (or the same script through /bin/sh for local profiles), progress from the analyzer's stderr;
//   batch: the job script is submitted with sbatch and followed with squeue/sacct, progress from its log;
// then, for SSH profiles, the report is copied back (ReportFetcher: resumable, checksum verified).
// Cancel stops the job where it runs: the job's process group for direct runs, scancel for batch jobs.
// Everything is asynchronous (QProcess): nothing here blocks the GUI thread.
#include <QElapsedTimer>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QTimer>

#include "app/launch/connection_profile.h"
#include "app/launch/launch_failure.h"
#include "app/launch/remote_scripts.h"

class QProcess;

namespace waitscope::launch {

class ReportFetcher;

class AnalysisRunner : public QObject {
  Q_OBJECT
 public:
  enum class State { Idle, Running, Copying, Succeeded, Failed, Cancelled };
  Q_ENUM(State)

  struct Request {
    ConnectionProfile profile;
    QString trace;         // traces.otf2 on the profile's machine
    int ranks = 1;
    QString remoteReport;  // empty: <working dir>/<archive>.waitscope, or beside the trace (defaultRemoteReport)
    QString localReport;   // SSH only; empty: in the app's cache directory
  };

  explicit AnalysisRunner(QObject* parent = nullptr);
  ~AnalysisRunner() override;

  void start(const Request& request);
  // Stops the job (and the copy). Safe in any state.
  void cancel();
  // After a failed copy: continues it where it stopped.
  void retryCopy();

  // The last request (profile, remote trace): what the timeline of a remote trace needs
  // along with remoteReport() to ask for slices with runReportTool().
  const Request& request() const { return request_; }
  State state() const { return state_; }
  bool isActive() const { return state_ == State::Running || state_ == State::Copying; }
  const Failure& failure() const { return failure_; }
  qint64 elapsedMs() const;
  const QString& remoteReport() const { return job_.report; }
  const QString& localReport() const { return localReport_; }
  const QString& batchJobId() const { return jobId_; }
  qint64 processGroup() const { return pgid_; }
  void setBatchPollInterval(int ms) { pollTimer_.setInterval(ms); }

  // With a working directory: <archive>.waitscope there; else beside the trace, named after
  // it (<dir>/<trace>.waitscope, <archive>/<archive>.waitscope for Score-P's traces.otf2).
  static QString defaultRemoteReport(const ConnectionProfile& profile, const QString& trace);
  static QString defaultLocalReport(const ConnectionProfile& profile, const QString& remoteReport);

 signals:
  void stateChanged(waitscope::launch::AnalysisRunner::State state);
  // phase as printed (read, replay, ...), its title for people, percent within it, overall percent.
  void progressChanged(const QString& phase, const QString& title, int phasePercent, int overallPercent);
  void logLine(const QString& line);
  void copyProgress(qint64 bytes, qint64 total);
  // The job started: process group (direct) or job id (batch).
  void jobStarted(const QString& id);
  void reportReady(const QString& localPath);
  void failed(const QString& message);

 private:
  void setState(State state);
  void finishWith(FailureKind kind, const QString& message);
  void handleOutput(const QString& text, QString& buffer, bool flush);
  void handleLine(const QString& line);
  void onDirectFinished(int exitCode);
  void onSubmitted(int exitCode);
  void poll();
  void onBatchDone(const QString& sacct);
  void jobSucceeded();
  void startCopy();
  void sendCancel();

  Request request_;
  AnalysisJob job_;
  QString localReport_;
  State state_ = State::Idle;
  Failure failure_;
  QPointer<QProcess> process_;
  ReportFetcher* fetcher_ = nullptr;
  QString stdoutBuffer_, stderrBuffer_, output_;
  qint64 pgid_ = 0;
  QString jobId_;
  qint64 logOffset_ = 0;
  int pollFailures_ = 0;
  bool polling_ = false;
  bool cancelRequested_ = false;
  bool cancelSent_ = false;
  QTimer pollTimer_;
  QElapsedTimer clock_;
  qint64 finalElapsed_ = -1;
};

}  // namespace waitscope::launch
