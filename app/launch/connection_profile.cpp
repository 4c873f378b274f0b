#include "app/launch/connection_profile.h"

#include <algorithm>

#include <QJsonArray>

namespace waitscope::launch {

namespace {

QStringList toStringList(const QJsonValue& value) {
  QStringList out;
  for (const QJsonValue& v : value.toArray()) out << v.toString();
  return out;
}

}  // namespace

QString defaultBatchTemplate() {
  return QStringLiteral(
      "#!/bin/bash\n"
      "#SBATCH --job-name=waitscope\n"
      "#SBATCH --nodes={nodes}\n"
      "#SBATCH --ntasks={ranks}\n"
      "#SBATCH --time={time}\n"
      "#SBATCH --account={account}\n"
      "#SBATCH --partition={partition}\n"
      "srun -n {ranks} {analyzer} {trace} -o {report}\n");
}

QString ConnectionProfile::displayHost() const {
  if (!isRemote()) return QStringLiteral("this computer");
  return user.isEmpty() ? host : user + QLatin1Char('@') + host;
}

QString ConnectionProfile::reportToolPath() const {
  const qsizetype slash = analyzerPath.lastIndexOf(QLatin1Char('/'));
  if (slash < 0) return QStringLiteral("waitscope-report");
  return analyzerPath.left(slash + 1) + QStringLiteral("waitscope-report");
}

QString toString(ConnectionKind kind) { return kind == ConnectionKind::Ssh ? "ssh" : "local"; }

QString toString(LauncherKind kind) {
  switch (kind) {
    case LauncherKind::Srun: return QStringLiteral("srun");
    case LauncherKind::Batch: return QStringLiteral("batch");
    case LauncherKind::Mpiexec: break;
  }
  return QStringLiteral("mpiexec");
}

ConnectionKind connectionKindFromString(const QString& text) {
  return text == QLatin1String("ssh") ? ConnectionKind::Ssh : ConnectionKind::Local;
}

LauncherKind launcherKindFromString(const QString& text) {
  if (text == QLatin1String("srun")) return LauncherKind::Srun;
  if (text == QLatin1String("batch")) return LauncherKind::Batch;
  return LauncherKind::Mpiexec;
}

QJsonObject ConnectionProfile::toJson() const {
  QJsonObject o;
  o["name"] = name;
  o["kind"] = toString(kind);
  o["host"] = host;
  o["user"] = user;
  o["port"] = port;
  o["jumpHosts"] = QJsonArray::fromStringList(jumpHosts);
  o["identityFile"] = identityFile;
  o["reuseConnection"] = reuseConnection;
  o["controlPersistSeconds"] = controlPersistSeconds;
  o["workingDirectory"] = workingDirectory;
  o["setupLines"] = QJsonArray::fromStringList(setupLines);
  o["launcher"] = toString(launcher);
  o["mpiexecOptions"] = mpiexecOptions;
  o["batchTemplate"] = batchTemplate;
  o["account"] = account;
  o["partition"] = partition;
  o["timeLimit"] = timeLimit;
  o["nodes"] = nodes;
  o["analyzerPath"] = analyzerPath;
  o["analysisProcesses"] = analysisProcesses;
  return o;
}

ConnectionProfile ConnectionProfile::fromJson(const QJsonObject& o) {
  ConnectionProfile p;
  p.name = o["name"].toString();
  p.kind = connectionKindFromString(o["kind"].toString());
  p.host = o["host"].toString();
  p.user = o["user"].toString();
  p.port = o["port"].toInt(0);
  p.jumpHosts = toStringList(o["jumpHosts"]);
  p.identityFile = o["identityFile"].toString();
  p.reuseConnection = o["reuseConnection"].toBool(true);
  p.controlPersistSeconds = o["controlPersistSeconds"].toInt(600);
  p.workingDirectory = o["workingDirectory"].toString();
  p.setupLines = toStringList(o["setupLines"]);
  p.launcher = launcherKindFromString(o["launcher"].toString());
  p.mpiexecOptions = o["mpiexecOptions"].toString();
  p.batchTemplate = o["batchTemplate"].toString();
  p.account = o["account"].toString();
  p.partition = o["partition"].toString();
  p.timeLimit = o["timeLimit"].toString(QStringLiteral("00:30:00"));
  p.nodes = o["nodes"].toInt(1);
  p.analyzerPath = o["analyzerPath"].toString(QStringLiteral("waitscope-analyze"));
  p.analysisProcesses = std::max(0, o["analysisProcesses"].toInt(0));
  return p;
}

int analysisProcessesFor(const ConnectionProfile& p, int ranks, int cores) {
  int processes = ranks;
  if (p.analysisProcesses > 0) processes = p.analysisProcesses;
  else if (!p.isRemote()) processes = std::max(cores, 1);
  return std::max(1, std::min(processes, ranks));
}

}  // namespace waitscope::launch
