#include "analysis/tools/report_compare.h"

#include <cstdlib>
#include <vector>

#include "analysis/report/profile_comparison.h"
#include "analysis/report/report_io.h"
#include "analysis/tools/command_line_args.h"
#include "analysis/tools/report_command_args.h"
#include "analysis/tools/usage_error.h"

namespace waitscope::tools {

int runCompare(const std::vector<std::string>& args, std::ostream& out) {
  std::vector<std::string> paths;
  double minPercent = 0.5;
  bool csv = false, help = false;
  CommandLineArgs options;
  options.help(help)
      .option({"--min-percent"},
              [&](const std::string& text) {
                char* end = nullptr;
                minPercent = std::strtod(text.c_str(), &end);
                if (text.empty() || *end || !(minPercent >= 0.0 && minPercent <= 100.0))
                  throw UsageError("compare: --min-percent needs a number between 0 and 100, not '" + text + "'");
              })
      .whenMissing([](const std::string&) { throw UsageError("compare: --min-percent needs a number"); })
      .flag({"--csv"}, [&] { csv = true; })
      .positional([&](const std::string& a) { paths.push_back(a); });
  rejectUnknownOptions(options, "compare");
  options.parse(args);
  if (help) {
    out << "usage: waitscope-report " << kCompareUsage
        << "\nCompares the wait-state estimates of a profile (waitscope-run --profile) with the trace analysis\n"
           "(waitscope-analyze) of the same program: per pattern and call path the wait ratio (percent of the\n"
           "total time) from each and the difference in percentage points, for the call paths where either\n"
           "reaches P percent (default 0.5). --csv prints the rows as CSV.\n";
    return 0;
  }
  if (paths.size() != 2) throw UsageError("compare: needs PROFILE_REPORT and TRACE_REPORT");
  const report::Report profile = report::readReport(paths[0]);
  const report::Report trace = report::readReport(paths[1]);
  if (!report::isProfileReport(profile)) throw report::ReportError(paths[0] + ": " + report::kNotAProfile);
  if (report::isProfileReport(trace)) throw report::ReportError(paths[1] + ": " + report::kNotATraceAnalysis);
  const std::vector<report::ComparisonRow> rows = report::compareReports(profile, trace, minPercent);
  if (csv) report::printComparisonCsv(rows, out);
  else report::printComparison(rows, minPercent, paths[0], paths[1], out);
  return 0;
}

}  // namespace waitscope::tools
