#pragma once
// The command-line side of the app: apply --select-*/--mode/--flat to a
// window, and the headless run that loads, selects, exports and quits.
#include <QString>

namespace waitscope::app {

struct CommandLine;
class MainWindow;

// Applies the selection options; false with a one-line message when a name is unknown.
bool applySelection(MainWindow& window, const CommandLine& options, QString* error);

// Loads the report, applies the options, writes the exports; returns the exit status.
int runScriptedExport(MainWindow& window, const CommandLine& options);

}  // namespace waitscope::app
