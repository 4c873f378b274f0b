#include "analysis/tools/report_command_args.h"

#include "analysis/tools/usage_error.h"

namespace waitscope::tools {

void takeOneFile(CommandLineArgs& options, const std::string& command, const std::string& what, std::string& path) {
  options.positional([command, what, &path](const std::string& argument) {
    if (!path.empty()) throw UsageError(command + ": more than one " + what + " given");
    path = argument;
  });
  rejectUnknownOptions(options, command);
}

void rejectUnknownOptions(CommandLineArgs& options, const std::string& command) {
  options.unknown([command](const std::string& argument) {
    throw UsageError(command + ": unknown option " + argument);
  });
}

}  // namespace waitscope::tools
