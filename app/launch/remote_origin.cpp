#include "app/launch/remote_origin.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

namespace waitscope::launch {

namespace {

constexpr int kFormatVersion = 2;

}  // namespace

RemoteOrigin originOf(const ConnectionProfile& profile, const QString& trace, const QString& report) {
  RemoteOrigin origin;
  origin.profileName = profile.name;
  origin.host = profile.isRemote() ? profile.host.trimmed() : QString();
  origin.port = profile.isRemote() ? profile.port : 0;
  origin.trace = trace;
  origin.report = report;
  return origin;
}

QString recordedDestination(const RemoteOrigin& origin) {
  if (origin.host.isEmpty()) return QStringLiteral("this computer");
  return origin.port > 0 ? QStringLiteral("%1 port %2").arg(origin.host).arg(origin.port) : origin.host;
}

QString remoteOriginPath(const QString& localReport) { return localReport + QStringLiteral(".remote.json"); }

QString writeRemoteOrigin(const QString& localReport, const RemoteOrigin& origin) {
  QJsonObject o;
  o[QStringLiteral("format")] = QStringLiteral("waitscope-remote-origin");
  o[QStringLiteral("version")] = kFormatVersion;
  o[QStringLiteral("profile")] = origin.profileName;
  o[QStringLiteral("host")] = origin.host;
  o[QStringLiteral("port")] = origin.port;
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
  const QJsonValue profile = o.value(QStringLiteral("profile"));
  if (profile.isObject()) {
    // Version 1 held the whole profile: its name, host and port are all that is used.
    const QJsonObject p = profile.toObject();
    const bool remote = p.value(QStringLiteral("kind")).toString() == QLatin1String("ssh");
    origin.profileName = p.value(QStringLiteral("name")).toString();
    origin.host = remote ? p.value(QStringLiteral("host")).toString().trimmed() : QString();
    origin.port = remote ? p.value(QStringLiteral("port")).toInt(0) : 0;
  } else {
    origin.profileName = profile.toString();
    origin.host = o.value(QStringLiteral("host")).toString().trimmed();
    origin.port = o.value(QStringLiteral("port")).toInt(0);
  }
  origin.trace = o.value(QStringLiteral("trace")).toString();
  origin.report = o.value(QStringLiteral("report")).toString();
  if (origin.trace.isEmpty() || origin.report.isEmpty()) return std::nullopt;
  return origin;
}

bool connectsTo(const ConnectionProfile& profile, const RemoteOrigin& origin) {
  const RemoteOrigin now = originOf(profile, {}, {});
  return now.host.compare(origin.host, Qt::CaseInsensitive) == 0 && now.port == origin.port;
}

ResolvedOrigin resolveRemoteOrigin(const RemoteOrigin& origin, const QList<ConnectionProfile>& profiles) {
  ResolvedOrigin resolved;
  for (const ConnectionProfile& p : profiles) {
    if (p.name != origin.profileName) continue;
    resolved.profile = p;
    resolved.match = connectsTo(p, origin) ? ResolvedOrigin::Match::Known : ResolvedOrigin::Match::HostDiffers;
    break;
  }
  return resolved;
}

}  // namespace waitscope::launch
