#pragma once
// "Open in editor": command templates of the usual editors and their expansion
// into an argument list (program first). Expansion happens after splitting, so
// a file name with spaces stays one argument and no shell is involved; the app
// hands the list to QProcess::startDetached. No Qt here, so it is tested with
// the backend.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace waitscope::report {

struct EditorPreset {
  std::string_view id;        // "vscode": stable, for settings
  std::string_view name;      // "VS Code": for the settings dialog
  std::string_view command;   // "code -g %f:%l:%c"
};

// VS Code, VSCodium, Qt Creator, CLion, KDevelop, Kate, Emacs, Vim in a
// terminal, gedit and the desktop's default application for the file
// (xdg-open, which cannot go to a line), in that order (a custom template is
// the app's free text).
const std::vector<EditorPreset>& editorPresets();

// The preset with this id, or nullptr.
const EditorPreset* findEditorPreset(std::string_view id);

// `command` split into arguments at unquoted blanks ("..." and '...' group and
// are removed), then in every argument %f becomes `file`, %l `line`, %c
// `column` and %% a '%'. Throws std::invalid_argument with a one-line reason
// for an empty command or an unterminated quote.
std::vector<std::string> expandEditorCommand(std::string_view command, const std::string& file, std::uint32_t line,
                                             std::uint32_t column = 1);

}  // namespace waitscope::report
