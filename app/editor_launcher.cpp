#include "app/editor_launcher.h"

#include <QFileInfo>
#include <QProcess>
#include <QSettings>
#include <QStandardPaths>

#include <stdexcept>

#include "app/editor_command.h"

namespace waitscope::app {

const QList<EditorTemplate>& editorTemplates() {
  // The presets live in the backend (tested there, shared with the docs); "Custom" is the app's.
  static const QList<EditorTemplate> templates = [] {
    QList<EditorTemplate> out;
    for (const report::EditorPreset& p : report::editorPresets())
      out.push_back({QString::fromUtf8(p.name.data(), static_cast<qsizetype>(p.name.size())),
                     QString::fromUtf8(p.command.data(), static_cast<qsizetype>(p.command.size()))});
    out.push_back({QStringLiteral("Custom"), QString()});
    return out;
  }();
  return templates;
}

QStringList editorArguments(const QString& command, const QString& file, int line, int column) {
  QStringList out;
  try {
    for (const std::string& a : report::expandEditorCommand(command.toStdString(), file.toStdString(),
                                                            static_cast<std::uint32_t>(std::max(line, 0)),
                                                            static_cast<std::uint32_t>(std::max(column, 0))))
      out << QString::fromStdString(a);
  } catch (const std::invalid_argument&) {
    out.clear();  // empty command or an unterminated quote: nothing to start
  }
  return out;
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
