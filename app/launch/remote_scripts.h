#pragma once
// The POSIX shell scripts the launcher runs on a profile's machine. Every path,
// file name and number in them is quoted once, for the shell that reads it
// (shell_quote.h, batch_template.h); only the profile's own set-up lines and
// batch template are the user's shell text.
//
// Scripts report to the app with marker lines on stderr (run) or stdout (queries):
//   waitscope-launch: pgid N            the direct job's process group (cancel kills it)
//   waitscope-launch: job ID            the batch job's id (cancel runs scancel)
//   waitscope-launch: missing-workdir   cd into the working directory failed
//   waitscope-launch: missing-analyzer  the analyzer is not on PATH / not executable
//   waitscope-launch: missing-launcher NAME   mpiexec, srun or sbatch is missing
#include <QString>
#include <QStringList>

#include "app/launch/connection_profile.h"

namespace waitscope::launch {

inline constexpr const char* kMarker = "waitscope-launch: ";

struct AnalysisJob {
  QString trace;   // remote path of traces.otf2 (may start with ~/)
  QString report;  // remote path of the report to write
  int ranks = 1;
  QString batchLog;  // batch only: the job's output file (remote path)
  QString jobScript;  // batch only: waitscope-job-ID.sh, written in the working directory
};

// cd into the working directory (when set) and the set-up lines.
QString preambleScript(const ConnectionProfile& profile);

// Starts the analysis: direct mpiexec/srun in its own process group, or writes
// the job script and submits it with sbatch (prints the job id marker).
QString runScript(const ConnectionProfile& profile, const AnalysisJob& job);

// The batch job script: the template with its placeholders filled in, in one
// pass (batch_template.h). Lines whose placeholder has an empty value ({account}
// with no account) are left out.
QString batchScript(const ConnectionProfile& profile, const AnalysisJob& job);

// The job script's file name: job.jobScript when it is a waitscope-job-ID.sh, else waitscope-job.sh.
QString batchJobScriptName(const AnalysisJob& job);

// One poll of a batch job: "waitscope-launch: state S" (empty when the job left
// the queue), when it left "waitscope-launch: sacct STATE|EXIT" (and the job
// script is removed), then "waitscope-launch: log" and the job's output from
// byte `logOffset` on.
QString batchPollScript(const ConnectionProfile& profile, const QString& jobId, const AnalysisJob& job,
                        qint64 logOffset);

QString cancelProcessGroupScript(qint64 pgid);
// scancel, and the job script is removed.
QString cancelBatchScript(const ConnectionProfile& profile, const QString& jobId, const AnalysisJob& job);

// Test connection: prints "waitscope-check NAME ok|missing DETAIL" lines.
QString checkScript(const ConnectionProfile& profile);

// Lists a directory: first line its absolute path, then one entry per line, directories ending in "/".
// An empty `directory` lists the working directory (or the home directory).
QString listDirectoryScript(const ConnectionProfile& profile, const QString& directory);

// `waitscope-report stats TRACE --json` after the preamble.
QString traceStatsScript(const ConnectionProfile& profile, const QString& trace);

// `waitscope-report ARGS...` (the one beside the analyzer) after the preamble; stdout is the
// tool's output only. For the timeline's slices over the same connection:
//   shellCommand(profile, reportToolScript(profile, {"timeline", trace, ...}))
QString reportToolScript(const ConnectionProfile& profile, const QStringList& arguments);

// "SIZE SHA256" of a file (one line), for a verified copy.
QString fileDigestScript(const ConnectionProfile& profile, const QString& path);

// The bytes of a file from `offset` on (resumed copies).
QString fileTailScript(const ConnectionProfile& profile, const QString& path, qint64 offset);

// A live run's status file (app/live): prints `statusFile`; exit 3 when neither it nor `report`
// exists, 4 when `report` exists without it (a report that is no live run).
QString liveStatusScript(const QString& statusFile, const QString& report);

}  // namespace waitscope::launch
