#pragma once
// Shared pieces of the launcher tests: profiles that run the real analyzer on
// this machine (directly or through a test sshd), a copy of a real trace, fake
// programs (a slow analyzer, sbatch/squeue/sacct/scancel), and process checks.
#include <QString>
#include <QStringList>

#include "app/launch/connection_profile.h"

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

// Names made to break out of quoting, for traces, reports and programs: every
// placeholder of the job script template ({report} inside a name, ...),
// single and double quotes, $(), backquotes, ;, &, |, a newline, *, spaces and
// a leading -. Each tries to create a file named PWNED... where it runs.
QStringList craftedNames();

// Stand-in launchers in `directory`/bin: mpiexec, srun and printargs append
// their name and arguments to `log` as one record (readArgumentRecords);
// mpiexec and srun also write the file after -o (the report). Returns the bin directory.
QString writeArgumentRecorders(const QString& directory, const QString& log);
// The records of `log`, in order: {program name, arguments...}.
QList<QStringList> readArgumentRecords(const QString& log);

// Files named PWNED* in `directories` and below, and in the home and current
// directories: what a crafted name made run.
QStringList pwnedFiles(const QStringList& directories);

// What a trace path ("./" before a leading "-") or an analyzer path becomes as one argument of the job.
QString asArgument(const QString& path);

// The job script template of the crafted-name runs: every placeholder, as
// words, inside double quotes, inside single quotes run by sh -c, inside $(),
// in a here-document and in #SBATCH lines, ending with srun of the analyzer.
QString craftedBatchTemplate();

// A profile like `base` that starts the stand-ins of `recorders` (and the fake
// Slurm of `slurmBin` for batch) through `launcher`, with `analyzer` as analyzer.
waitscope::launch::ConnectionProfile craftedLaunchProfile(waitscope::launch::ConnectionProfile base,
                                                          waitscope::launch::LauncherKind launcher,
                                                          const QString& recorders, const QString& slurmBin,
                                                          const QString& analyzer);

// Analyzes `name`/traces.otf2 (created in `work`, the profile's working
// directory) with AnalysisRunner and checks that every program got exactly the
// names as arguments (records in `log`), that the job script is gone and that
// nothing in `watched` (and home, current directory) was created by a name.
// Fails the current test (QVERIFY) otherwise.
void checkCraftedLaunch(const waitscope::launch::ConnectionProfile& profile, const QString& work, const QString& name,
                        const QString& log, const QStringList& watched);

// The pids in a file (one per line).
QList<qint64> readPids(const QString& file);
bool processAlive(qint64 pid);

// The file's SHA-256 (hex).
QString sha256(const QString& path);

// A TCP port nobody listens on right now.
int freePort();

}  // namespace launchtest
