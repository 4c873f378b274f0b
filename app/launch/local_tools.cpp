#include "app/launch/local_tools.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

namespace waitscope::launch {

namespace {

bool isExecutableFile(const QString& path) {
  const QFileInfo info(path);
  return info.isFile() && info.isExecutable();
}

QString expandHome(const QString& path) {
  if (path == QLatin1String("~")) return QDir::homePath();
  if (path.startsWith(QLatin1String("~/"))) return QDir::homePath() + path.mid(1);
  return path;
}

}  // namespace

QStringList localToolDirectories(const QString& applicationDir) {
  const QString app = applicationDir.isEmpty() ? QCoreApplication::applicationDirPath() : applicationDir;
  QStringList dirs;
  const auto add = [&dirs](const QString& dir) {
    const QString clean = QDir::cleanPath(dir);
    if (!dir.isEmpty() && !dirs.contains(clean)) dirs << clean;
  };
  add(app);
  add(app + QStringLiteral("/../analysis/tools"));  // build/app/waitscope beside build/analysis/tools/
#ifdef WAITSCOPE_INSTALL_BINDIR
  add(QStringLiteral(WAITSCOPE_INSTALL_BINDIR));
#endif
  return dirs;
}

LocalTool findLocalTool(const QString& program, const QStringList& directories) {
  LocalTool tool;
  if (program.contains(QLatin1Char('/'))) {
    const QString path = expandHome(program);
    if (QFileInfo(path).isRelative()) {  // relative to the profile's working directory: the shell's to find
      tool.path = program;
      return tool;
    }
    tool.searched << path;
    if (isExecutableFile(path)) tool.path = path;
    return tool;
  }
  for (const QString& dir : directories) {
    const QString path = dir + QLatin1Char('/') + program;
    tool.searched << dir;
    if (isExecutableFile(path)) {
      tool.path = path;
      return tool;
    }
  }
  tool.searched << QStringLiteral("PATH");
  tool.path = QStandardPaths::findExecutable(program);
  return tool;
}

QString localToolMissing(const LocalTool& tool, const QString& program) {
  const QString name = QFileInfo(program).fileName();
  if (program.contains(QLatin1Char('/')))
    return QStringLiteral("%1 was not found at %2 (or is not executable); correct the analyzer's path in the profile "
                          "(Profiles…).")
        .arg(name, tool.searched.value(0));
  return QStringLiteral("%1 was not found in %2; build or install Waitscope's tools, or set the analyzer's path in the "
                        "profile (Profiles…).")
      .arg(name, tool.searched.join(QStringLiteral(", ")));
}

ConnectionProfile withLocalTools(ConnectionProfile profile, QString* error, const QStringList& directories) {
  if (profile.isRemote()) return profile;
  const QString program = profile.analyzerPath.trimmed().isEmpty() ? QStringLiteral("waitscope-analyze") : profile.analyzerPath.trimmed();
  const LocalTool analyzer = findLocalTool(program, directories);
  if (!analyzer) {
    // Set-up lines may put it on the job's PATH (module load ...): then the job's shell looks.
    if (error && profile.setupLines.join(QString()).trimmed().isEmpty()) *error = localToolMissing(analyzer, program);
    return profile;
  }
  profile.analyzerPath = analyzer.path;
  return profile;
}

}  // namespace waitscope::launch
