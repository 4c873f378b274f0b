#include "analysis/tools/report_pop.h"

#include <stdexcept>

#include "analysis/report/open_report.h"
#include "analysis/report/pop_metrics.h"
#include "analysis/tools/command_line_args.h"
#include "analysis/tools/report_command_args.h"
#include "analysis/tools/usage_error.h"

namespace waitscope::tools {

int runPop(const std::vector<std::string>& args, std::ostream& out) {
  std::vector<std::string> paths;
  bool json = false, csv = false, help = false;
  CommandLineArgs options;
  options.flag({"--json"}, [&] { json = true; })
      .flag({"--csv"}, [&] { csv = true; })
      .help(help)
      .positional([&](const std::string& path) { paths.push_back(path); });
  rejectUnknownOptions(options, "pop");
  options.parse(args);
  if (help) {
    out << "usage: waitscope-report " << kPopUsage
        << "\nPrints the POP Centre of Excellence's efficiency metrics of each run, one row per report: load\n"
           "balance, communication, serialisation, transfer and parallel efficiency, from the computation\n"
           "time, the runtime and the waiting time of the wait states found. With several runs the first is\n"
           "the reference of speedup, scaling efficiency, computation scaling and global efficiency. Values\n"
           "below 0.8 need attention. docs/pop.md.\n";
    return 0;
  }
  if (paths.empty()) throw UsageError("pop: no report given");
  if (json && csv) throw UsageError("pop: --json and --csv exclude each other");
  std::vector<report::Report> runs;
  runs.reserve(paths.size());
  for (const std::string& path : paths) {
    runs.push_back(report::openAnyReport(path));
    try {
      report::popMetrics(runs.back(), path);
    } catch (const std::runtime_error& e) {
      throw std::runtime_error(path + ": " + e.what());
    }
  }
  std::vector<const report::Report*> pointers;
  for (const report::Report& run : runs) pointers.push_back(&run);
  const std::vector<report::PopMetrics> series = report::popSeries(pointers, paths);
  if (json)
    report::printPopJson(series, out);
  else if (csv)
    report::printPopCsv(series, out);
  else
    report::printPopTable(series, out);
  return 0;
}

}  // namespace waitscope::tools
