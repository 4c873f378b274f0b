#include "app/launch/remote_scripts.h"

#include <QRegularExpression>
#include <QStringList>

#include "app/launch/batch_template.h"
#include "app/launch/shell_quote.h"

namespace waitscope::launch {

namespace {

QString marker(const QString& rest) { return shellQuote(QString::fromLatin1(kMarker) + rest); }

QString cdScript(const ConnectionProfile& p) {
  if (p.workingDirectory.trimmed().isEmpty()) return {};
  return QStringLiteral("cd %1 || { echo %2 >&2; exit 120; }\n")
      .arg(shellQuotePath(p.workingDirectory.trimmed()), marker(QStringLiteral("missing-workdir")));
}

QString launcherProgram(const ConnectionProfile& p) {
  switch (p.launcher) {
    case LauncherKind::Srun: return QStringLiteral("srun");
    case LauncherKind::Batch: return QStringLiteral("sbatch");
    case LauncherKind::Mpiexec: break;
  }
  return QStringLiteral("mpiexec");
}

QString requireScript(const QString& program, const QString& what) {
  return QStringLiteral("command -v %1 >/dev/null 2>&1 || { echo %2 >&2; exit 127; }\n")
      .arg(shellQuotePath(program), marker(what));
}

// The profile's extra launcher options, one shell word each (quoted: they are words, not code).
QString launcherOptions(const ConnectionProfile& p) {
  const QStringList words = p.mpiexecOptions.split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts);
  return words.isEmpty() ? QString() : shellJoin(words) + QLatin1Char(' ');
}

// A path as one word that no program can take for an option.
QString pathWord(const QString& path) {
  return shellQuotePath(path.startsWith(QLatin1Char('-')) ? QStringLiteral("./") + path : path);
}

}  // namespace

QString preambleScript(const ConnectionProfile& p) {
  QString s = cdScript(p);
  QStringList lines;
  for (const QString& line : p.setupLines)
    if (!line.trimmed().isEmpty()) lines << line;
  // Set-up output (module banners) goes to stderr so that stdout stays data.
  if (!lines.isEmpty()) s += QStringLiteral("{\n%1\n} >&2\n").arg(lines.join(QLatin1Char('\n')));
  return s;
}

QString batchScript(const ConnectionProfile& p, const AnalysisJob& job) {
  using Kind = BatchTemplateValue::Kind;
  const QString text = p.batchTemplate.trimmed().isEmpty() ? defaultBatchTemplate() : p.batchTemplate;
  return fillBatchTemplate(text, {
                                     {QStringLiteral("ranks"), QString::number(job.ranks), Kind::Word},
                                     {QStringLiteral("nodes"), p.nodes > 0 ? QString::number(p.nodes) : QString(), Kind::Word},
                                     {QStringLiteral("trace"), job.trace, Kind::Path},
                                     {QStringLiteral("report"), job.report, Kind::Path},
                                     {QStringLiteral("analyzer"), p.analyzerPath, Kind::Program},
                                     {QStringLiteral("account"), p.account, Kind::Word},
                                     {QStringLiteral("partition"), p.partition, Kind::Word},
                                     {QStringLiteral("time"), p.timeLimit, Kind::Word},
                                 });
}

QString batchJobScriptName(const AnalysisJob& job) {
  static const QRegularExpression name(QStringLiteral("^waitscope-job-[A-Za-z0-9_]+\\.sh$"));
  return name.match(job.jobScript).hasMatch() ? job.jobScript : QStringLiteral("waitscope-job.sh");
}

QString runScript(const ConnectionProfile& p, const AnalysisJob& job) {
  QString s = preambleScript(p);
  const QString launcher = launcherProgram(p);
  s += requireScript(launcher, QStringLiteral("missing-launcher ") + launcher);
  s += requireScript(p.analyzerPath, QStringLiteral("missing-analyzer"));
  if (p.launcher == LauncherKind::Batch) {
    // The job script is written with printf and one quoted word: no here-document
    // whose end marker a crafted file name could contain. It is removed when the
    // job has ended (batchPollScript), is cancelled, or could not be submitted.
    const QString script = batchJobScriptName(job);
    s += QStringLiteral("printf '%s\\n' %1 > %2 || exit 121\n").arg(shellQuote(batchScript(p, job)), script);
    s += QStringLiteral("id=$(sbatch --parsable --output %1 %2) || { rm -f %2; exit 122; }\n").arg(pathWord(job.batchLog), script);
    s += QStringLiteral("echo %1\"${id%%;*}\" >&2\n").arg(marker(QStringLiteral("job ")));
    return s;
  }
  // A new session (and process group) for the job, whose id is reported first, so
  // that Cancel can signal mpiexec and everything it started. The job's words are
  // passed as "$@": they are quoted once, for this shell only.
  const QString command = QStringLiteral("%1 %2-n %3 %4 %5 -o %6")
                              .arg(launcher, launcherOptions(p), QString::number(job.ranks),
                                   shellQuotePath(p.analyzerPath), pathWord(job.trace), pathWord(job.report));
  s += QStringLiteral("exec setsid -w /bin/sh -c 'echo \"%1pgid $$\" >&2; exec \"$@\"' waitscope-job %2\n")
           .arg(QString::fromLatin1(kMarker), command);
  return s;
}

QString batchPollScript(const ConnectionProfile& p, const QString& jobId, const AnalysisJob& job, qint64 logOffset) {
  QString s = preambleScript(p);
  const QString id = shellQuote(jobId);
  s += QStringLiteral("s=$(squeue -h -j %1 -o %T 2>/dev/null | head -n 1)\n").arg(id);
  s += QStringLiteral("echo %1\"$s\"\n").arg(marker(QStringLiteral("state ")));
  s += QStringLiteral("if [ -z \"$s\" ]; then rm -f %3; echo %1\"$(sacct -n -X -P -j %2 -o State,ExitCode 2>/dev/null | head -n 1)\"; fi\n")
           .arg(marker(QStringLiteral("sacct ")), id, batchJobScriptName(job));
  s += QStringLiteral("echo %1\n").arg(marker(QStringLiteral("log")));
  s += QStringLiteral("tail -c +%1 %2 2>/dev/null\nexit 0\n").arg(logOffset + 1).arg(pathWord(job.batchLog));
  return s;
}

QString cancelProcessGroupScript(qint64 pgid) {
  // TERM first (mpiexec then stops its ranks), KILL what is left after 5 s.
  const QString g = QString::number(pgid);
  return QStringLiteral(
             "kill -s TERM -- -%1 2>/dev/null || exit 0\n"
             "i=0\n"
             "while [ $i -lt 50 ]; do kill -s 0 -- -%1 2>/dev/null || exit 0; sleep 0.1; i=$((i+1)); done\n"
             "kill -s KILL -- -%1 2>/dev/null\nexit 0\n")
      .arg(g);
}

QString cancelBatchScript(const ConnectionProfile& p, const QString& jobId, const AnalysisJob& job) {
  return preambleScript(p) + QStringLiteral("scancel %1\nrm -f %2\n").arg(shellQuote(jobId), batchJobScriptName(job));
}

QString checkScript(const ConnectionProfile& p) {
  QString s = QStringLiteral("echo 'waitscope-check connected ok'\n");
  if (!p.workingDirectory.trimmed().isEmpty())
    s += QStringLiteral("cd %1 2>/dev/null && echo 'waitscope-check workdir ok' || echo 'waitscope-check workdir missing'\n")
             .arg(shellQuotePath(p.workingDirectory.trimmed()));
  QStringList lines;
  for (const QString& line : p.setupLines)
    if (!line.trimmed().isEmpty()) lines << line;
  if (!lines.isEmpty()) s += QStringLiteral("{\n%1\n} >/dev/null 2>&1\n").arg(lines.join(QLatin1Char('\n')));
  const QString analyzer = shellQuotePath(p.analyzerPath);
  s += QStringLiteral(
           "if command -v %1 >/dev/null 2>&1; then echo \"waitscope-check analyzer ok $(%1 --version 2>&1 | head -n 1)\"; "
           "else echo 'waitscope-check analyzer missing'; fi\n")
           .arg(analyzer);
  const QString launcher = launcherProgram(p);
  s += QStringLiteral(
           "if command -v %1 >/dev/null 2>&1; then echo \"waitscope-check launcher ok $(%1 %2 2>&1 | head -n 1)\"; "
           "else echo 'waitscope-check launcher missing'; fi\n")
           .arg(launcher, QStringLiteral("--version"));
  return s;
}

QString listDirectoryScript(const ConnectionProfile& p, const QString& directory) {
  QString s = cdScript(p);
  if (!directory.isEmpty()) s += QStringLiteral("cd %1 || exit 1\n").arg(shellQuotePath(directory));
  else if (p.workingDirectory.trimmed().isEmpty()) s += QStringLiteral("cd || exit 1\n");
  s += QStringLiteral("pwd\nLC_ALL=C ls -1Ap\n");
  return s;
}

QString traceStatsScript(const ConnectionProfile& p, const QString& trace) {
  return preambleScript(p) +
         QStringLiteral("%1 stats %2 --json\n").arg(shellQuotePath(p.reportToolPath()), pathWord(trace));
}

QString reportToolScript(const ConnectionProfile& p, const QStringList& arguments) {
  return preambleScript(p) + QStringLiteral("exec %1 %2\n").arg(shellQuotePath(p.reportToolPath()), shellJoin(arguments));
}

QString fileDigestScript(const ConnectionProfile& p, const QString& path) {
  const QString f = pathWord(path);
  return cdScript(p) + QStringLiteral("test -f %1 || { echo %2 >&2; exit 3; }\n"
                                      "echo \"$(wc -c < %1) $(sha256sum < %1 | cut -d ' ' -f 1)\"\n")
                           .arg(f, marker(QStringLiteral("missing-file")));
}

QString liveStatusScript(const QString& statusFile, const QString& report) {
  return QStringLiteral("if [ -f %1 ]; then exec cat %1; fi\nif [ -f %2 ]; then exit 4; fi\nexit 3\n")
      .arg(pathWord(statusFile), pathWord(report));
}

QString fileTailScript(const ConnectionProfile& p, const QString& path, qint64 offset) {
  return cdScript(p) + QStringLiteral("exec tail -c +%1 %2\n").arg(offset + 1).arg(pathWord(path));
}

}  // namespace waitscope::launch
