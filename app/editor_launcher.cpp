#include "app/editor_launcher.h"

#include <QFileInfo>
#include <QProcess>
#include <QSettings>
#include <QStandardPaths>

#include <algorithm>
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

const EditorTemplate* detectedEditor() {
  // Programs each preset needs, in the order of preference (editors that go to a line first).
  static const QList<std::pair<QString, QStringList>> kOrder = {
      {QStringLiteral("VS Code"), {QStringLiteral("code")}},
      {QStringLiteral("VSCodium"), {QStringLiteral("codium")}},
      {QStringLiteral("Kate"), {QStringLiteral("kate")}},
      {QStringLiteral("gedit"), {QStringLiteral("gedit")}},
      {QStringLiteral("Vim (in a terminal)"), {QStringLiteral("x-terminal-emulator"), QStringLiteral("vim")}},
      {QStringLiteral("Emacs"), {QStringLiteral("emacsclient")}},
      {QStringLiteral("Desktop default (no line)"), {QStringLiteral("xdg-open")}},
  };
  for (const auto& [name, programs] : kOrder) {
    const bool installed = std::all_of(programs.begin(), programs.end(), [](const QString& program) {
      return !QStandardPaths::findExecutable(program).isEmpty();
    });
    if (!installed) continue;
    for (const EditorTemplate& t : editorTemplates())
      if (t.name == name) return &t;
  }
  return nullptr;
}

QString configuredEditorCommand() {
  const QVariant chosen = QSettings().value(QStringLiteral("editor/command"));
  if (chosen.isValid()) return chosen.toString();
  const EditorTemplate* detected = detectedEditor();
  return detected ? detected->command : editorTemplates().front().command;
}

void setConfiguredEditorCommand(const QString& command) {
  QSettings().setValue(QStringLiteral("editor/command"), command);
}

QString openInEditor(const QString& command, const QString& file, int line, int column) {
  const QStringList arguments = editorArguments(command, file, std::max(line, 1), std::max(column, 1));
  if (arguments.isEmpty())
    return QStringLiteral("No editor command is set: choose one under View > Choose Editor…");
  const QString program = arguments.front();
  if (QStandardPaths::findExecutable(program).isEmpty() && !QFileInfo(program).isExecutable())
    return QStringLiteral("%1: editor not found (install it, or choose another under View > Choose Editor…)").arg(program);
  if (!QProcess::startDetached(program, arguments.mid(1)))
    return QStringLiteral("%1: could not start the editor").arg(program);
  return {};
}

}  // namespace waitscope::app
