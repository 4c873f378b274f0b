#pragma once
// Turns what ssh, mpiexec, Slurm and the analyzer print when something goes
// wrong into one plain sentence for the user, with a kind the app can act on.
#include <QString>

#include "app/launch/connection_profile.h"

namespace waitscope::launch {

enum class FailureKind {
  None,
  Unreachable,            // name does not resolve, connection refused or timed out
  AuthenticationRefused,  // no key the server accepts
  HostKeyMismatch,
  ConnectionDropped,      // the connection broke after it was made
  WorkingDirectoryMissing,
  AnalyzerNotFound,
  LauncherNotFound,       // mpiexec, srun or sbatch
  WrongRankCount,
  JobKilled,              // a signal, scancel by someone else, out of memory
  JobTimedOut,            // the batch job's time limit
  AnalysisFailed,         // the analyzer refused the trace or failed (its message is kept)
  Cancelled,              // the user pressed Cancel
  CopyFailed,             // the report could not be copied (see the message)
  ChecksumMismatch,
};

struct Failure {
  FailureKind kind = FailureKind::None;
  QString message;  // one line
  explicit operator bool() const { return kind != FailureKind::None; }
};

// The failure of an ssh invocation that exited with 255 (ssh's own error), from
// its stderr. `connected` says whether this connection had worked before (the
// run had started, the copy had begun): then a broken connection "dropped".
Failure sshFailure(const ConnectionProfile& profile, const QString& stderrText, bool connected);

// What went wrong, in one line, from a failed job's output: the analyzer's own
// "waitscope-analyze: ..." line, else the launcher's cause (MPICH's Hydra error,
// "mpiexec: Error: ...", the first sentence of an Open MPI help box), never the
// boilerplate that follows ("Primary job terminated normally, ...", "BAD
// TERMINATION ..."); else the last line. Empty for empty output.
QString failureCause(const QString& output);

// The failure of an analysis job from its exit code and its output (mpiexec's
// and the analyzer's stderr, or the batch job's log). None when it succeeded.
// `exitCode` -1: the launcher process was killed by a signal.
Failure analysisFailure(const ConnectionProfile& profile, int exitCode, const QString& output);

// The failure of a batch job from sacct's "STATE|EXITCODE" (empty when sacct
// knows nothing). None for COMPLETED with exit code 0:0.
Failure batchFailure(const QString& sacctLine, const QString& log);

}  // namespace waitscope::launch
