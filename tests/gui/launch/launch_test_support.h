#pragma once
// Shared pieces of the launcher tests: profiles that run the real analyzer on
// this machine (directly or through a test sshd), a copy of a real trace, fake
// programs (a slow analyzer, sbatch/squeue/sacct/scancel), and process checks.
#include <QString>
#include <QStringList>

#include "connection_profile.h"

namespace launchtest {

QString analyzerPath();    // the built waitscope-analyze
QString reportToolPath();  // the built waitscope-report

// Set-up lines that let Open MPI run as root on an oversubscribed machine.
QStringList mpiSetupLines();

// A local profile running the built analyzer with `workingDirectory`.
waitscope::launch::ConnectionProfile localProfile(const QString& workingDirectory = {});

// Copies the 2-rank Score-P ping-pong trace into `directory` (created) and returns its traces.otf2.
QString copyTrace(const QString& directory);

// Writes an executable script.
bool writeScript(const QString& path, const QString& text);

// A fake analyzer that prints progress lines, appends its pid to `pidFile` and sleeps 120 s.
QString writeSlowAnalyzer(const QString& directory, const QString& pidFile);

// Fake sbatch/squeue/sacct/scancel in `directory`/bin that really run the job script
// (in its own session), keeping job state in `directory`/state. Returns the bin directory.
QString writeFakeSlurm(const QString& directory);

// The pids in a file (one per line).
QList<qint64> readPids(const QString& file);
bool processAlive(qint64 pid);

// The file's SHA-256 (hex).
QString sha256(const QString& path);

// A TCP port nobody listens on right now.
int freePort();

}  // namespace launchtest
