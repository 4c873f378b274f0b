#pragma once
// Saving and sharing connection profiles: one JSON file in the app's config
// directory, and the same format for export/import. Profiles hold no secrets
// (there are no password fields; unknown keys of an imported file are dropped).
#include <QList>
#include <QString>

#include "app/launch/connection_profile.h"

namespace waitscope::launch {

class ProfileStore {
 public:
  // `filePath` empty: defaultFilePath().
  explicit ProfileStore(QString filePath = {});

  // QStandardPaths::AppConfigLocation/connection-profiles.json
  static QString defaultFilePath();
  const QString& filePath() const { return filePath_; }

  // The saved profiles; a fresh installation (no file) gets defaultProfiles().
  // On an unreadable file: defaultProfiles() and `error` says why.
  QList<ConnectionProfile> load(QString* error = nullptr) const;
  bool save(const QList<ConnectionProfile>& profiles, QString* error = nullptr) const;

  static QList<ConnectionProfile> defaultProfiles();

  // Export/import to any file (same format). Import returns nothing and sets `error` on a bad file.
  static bool exportProfiles(const QList<ConnectionProfile>& profiles, const QString& path, QString* error = nullptr);
  static QList<ConnectionProfile> importProfiles(const QString& path, QString* error = nullptr);

 private:
  QString filePath_;
};

// A name not used by `profiles`: `wanted`, else "wanted (2)", "wanted (3)", ...
QString uniqueProfileName(const QList<ConnectionProfile>& profiles, const QString& wanted);

}  // namespace waitscope::launch
