#include "app/editor_command.h"

#include <stdexcept>

namespace waitscope::report {

const std::vector<EditorPreset>& editorPresets() {
  static const std::vector<EditorPreset> kPresets = {
      {"vscode", "VS Code", "code -g %f:%l:%c"},
      {"vscodium", "VSCodium", "codium -g %f:%l:%c"},
      {"qtcreator", "Qt Creator", "qtcreator -client %f:%l"},
      {"clion", "CLion", "clion --line %l %f"},
      {"kdevelop", "KDevelop", "kdevelop %f:%l"},
      {"kate", "Kate", "kate --line %l --column %c %f"},
      {"emacs", "Emacs", "emacsclient -n +%l %f"},
      {"vim", "Vim (in a terminal)", "x-terminal-emulator -e vim +%l %f"},
      {"gedit", "gedit", "gedit +%l:%c %f"},
      {"xdg-open", "Desktop default (no line)", "xdg-open %f"},
  };
  return kPresets;
}

const EditorPreset* findEditorPreset(std::string_view id) {
  for (const EditorPreset& p : editorPresets())
    if (p.id == id) return &p;
  return nullptr;
}

std::vector<std::string> expandEditorCommand(std::string_view command, const std::string& file, std::uint32_t line,
                                             std::uint32_t column) {
  // Split first, so that what is substituted is never split or unquoted.
  std::vector<std::string> words;
  std::string word;
  bool inWord = false;
  char quote = 0;
  for (const char c : command) {
    if (quote != 0) {
      if (c == quote) quote = 0;
      else word += c;
    } else if (c == '"' || c == '\'') {
      quote = c;
      inWord = true;
    } else if (c == ' ' || c == '\t') {
      if (inWord) words.push_back(std::move(word));
      word.clear();
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (quote != 0) throw std::invalid_argument(std::string("editor command: unterminated ") + quote + " quote");
  if (inWord) words.push_back(std::move(word));
  if (words.empty() || words[0].empty()) throw std::invalid_argument("editor command: no program given");

  for (std::string& w : words) {
    std::string out;
    for (std::size_t i = 0; i < w.size(); ++i) {
      if (w[i] != '%' || i + 1 == w.size()) {
        out += w[i];
        continue;
      }
      switch (w[++i]) {
        case 'f': out += file; break;
        case 'l': out += std::to_string(line); break;
        case 'c': out += std::to_string(column); break;
        case '%': out += '%'; break;
        default: out += '%', out += w[i];  // not ours: kept as written
      }
    }
    w = std::move(out);
  }
  return words;
}

}  // namespace waitscope::report
