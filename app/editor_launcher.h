#pragma once
// "Open in editor": command templates for the editors developers use, with
// %f (file), %l (line) and %c (column) placeholders. A template is split into
// arguments first and the placeholders are filled in per argument, and the
// editor is started without a shell, so file names with spaces or quotes stay
// one argument and cannot run anything.
#include <QList>
#include <QString>
#include <QStringList>

namespace waitscope::app {

struct EditorTemplate {
  QString name;     // "VS Code"
  QString command;  // "code -g %f:%l:%c"
};

// The backend's presets (app/editor_command.h) in menu order, then "Custom" (empty command).
const QList<EditorTemplate>& editorTemplates();

// The program and its arguments for `command` opening `file` at `line` and
// `column` (1-based), expanded by report::expandEditorCommand. Empty when the
// command is empty or malformed.
QStringList editorArguments(const QString& command, const QString& file, int line, int column = 1);

// The first editor installed here (found on PATH), in the order VS Code, VSCodium, Kate,
// gedit, Vim in a terminal, Emacs, the desktop's default (xdg-open); null when none is.
const EditorTemplate* detectedEditor();

// The command chosen in the settings (default: the detected editor, else VS Code's, whose
// "not found" then says what to install), and storing a choice.
QString configuredEditorCommand();
void setConfiguredEditorCommand(const QString& command);

// Starts the editor detached; empty on success, else one line saying what to fix.
QString openInEditor(const QString& command, const QString& file, int line, int column = 1);

}  // namespace waitscope::app
