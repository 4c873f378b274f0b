// waitscope-report: command-line access to traces and reports.
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "analysis/tools/command_line_args.h"
#include "analysis/tools/output_checks.h"
#include "analysis/tools/report_combine.h"
#include "analysis/tools/report_command_args.h"
#include "analysis/tools/report_compare.h"
#include "analysis/tools/report_csv.h"
#include "analysis/tools/report_cube.h"
#include "analysis/tools/report_diagnostics.h"
#include "analysis/tools/report_diff.h"
#include "analysis/tools/report_pop.h"
#include "analysis/tools/report_print.h"
#include "analysis/tools/report_sarif.h"
#include "analysis/tools/report_timeline.h"
#include "analysis/tools/trace_stats.h"
#include "analysis/tools/usage_error.h"
#include "analysis/trace/otf2_reader.h"

namespace {

constexpr const char* kUsage =
    "usage: waitscope-report <command> [options]\n"
    "\n"
    "commands:\n"
    "  stats TRACE.otf2 [--json]   number of locations and events per kind of an OTF2 trace\n"
    "  print REPORT [--json]       the metric tree with inclusive totals (JSON: every metric's total)\n"
    "  csv REPORT --metric NAME [--by callpath|location|both]\n"
    "                              one metric (with its sub-metrics) per call path and/or location, as CSV\n"
    "  diagnostics REPORT [--min-percent P] [--source-root FROM=TO]...\n"
    "                              file:line: warning lines for wait states costing at least P% (default 1)\n"
    "  sarif REPORT -o FILE [--min-percent P] [--source-root FROM=TO]...\n"
    "                              the same findings as SARIF 2.1.0 (IDEs, code scanning)\n"
    "  cube REPORT -o FILE.cubex   the report as a Cube 4 file for Cube's tools\n"
    "  compare PROFILE TRACE [--min-percent P] [--csv]\n"
    "                              wait ratios of a profile's estimates against the trace analysis, per call path\n"
    "  diff A B [--json|--csv] [-o D.waitscope]\n"
    "                              two runs metric by metric: A, B, B-A and B/A; -o writes the difference report\n"
    "  ratio A B -o R.waitscope    the report B/A, value by value\n"
    "  mean R1 R2 [...] -o M.waitscope\n"
    "                              the report of the runs' mean, value by value\n"
    "  pop R1 [R2 ...] [--json|--csv]\n"
    "                              POP efficiency metrics per run (load balance, communication, ...); the first\n"
    "                              run is the reference of the scaling metrics\n"
    "  timeline TRACE.otf2 REPORT --from T0 --to T1 --width W [--locations A-B] [--json|--binary]\n"
    "                              what a timeline of W pixels shows of [T0, T1] (for the app over SSH)\n"
    "\n"
    "options:\n"
    "  -h, --help                  show this help (after a command: that command's help)\n"
    "  --version                   show the version\n"
    "\n"
    "Exit status: 0 success, 1 unreadable input or a failed write (one line on stderr says why),\n"
    "2 wrong usage.\n";

int usageError(const std::string& message) {
  std::cerr << "waitscope-report: " << message << "\n" << kUsage;
  return 2;
}

int runStats(const std::vector<std::string>& args) {
  std::string tracePath;
  bool json = false, help = false;
  waitscope::tools::CommandLineArgs options;
  options.flag({"--json"}, [&] { json = true; }).help(help);
  waitscope::tools::takeOneFile(options, "stats", "trace", tracePath);
  options.parse(args);
  if (help) {
    std::cout << "usage: waitscope-report stats TRACE.otf2 [--json]\n"
                 "Prints the number of MPI locations of the trace and its events per kind.\n";
    return 0;
  }
  if (tracePath.empty()) return usageError("stats: no trace given");
  waitscope::trace::ReadOptions readOptions;
  readOptions.warn = [](const std::string& line) { std::cerr << "waitscope-report: warning: " << line << '\n'; };
  const waitscope::trace::Trace trace = waitscope::trace::readTrace(tracePath, readOptions);
  if (json)
    waitscope::tools::printStatsJson(trace, std::cout);
  else
    waitscope::tools::printStatsText(trace, std::cout);
  return 0;
}

int runCommand(int argc, char** argv) {
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
    if (command == "print") return waitscope::tools::runPrint(rest, std::cout);
    if (command == "csv") return waitscope::tools::runCsv(rest, std::cout);
    if (command == "diagnostics") return waitscope::tools::runDiagnostics(rest, std::cout);
    if (command == "sarif") return waitscope::tools::runSarif(rest, std::cout);
    if (command == "cube") return waitscope::tools::runCube(rest, std::cout);
    if (command == "compare") return waitscope::tools::runCompare(rest, std::cout);
    if (command == "diff") return waitscope::tools::runDiff(rest, std::cout);
    if (command == "ratio") return waitscope::tools::runRatio(rest, std::cout);
    if (command == "mean") return waitscope::tools::runMean(rest, std::cout);
    if (command == "pop") return waitscope::tools::runPop(rest, std::cout);
    if (command == "timeline") return waitscope::tools::runTimeline(rest, std::cout);
    return usageError("unknown command '" + command + "'");
  } catch (const waitscope::tools::UsageError& e) {
    return usageError(e.what());
  } catch (const std::exception& e) {
    std::cerr << "waitscope-report: error: " << e.what() << '\n';
    return 1;
  }
}

}  // namespace

// Every command writes to standard output: a write that failed (a full disk, /dev/full) exits with 1.
int main(int argc, char** argv) { return waitscope::tools::finishStandardOutput("waitscope-report", runCommand(argc, argv)); }
