// "Open in editor" command templates: the presets and custom templates expand
// into argument lists (no shell), file names with spaces stay one argument.
#include <gtest/gtest.h>

#include <stdexcept>

#include "app/editor_command.h"

namespace {

TEST(editor_command, PresetsExpandToArgumentLists) {
  using waitscope::report::expandEditorCommand;
  using waitscope::report::findEditorPreset;
  using Args = std::vector<std::string>;
  const std::string file = "/home/me/my app/solver.c";  // a space: still one argument
  EXPECT_EQ(expandEditorCommand(findEditorPreset("vscode")->command, file, 212),
            (Args{"code", "-g", "/home/me/my app/solver.c:212:1"}));
  EXPECT_EQ(expandEditorCommand(findEditorPreset("qtcreator")->command, file, 212),
            (Args{"qtcreator", "-client", "/home/me/my app/solver.c:212"}));
  EXPECT_EQ(expandEditorCommand(findEditorPreset("clion")->command, file, 212),
            (Args{"clion", "--line", "212", "/home/me/my app/solver.c"}));
  EXPECT_EQ(expandEditorCommand(findEditorPreset("kate")->command, file, 7, 3),
            (Args{"kate", "--line", "7", "--column", "3", "/home/me/my app/solver.c"}));
  EXPECT_EQ(expandEditorCommand(findEditorPreset("emacs")->command, file, 9),
            (Args{"emacsclient", "-n", "+9", "/home/me/my app/solver.c"}));
  EXPECT_EQ(expandEditorCommand(findEditorPreset("vim")->command, file, 9),
            (Args{"x-terminal-emulator", "-e", "vim", "+9", "/home/me/my app/solver.c"}));
  EXPECT_EQ(expandEditorCommand(findEditorPreset("gedit")->command, file, 9, 4),
            (Args{"gedit", "+9:4", "/home/me/my app/solver.c"}));
  EXPECT_EQ(expandEditorCommand(findEditorPreset("xdg-open")->command, file, 9),
            (Args{"xdg-open", "/home/me/my app/solver.c"}));
  EXPECT_EQ(waitscope::report::editorPresets().size(), 10U);
  EXPECT_EQ(findEditorPreset("notepad"), nullptr);
}

TEST(editor_command, CustomTemplatesQuoteAndEscape) {
  using waitscope::report::expandEditorCommand;
  using Args = std::vector<std::string>;
  EXPECT_EQ(expandEditorCommand("\"/opt/My Editor/bin/ed\"  --goto='%f (%l)' 100%% ''", "a b.c", 5),
            (Args{"/opt/My Editor/bin/ed", "--goto=a b.c (5)", "100%", ""}));
  EXPECT_EQ(expandEditorCommand("ed %x%", "f", 1), (Args{"ed", "%x%"}));  // not ours: kept
  // A file name with quotes or %l inside is substituted as it is.
  EXPECT_EQ(expandEditorCommand("ed %f", "it's %l.c", 3), (Args{"ed", "it's %l.c"}));
  EXPECT_THROW(expandEditorCommand("ed \"%f", "f", 1), std::invalid_argument);
  EXPECT_THROW(expandEditorCommand("   ", "f", 1), std::invalid_argument);
}

}  // namespace
