// waitscope-report: command-line access to traces and reports.
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "trace/otf2_reader.h"
#include "trace_stats.h"

namespace {

constexpr const char* kUsage =
    "usage: waitscope-report <command> [options]\n"
    "\n"
    "commands:\n"
    "  stats TRACE.otf2 [--json]   number of locations and events per kind of an OTF2 trace\n"
    "\n"
    "options:\n"
    "  -h, --help                  show this help\n"
    "  --version                   show the version\n";

int usageError(const std::string& message) {
  std::cerr << "waitscope-report: " << message << "\n" << kUsage;
  return 2;
}

int runStats(const std::vector<std::string>& args) {
  std::string tracePath;
  bool json = false;
  for (const std::string& a : args) {
    if (a == "--json") {
      json = true;
    } else if (a == "-h" || a == "--help") {
      std::cout << "usage: waitscope-report stats TRACE.otf2 [--json]\n"
                   "Prints the number of MPI locations of the trace and its events per kind.\n";
      return 0;
    } else if (!a.empty() && a[0] == '-') {
      return usageError("stats: unknown option " + a);
    } else if (tracePath.empty()) {
      tracePath = a;
    } else {
      return usageError("stats: more than one trace given");
    }
  }
  if (tracePath.empty()) return usageError("stats: no trace given");
  waitscope::trace::ReadOptions options;
  options.warn = [](const std::string& line) { std::cerr << "waitscope-report: warning: " << line << '\n'; };
  const waitscope::trace::Trace trace = waitscope::trace::readTrace(tracePath, options);
  if (json)
    waitscope::tools::printStatsJson(trace, std::cout);
  else
    waitscope::tools::printStatsText(trace, std::cout);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) return usageError("no command given");
  const std::string& command = args[0];
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  try {
    if (command == "-h" || command == "--help") {
      std::cout << kUsage;
      return 0;
    }
    if (command == "--version") {
      std::cout << "waitscope-report " WAITSCOPE_VERSION "\n";
      return 0;
    }
    if (command == "stats") return runStats(rest);
    return usageError("unknown command '" + command + "'");
  } catch (const std::exception& e) {
    std::cerr << "waitscope-report: error: " << e.what() << '\n';
    return 1;
  }
}
