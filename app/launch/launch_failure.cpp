#include "app/launch/launch_failure.h"

#include <QRegularExpression>
#include <QStringList>

#include "app/launch/remote_scripts.h"

namespace waitscope::launch {

namespace {

QString lastMeaningfulLine(const QString& text) {
  const QStringList lines = text.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
  for (qsizetype i = lines.size() - 1; i >= 0; --i) {
    const QString l = lines[i].trimmed();
    if (l.isEmpty() || l.startsWith(QLatin1String("progress ")) || l.startsWith(QLatin1String(kMarker)) ||
        l.startsWith(QLatin1String("---")) || l.startsWith(QLatin1String("Warning: Permanently added")))
      continue;
    return l;
  }
  return {};
}

bool isNoise(const QString& l) {
  return l.isEmpty() || l.startsWith(QLatin1String("progress ")) || l.startsWith(QLatin1String(kMarker)) ||
         l.startsWith(QLatin1String("Warning: Permanently added"));
}

// A ruler of Open MPI's help boxes ("-----") or MPICH's banner ("=====").
bool isRuler(const QString& l) {
  static const QRegularExpression ruler(QStringLiteral("^(-{5,}|={5,}|\\*{5,})$"));
  return ruler.match(l).hasMatch();
}

// Open MPI's boxes that only report the consequence of another process's failure.
bool isConsequence(const QString& paragraph) {
  return paragraph.contains(QLatin1String("terminated normally, but")) ||
         paragraph.contains(QLatin1String("detected that one or more processes exited with non-zero status")) ||
         paragraph.contains(QLatin1String("BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES"));
}

QString hostWords(const ConnectionProfile& p) {
  QString s = p.displayHost();
  if (p.port > 0) s += QStringLiteral(" (port %1)").arg(p.port);
  return s;
}

}  // namespace

QString failureCause(const QString& output) {
  QStringList lines;
  for (const QString& raw : output.split(QLatin1Char('\n'))) {
    const QString l = raw.trimmed();
    if (!l.startsWith(QLatin1String("progress ")) && !l.startsWith(QLatin1String(kMarker)) &&
        !l.startsWith(QLatin1String("Warning: Permanently added")))
      lines << l;
  }
  // 1. The analyzer's (or another Waitscope tool's) own words.
  static const QRegularExpression tool(QStringLiteral("^waitscope-[a-z-]+: "));
  for (const QString& l : lines)
    if (tool.match(l).hasMatch()) return l;
  // 2. What the launcher says went wrong, first one first: MPICH's Hydra lines
  //    ("[proxy:0:0@vm] HYDU_create_process (utils/launch/launch.c:73): execvp error on file ..."),
  //    "mpiexec: Error: ..." lines, MPICH's exit string, and the first sentence of an Open MPI help box.
  static const QRegularExpression hydra(QStringLiteral("^\\[[^\\]]+@[^\\]]*\\] \\S+ \\([^)]*\\): (.+)$"));
  static const QRegularExpression launcher(QStringLiteral("^(mpiexec|mpirun|srun|sbatch|orterun|prterun)(\\.\\w+)?: .+"));
  QString consequence;
  for (qsizetype i = 0; i < lines.size(); ++i) {
    const QString& l = lines[i];
    if (const auto m = hydra.match(l); m.hasMatch()) return m.captured(1);
    if (launcher.match(l).hasMatch() || l.startsWith(QLatin1String("YOUR APPLICATION TERMINATED WITH THE EXIT STRING:")))
      return l;
    if (!isRuler(l)) continue;
    // A box: its first sentence, and the line after it when the sentence ends in ":".
    QStringList paragraph;
    qsizetype j = i + 1;
    while (j < lines.size() && lines[j].isEmpty()) ++j;
    for (; j < lines.size() && !lines[j].isEmpty() && !isRuler(lines[j]); ++j) {
      paragraph << lines[j];
      if (lines[j].endsWith(QLatin1Char('.')) || lines[j].endsWith(QLatin1Char(':'))) {
        ++j;
        break;
      }
    }
    // The box ends at the next ruler: its closing one is no box of its own.
    qsizetype close = j;
    while (close < lines.size() && !isRuler(lines[close])) ++close;
    i = close;
    if (paragraph.isEmpty()) continue;
    QString text = paragraph.join(QLatin1Char(' '));
    if (text.endsWith(QLatin1Char(':'))) {
      while (j < lines.size() && lines[j].isEmpty()) ++j;
      if (j < lines.size() && !isRuler(lines[j])) text += QLatin1Char(' ') + lines[j];
    }
    if (isConsequence(text)) {
      if (consequence.isEmpty()) consequence = text;
      continue;
    }
    return text;
  }
  if (!consequence.isEmpty()) return consequence;
  for (qsizetype i = lines.size() - 1; i >= 0; --i)
    if (!isNoise(lines[i]) && !isRuler(lines[i])) return lines[i];
  return {};
}

Failure sshFailure(const ConnectionProfile& p, const QString& err, bool connected) {
  const QString host = hostWords(p);
  if (err.contains(QLatin1String("Permission denied")) || err.contains(QLatin1String("Too many authentication failures")))
    return {FailureKind::AuthenticationRefused,
            QStringLiteral("Authentication refused by %1: no key it accepts (add your key with ssh-add or set the "
                           "identity file in the profile).")
                .arg(host)};
  if (err.contains(QLatin1String("Host key verification failed")) ||
      err.contains(QLatin1String("REMOTE HOST IDENTIFICATION HAS CHANGED")))
    return {FailureKind::HostKeyMismatch,
            QStringLiteral("The host key of %1 does not match the one in known_hosts; check with your administrator.")
                .arg(host)};
  if (err.contains(QLatin1String("Could not resolve hostname")))
    return {FailureKind::Unreachable, QStringLiteral("Cannot reach %1: the host name is unknown.").arg(host)};
  if (!connected) {
    if (err.contains(QLatin1String("Connection refused")))
      return {FailureKind::Unreachable,
              QStringLiteral("Cannot reach %1: the connection was refused (no SSH server on that port).").arg(host)};
    if (err.contains(QLatin1String("timed out")) || err.contains(QLatin1String("No route to host")) ||
        err.contains(QLatin1String("Network is unreachable")))
      return {FailureKind::Unreachable, QStringLiteral("Cannot reach %1: no answer from the host.").arg(host)};
    if (err.contains(QLatin1String("Connection closed")) || err.contains(QLatin1String("Connection reset")) ||
        err.contains(QLatin1String("kex_exchange_identification")))
      return {FailureKind::Unreachable, QStringLiteral("Cannot reach %1: the server closed the connection.").arg(host)};
  }
  if (connected)
    return {FailureKind::ConnectionDropped, QStringLiteral("The connection to %1 dropped.").arg(host)};
  const QString detail = lastMeaningfulLine(err);
  return {FailureKind::Unreachable, QStringLiteral("ssh to %1 failed: %2").arg(host, detail.isEmpty() ? "no reason given" : detail)};
}

Failure analysisFailure(const ConnectionProfile& p, int exitCode, const QString& out) {
  const QString m = QString::fromLatin1(kMarker);
  if (out.contains(m + QStringLiteral("missing-workdir")))
    return {FailureKind::WorkingDirectoryMissing,
            QStringLiteral("The working directory %1 does not exist on %2.").arg(p.workingDirectory, p.displayHost())};
  if (out.contains(m + QStringLiteral("missing-analyzer")))
    return {FailureKind::AnalyzerNotFound,
            QStringLiteral("The analyzer \"%1\" was not found on %2; set its path in the profile.")
                .arg(p.analyzerPath, p.displayHost())};
  static const QRegularExpression missingLauncher(QStringLiteral("waitscope-launch: missing-launcher (\\S+)"));
  if (const auto match = missingLauncher.match(out); match.hasMatch())
    return {FailureKind::LauncherNotFound,
            QStringLiteral("%1 was not found on %2; add the set-up line that provides it (e.g. module load openmpi).")
                .arg(match.captured(1), p.displayHost())};
  static const QRegularExpression wrongRanks(QStringLiteral("the trace has (\\d+) MPI ranks but waitscope-analyze runs on (\\d+)"));
  if (const auto match = wrongRanks.match(out); match.hasMatch())
    return {FailureKind::WrongRankCount,
            QStringLiteral("Wrong number of ranks: the trace has %1 MPI ranks, the analysis was started with %2 processes; "
                           "start it with at most %1.")
                .arg(match.captured(1), match.captured(2))};
  // mpiexec's own "could not find/execute" (an analyzer that is not executable on the compute nodes).
  if (out.contains(QLatin1String("was unable to find the specified executable")) ||
      out.contains(QLatin1String("was unable to launch the specified application")) ||
      out.contains(QLatin1String("execvp error on file")))
    return {FailureKind::AnalyzerNotFound,
            QStringLiteral("mpiexec could not start the analyzer \"%1\" on %2: %3")
                .arg(p.analyzerPath, p.displayHost(), failureCause(out))};
  static const QRegularExpression notEnoughSlots(QStringLiteral("There are not enough slots available in the system to satisfy the (\\d+)"));
  if (const auto match = notEnoughSlots.match(out); match.hasMatch())
    return {FailureKind::WrongRankCount,
            QStringLiteral("mpiexec has not enough slots for %1 ranks on %2: add --oversubscribe to the profile's "
                           "launcher options, or run on more nodes.")
                .arg(match.captured(1), p.displayHost())};
  if (exitCode == 0) return {};
  if (exitCode == -1)  // the launcher itself died from a signal (QProcess::CrashExit)
    return {FailureKind::JobKilled, QStringLiteral("The analysis job was killed before it finished.")};
  // Open MPI: "exited on signal 9 (Killed)"; MPICH: "EXIT STRING: Killed (signal 9)".
  static const QRegularExpression signal(QStringLiteral("exited on signal (\\d+)|EXIT STRING: .*\\(signal (\\d+)\\)"));
  int signalNumber = 0;
  if (const auto match = signal.match(out); match.hasMatch())
    signalNumber = (match.captured(1).isEmpty() ? match.captured(2) : match.captured(1)).toInt();
  else if (exitCode > 128 && exitCode < 160) signalNumber = exitCode - 128;
  if (signalNumber == 9 || signalNumber == 15 || out.contains(QLatin1String("Killed")))
    return {FailureKind::JobKilled,
            QStringLiteral("The analysis job was killed (signal %1) before it finished.").arg(signalNumber ? signalNumber : 9)};
  if (signalNumber > 0)
    return {FailureKind::AnalysisFailed, QStringLiteral("The analyzer crashed (signal %1).").arg(signalNumber)};
  const QString detail = failureCause(out);
  return {FailureKind::AnalysisFailed,
          detail.isEmpty() ? QStringLiteral("The analysis failed (exit code %1).").arg(exitCode)
                           : QStringLiteral("The analysis failed: %1").arg(detail)};
}

Failure batchFailure(const QString& sacctLine, const QString& log) {
  const QStringList fields = sacctLine.trimmed().split(QLatin1Char('|'));
  const QString state = fields.value(0).section(QLatin1Char(' '), 0, 0);
  const QString exit = fields.value(1);
  if (state.isEmpty() || state == QLatin1String("COMPLETED")) {
    if (exit.isEmpty() || exit == QLatin1String("0:0")) return {};
    return {FailureKind::AnalysisFailed, QStringLiteral("The batch job failed (exit code %1).").arg(exit)};
  }
  if (state == QLatin1String("TIMEOUT") || state == QLatin1String("DEADLINE"))
    return {FailureKind::JobTimedOut, QStringLiteral("The batch job reached its time limit; raise the time limit in the profile.")};
  if (state == QLatin1String("CANCELLED") || state == QLatin1String("PREEMPTED"))
    return {FailureKind::JobKilled, QStringLiteral("The batch job was cancelled (%1).").arg(fields.value(0).trimmed())};
  if (state == QLatin1String("OUT_OF_MEMORY"))
    return {FailureKind::JobKilled, QStringLiteral("The batch job was killed: out of memory.")};
  if (state == QLatin1String("NODE_FAIL"))
    return {FailureKind::JobKilled, QStringLiteral("The batch job was killed: a node failed.")};
  // FAILED and others: Slurm's ExitCode is "exit:signal"; the analyzer's own message says why.
  const int exitCode = exit.section(QLatin1Char(':'), 0, 0).toInt();
  const int signalNumber = exit.section(QLatin1Char(':'), 1, 1).toInt();
  ConnectionProfile none;
  Failure f = analysisFailure(none, signalNumber ? 128 + signalNumber : (exitCode ? exitCode : 1), log);
  f.message.replace(QStringLiteral("The analysis job"), QStringLiteral("The batch job"));
  f.message.replace(QStringLiteral("The analysis failed"), QStringLiteral("The batch job failed"));
  f.message.replace(QStringLiteral("The analyzer crashed"), QStringLiteral("The batch job's analyzer crashed"));
  return f;
}

}  // namespace waitscope::launch
