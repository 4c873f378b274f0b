#include "analysis/tools/report_combine.h"

#include <stdexcept>

#include "analysis/report/open_report.h"
#include "analysis/report/report_algebra.h"
#include "analysis/tools/command_line_args.h"
#include "analysis/tools/derived_report_output.h"
#include "analysis/tools/report_command_args.h"
#include "analysis/tools/usage_error.h"

namespace waitscope::tools {
namespace {

struct CombineArgs {
  std::vector<std::string> paths;
  std::string output;
  bool help = false;
};

// REPORT... -o FILE, with at least two reports (`most`: at most that many).
CombineArgs parseCombine(const std::vector<std::string>& args, const std::string& command, std::size_t most) {
  CombineArgs parsed;
  CommandLineArgs options;
  options.option({"-o", "--output"}, [&](const std::string& file) { parsed.output = file; })
      .whenMissing([command](const std::string&) { throw UsageError(command + ": -o needs a file name"); })
      .help(parsed.help)
      .positional([&](const std::string& path) {
        if (parsed.paths.size() == most) throw UsageError(command + ": more than two reports given");
        parsed.paths.push_back(path);
      });
  rejectUnknownOptions(options, command);
  options.parse(args);
  if (parsed.help) return parsed;
  if (parsed.paths.size() < 2) throw UsageError(command + ": give at least two reports");
  if (parsed.output.empty()) throw UsageError(command + ": no output file given (-o FILE.waitscope)");
  if (const std::string problem = derivedOutputProblem(parsed.output, parsed.paths); !problem.empty())
    throw std::runtime_error(problem);
  return parsed;
}

}  // namespace

int runRatio(const std::vector<std::string>& args, std::ostream& out) {
  const CombineArgs parsed = parseCombine(args, "ratio", 2);
  if (parsed.help) {
    out << "usage: waitscope-report " << kRatioUsage
        << "\nWrites the report B/A: every value of B divided by A's at the same metric, call path (matched by\n"
           "region names) and rank. Where A's value is 0 the ratio is 0 if B's is too; a row where only A's\n"
           "is 0 is left out, as a report holds finite values only. docs/comparing-runs.md.\n";
    return 0;
  }
  const report::Report a = report::openAnyReport(parsed.paths[0]);
  const report::Report b = report::openAnyReport(parsed.paths[1]);
  report::Report ratio = report::ratioReport(a, b);
  ratio.meta.emplace_back("numerator_report", parsed.paths[1]);
  ratio.meta.emplace_back("denominator_report", parsed.paths[0]);
  writeDerivedReport(ratio, parsed.output, parsed.paths);
  return 0;
}

int runMean(const std::vector<std::string>& args, std::ostream& out) {
  const CombineArgs parsed = parseCombine(args, "mean", static_cast<std::size_t>(-1));
  if (parsed.help) {
    out << "usage: waitscope-report " << kMeanUsage
        << "\nWrites the report whose every value is the mean of the runs' values at the same metric, call\n"
           "path (matched by region names) and rank; a value missing from a run counts as 0 there. The runs\n"
           "must have the same ranks. docs/comparing-runs.md.\n";
    return 0;
  }
  std::vector<report::Report> runs;
  std::vector<const report::Report*> pointers;
  runs.reserve(parsed.paths.size());
  for (const std::string& path : parsed.paths) {
    runs.push_back(report::openAnyReport(path));
    if (!report::haveSameRanks(runs.front(), runs.back()))
      throw std::runtime_error(path + ": its " + std::to_string(runs.back().processCount()) +
                               " ranks are not those of " + parsed.paths.front() + " (" +
                               std::to_string(runs.front().processCount()) +
                               "): the mean needs runs with the same ranks");
    pointers.push_back(&runs.back());
  }
  report::Report mean = report::meanReport(pointers);
  for (std::size_t i = 0; i < parsed.paths.size(); ++i)
    mean.meta.emplace_back("report_" + std::to_string(i + 1), parsed.paths[i]);
  writeDerivedReport(mean, parsed.output, parsed.paths);
  return 0;
}

}  // namespace waitscope::tools
