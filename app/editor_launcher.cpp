#include "editor_launcher.h"

#include <QFileInfo>
#include <QProcess>
#include <QSettings>
#include <QStandardPaths>

namespace waitscope::app {

const QList<EditorTemplate>& editorTemplates() {
  static const QList<EditorTemplate> templates = {
      {QStringLiteral("VS Code"), QStringLiteral("code -g %f:%l:%c")},
      {QStringLiteral("VSCodium"), QStringLiteral("codium -g %f:%l:%c")},
      {QStringLiteral("Qt Creator"), QStringLiteral("qtcreator -client %f:%l")},
      {QStringLiteral("CLion"), QStringLiteral("clion --line %l %f")},
      {QStringLiteral("KDevelop"), QStringLiteral("kdevelop %f:%l")},
      {QStringLiteral("Kate"), QStringLiteral("kate --line %l %f")},
      {QStringLiteral("Emacs"), QStringLiteral("emacsclient -n +%l:%c %f")},
      {QStringLiteral("Vim in a terminal"), QStringLiteral("x-terminal-emulator -e vim +%l %f")},
      {QStringLiteral("Custom"), QString()},
  };
  return templates;
}

QStringList editorArguments(const QString& command, const QString& file, int line, int column) {
  QStringList arguments = QProcess::splitCommand(command);
  for (QString& a : arguments) {
    QString filled;
    for (qsizetype i = 0; i < a.size(); ++i) {
      if (a[i] == QLatin1Char('%') && i + 1 < a.size()) {
        const QChar p = a[i + 1];
        if (p == QLatin1Char('f')) filled += file;
        else if (p == QLatin1Char('l')) filled += QString::number(line);
        else if (p == QLatin1Char('c')) filled += QString::number(column);
        else if (p == QLatin1Char('%')) filled += QLatin1Char('%');
        else filled += a.mid(i, 2);
        ++i;
      } else {
        filled += a[i];
      }
    }
    a = filled;
  }
  return arguments;
}

QString configuredEditorCommand() {
  return QSettings().value(QStringLiteral("editor/command"), editorTemplates().front().command).toString();
}

void setConfiguredEditorCommand(const QString& command) {
  QSettings().setValue(QStringLiteral("editor/command"), command);
}

QString openInEditor(const QString& command, const QString& file, int line, int column) {
  const QStringList arguments = editorArguments(command, file, std::max(line, 1), std::max(column, 1));
  if (arguments.isEmpty())
    return QStringLiteral("No editor command is set: choose one under View > Editor…");
  const QString program = arguments.front();
  if (QStandardPaths::findExecutable(program).isEmpty() && !QFileInfo(program).isExecutable())
    return QStringLiteral("%1: editor not found (install it, or choose another under View > Editor…)").arg(program);
  if (!QProcess::startDetached(program, arguments.mid(1)))
    return QStringLiteral("%1: could not start the editor").arg(program);
  return {};
}

}  // namespace waitscope::app
