#include "remote_origin.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

namespace waitscope::launch {

QString remoteOriginPath(const QString& localReport) { return localReport + QStringLiteral(".remote.json"); }

QString writeRemoteOrigin(const QString& localReport, const RemoteOrigin& origin) {
  QJsonObject o;
  o[QStringLiteral("format")] = QStringLiteral("waitscope-remote-origin");
  o[QStringLiteral("version")] = 1;
  o[QStringLiteral("profile")] = origin.profile.toJson();
  o[QStringLiteral("trace")] = origin.trace;
  o[QStringLiteral("report")] = origin.report;
  QSaveFile file(remoteOriginPath(localReport));
  if (!file.open(QIODevice::WriteOnly) || file.write(QJsonDocument(o).toJson()) < 0 || !file.commit())
    return QStringLiteral("%1: cannot write where the trace is (%2)").arg(remoteOriginPath(localReport), file.errorString());
  return {};
}

std::optional<RemoteOrigin> readRemoteOrigin(const QString& localReport) {
  QFile file(remoteOriginPath(localReport));
  if (!file.open(QIODevice::ReadOnly)) return std::nullopt;
  const QJsonObject o = QJsonDocument::fromJson(file.readAll()).object();
  if (o.value(QStringLiteral("format")).toString() != QLatin1String("waitscope-remote-origin")) return std::nullopt;
  RemoteOrigin origin;
  origin.profile = ConnectionProfile::fromJson(o.value(QStringLiteral("profile")).toObject());
  origin.trace = o.value(QStringLiteral("trace")).toString();
  origin.report = o.value(QStringLiteral("report")).toString();
  if (origin.trace.isEmpty() || origin.report.isEmpty()) return std::nullopt;
  return origin;
}

}  // namespace waitscope::launch
