#pragma once
// A connection profile: where and how an analysis runs. Local profiles run the
// analyzer on this machine; SSH profiles run it on a cluster through the user's
// OpenSSH client (keys and agent; no password or passphrase is ever stored).
#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace waitscope::launch {

enum class ConnectionKind { Local, Ssh };

// How the analyzer's MPI job is started.
enum class LauncherKind {
  Mpiexec,  // mpiexec -n N waitscope-analyze ...
  Srun,     // srun -n N waitscope-analyze ...   (inside an allocation or interactive partition)
  Batch,    // a job script from batchTemplate, submitted with sbatch, followed with squeue/sacct
};

struct ConnectionProfile {
  QString name;
  ConnectionKind kind = ConnectionKind::Local;

  // SSH only. `host` is a host name or an alias from ~/.ssh/config; empty fields
  // leave the choice to the user's ssh configuration.
  QString host;
  QString user;
  int port = 0;                  // 0: ssh's default (or the alias's Port)
  QStringList jumpHosts;         // [user@]host[:port], passed to ssh -J in order
  QString identityFile;          // a private key file (its passphrase stays with ssh-agent)
  bool reuseConnection = true;   // ControlMaster=auto + ControlPersist
  int controlPersistSeconds = 600;

  // Both kinds.
  QString workingDirectory;      // where the job runs and the report is written; may start with ~/
  QStringList setupLines;        // shell lines run first, e.g. "module load openmpi otf2"
  LauncherKind launcher = LauncherKind::Mpiexec;
  QString mpiexecOptions;        // extra words after mpiexec/srun, e.g. "--oversubscribe" (split on spaces)
  QString batchTemplate;         // job script with {ranks} {trace} {report} {analyzer} {account} {partition} {time} {nodes}
  QString account;
  QString partition;
  QString timeLimit = QStringLiteral("00:30:00");
  int nodes = 1;
  QString analyzerPath = QStringLiteral("waitscope-analyze");
  // Analysis processes (each analyzes a block of the trace's ranks, the same report): 0 chooses,
  // one per core here and one per rank on a cluster; else at most this many.
  int analysisProcesses = 0;

  bool isRemote() const { return kind == ConnectionKind::Ssh; }
  // "user@host" (or "host") for messages.
  QString displayHost() const;
  // The waitscope-report next to the analyzer (same directory), or the one on PATH.
  QString reportToolPath() const;

  QJsonObject toJson() const;
  static ConnectionProfile fromJson(const QJsonObject& object);
  friend bool operator==(const ConnectionProfile&, const ConnectionProfile&) = default;
};

// How many analysis processes `p` starts for a trace of `ranks` MPI ranks on a machine with
// `cores` cores (the local one): never more than the ranks, at least 1.
int analysisProcessesFor(const ConnectionProfile& p, int ranks, int cores);

// The job script used when a batch profile has none of its own.
QString defaultBatchTemplate();

QString toString(ConnectionKind kind);
QString toString(LauncherKind kind);
ConnectionKind connectionKindFromString(const QString& text);
LauncherKind launcherKindFromString(const QString& text);

}  // namespace waitscope::launch
