#pragma once
// What the waitscope-report commands' command lines have in common: one input file and
// "COMMAND: unknown option X", both as UsageError (exit code 2 with the usage).
#include <string>

#include "analysis/tools/command_line_args.h"

namespace waitscope::tools {

// The one positional argument is `path`; a second one throws "COMMAND: more than one WHAT given".
// An unknown option throws as with rejectUnknownOptions.
void takeOneFile(CommandLineArgs& options, const std::string& command, const std::string& what, std::string& path);

// Any argument that no handler takes throws "COMMAND: unknown option X".
void rejectUnknownOptions(CommandLineArgs& options, const std::string& command);

}  // namespace waitscope::tools
