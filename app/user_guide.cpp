#include "app/user_guide.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace waitscope::app {

QStringList userGuideCandidates() {
  const QString name = QStringLiteral("user-guide.md");
  QStringList out;
  // An installation that was moved: bin/../share/doc/waitscope.
  out << QDir::cleanPath(QCoreApplication::applicationDirPath() + QStringLiteral("/../share/doc/waitscope/") + name);
  out << QDir::cleanPath(QStringLiteral(WAITSCOPE_INSTALL_DOCDIR "/") + name);
  out << QDir::cleanPath(QStringLiteral(WAITSCOPE_SOURCE_DOCS "/") + name);
  out.removeDuplicates();
  return out;
}

QString findUserGuide() {
  for (const QString& path : userGuideCandidates())
    if (QFileInfo(path).isFile()) return path;
  return {};
}

QString userGuideMissingMessage() {
  return QCoreApplication::translate("UserGuide", "user-guide.md is missing: not found in %1")
      .arg(userGuideCandidates().join(QStringLiteral(", ")));
}

}  // namespace waitscope::app
