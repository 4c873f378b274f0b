#include "app/launch/profile_store.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <QStandardPaths>

namespace waitscope::launch {

namespace {

constexpr int kFormatVersion = 1;

QByteArray toDocument(const QList<ConnectionProfile>& profiles) {
  QJsonArray list;
  for (const ConnectionProfile& p : profiles) list.append(p.toJson());
  QJsonObject root;
  root["format"] = QStringLiteral("waitscope-connection-profiles");
  root["version"] = kFormatVersion;
  root["profiles"] = list;
  return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

bool setError(QString* error, const QString& message) {
  if (error) *error = message;
  return false;
}

}  // namespace

ProfileStore::ProfileStore(QString filePath) : filePath_(filePath.isEmpty() ? defaultFilePath() : std::move(filePath)) {}

QString ProfileStore::defaultFilePath() {
  return QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation) + QStringLiteral("/connection-profiles.json");
}

QList<ConnectionProfile> ProfileStore::defaultProfiles() {
  ConnectionProfile local;
  local.name = QStringLiteral("This computer");
  local.kind = ConnectionKind::Local;
  return {local};
}

QList<ConnectionProfile> ProfileStore::load(QString* error) const {
  if (!QFileInfo::exists(filePath_)) return defaultProfiles();
  QString why;
  QList<ConnectionProfile> profiles = importProfiles(filePath_, &why);
  if (!why.isEmpty()) {
    if (error) *error = why;
    return defaultProfiles();
  }
  return profiles;
}

bool ProfileStore::save(const QList<ConnectionProfile>& profiles, QString* error) const {
  return exportProfiles(profiles, filePath_, error);
}

bool ProfileStore::exportProfiles(const QList<ConnectionProfile>& profiles, const QString& path, QString* error) {
  QDir().mkpath(QFileInfo(path).absolutePath());
  QSaveFile file(path);  // never a half-written file
  if (!file.open(QIODevice::WriteOnly)) return setError(error, QStringLiteral("Cannot write %1: %2").arg(path, file.errorString()));
  file.write(toDocument(profiles));
  if (!file.commit()) return setError(error, QStringLiteral("Cannot write %1: %2").arg(path, file.errorString()));
  return true;
}

QList<ConnectionProfile> ProfileStore::importProfiles(const QString& path, QString* error) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) {
    setError(error, QStringLiteral("Cannot read %1: %2").arg(path, file.errorString()));
    return {};
  }
  QJsonParseError parseError;
  const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &parseError);
  const QJsonObject root = doc.object();
  if (doc.isNull() || root["format"].toString() != QLatin1String("waitscope-connection-profiles")) {
    setError(error, QStringLiteral("%1 is not a Waitscope connection profile file.").arg(path));
    return {};
  }
  if (root["version"].toInt() > kFormatVersion) {
    setError(error, QStringLiteral("%1 was written by a newer Waitscope.").arg(path));
    return {};
  }
  QList<ConnectionProfile> profiles;
  for (const QJsonValue& v : root["profiles"].toArray()) {
    ConnectionProfile p = ConnectionProfile::fromJson(v.toObject());
    if (p.name.trimmed().isEmpty()) p.name = QStringLiteral("Unnamed");
    p.name = uniqueProfileName(profiles, p.name);
    profiles << p;
  }
  return profiles;
}

QString uniqueProfileName(const QList<ConnectionProfile>& profiles, const QString& wanted) {
  auto used = [&](const QString& name) {
    for (const ConnectionProfile& p : profiles)
      if (p.name == name) return true;
    return false;
  };
  if (!used(wanted)) return wanted;
  for (int i = 2;; ++i) {
    const QString candidate = QStringLiteral("%1 (%2)").arg(wanted).arg(i);
    if (!used(candidate)) return candidate;
  }
}

}  // namespace waitscope::launch
