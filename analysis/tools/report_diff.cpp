#include "analysis/tools/report_diff.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "analysis/report/open_report.h"
#include "analysis/report/text_output.h"
#include "analysis/tools/command_line_args.h"
#include "analysis/tools/derived_report_output.h"
#include "analysis/tools/report_command_args.h"
#include "analysis/tools/report_print.h"
#include "analysis/tools/usage_error.h"

namespace waitscope::tools {
namespace {

using report::MetricComparison;
using report::MetricUnit;

// The unit as the report file names it (docs/report-format.md), indexed by MetricUnit.
constexpr const char* kUnitNames[] = {"sec", "occ", "bytes"};
const char* unitName(MetricUnit unit) { return kUnitNames[static_cast<std::size_t>(unit)]; }

std::string signedValue(double value, MetricUnit unit) {
  return (value > 0.0 ? "+" : "") + formatValue(value, unit);
}

// B/A to three places; "-" when both are 0 (nothing to compare), "inf" when only A is.
std::string ratioText(const MetricComparison& m) {
  if (m.totalA == 0.0 && m.totalB == 0.0) return "-";
  const double r = m.ratio();
  if (std::isinf(r)) return r > 0 ? "inf" : "-inf";
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.3f", r);
  return buffer;
}

std::string rankLine(const RunsCompared& c) {
  const std::string ranks = c.ranksA == c.ranksB
                                ? "A and B have " + std::to_string(c.ranksA) + " ranks each, but not the same ones"
                                : "A has " + std::to_string(c.ranksA) + " ranks and B " + std::to_string(c.ranksB);
  return ranks + ": per-rank values are not comparable, the totals are over all ranks (per-rank mean, min and max: "
                 "--json or --csv)";
}

}  // namespace

void printComparison(const RunsCompared& c, std::ostream& out) {
  out << "A: " << c.nameA << "\nB: " << c.nameB << "\n";
  if (!c.sameRanks) out << rankLine(c) << '\n';
  std::vector<std::vector<std::string>> rows = {{"metric (inclusive: all call paths and locations)", "A", "B", "B-A",
                                                  "B/A"}};
  for (const MetricComparison& m : c.metrics)
    rows.push_back({std::string(2 * m.depth, ' ') + (m.displayName.empty() ? m.uniqueName : m.displayName) + " [" +
                        m.uniqueName + "]",
                    formatValue(m.totalA, m.unit), formatValue(m.totalB, m.unit), signedValue(m.difference(), m.unit),
                    ratioText(m)});
  std::vector<std::size_t> width(5, 0);
  for (const auto& row : rows)
    for (std::size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], row[i].size());
  for (const auto& row : rows) {
    std::string line = row[0] + std::string(width[0] - row[0].size(), ' ');
    for (std::size_t i = 1; i < row.size(); ++i) line += "  " + std::string(width[i] - row[i].size(), ' ') + row[i];
    out << line << '\n';
  }
}

void printComparisonJson(const RunsCompared& c, std::ostream& out) {
  using report::jsonNumber;
  using report::jsonString;
  out << "{\"a\": " << jsonString(c.nameA) << ", \"b\": " << jsonString(c.nameB) << ", \"ranks_a\": " << c.ranksA
      << ", \"ranks_b\": " << c.ranksB << ", \"same_ranks\": " << (c.sameRanks ? "true" : "false")
      << ", \"metrics\": [";
  for (std::size_t i = 0; i < c.metrics.size(); ++i) {
    const MetricComparison& m = c.metrics[i];
    out << (i == 0 ? "{" : ", {") << "\"name\": " << jsonString(m.uniqueName)
        << ", \"display_name\": " << jsonString(m.displayName) << ", \"unit\": \"" << unitName(m.unit)
        << "\", \"depth\": " << m.depth << ", \"a\": " << jsonNumber(m.totalA) << ", \"b\": " << jsonNumber(m.totalB)
        << ", \"difference\": " << jsonNumber(m.difference()) << ", \"ratio\": " << jsonNumber(m.ratio())
        << ", \"mean_a\": " << jsonNumber(m.meanA) << ", \"min_a\": " << jsonNumber(m.minA)
        << ", \"max_a\": " << jsonNumber(m.maxA) << ", \"mean_b\": " << jsonNumber(m.meanB)
        << ", \"min_b\": " << jsonNumber(m.minB) << ", \"max_b\": " << jsonNumber(m.maxB) << '}';
  }
  out << "]}\n";
}

void printComparisonCsv(const RunsCompared& c, std::ostream& out) {
  using report::csvField;
  using report::exactNumber;
  out << "name,display_name,unit,depth,a,b,difference,ratio,mean_a,min_a,max_a,mean_b,min_b,max_b\n";
  for (const MetricComparison& m : c.metrics) {
    out << csvField(m.uniqueName) << ',' << csvField(m.displayName) << ',' << unitName(m.unit) << ',' << m.depth;
    for (const double v : {m.totalA, m.totalB, m.difference(), m.ratio(), m.meanA, m.minA, m.maxA, m.meanB, m.minB,
                           m.maxB})
      out << ',' << exactNumber(v);
    out << '\n';
  }
}

int runDiff(const std::vector<std::string>& args, std::ostream& out) {
  std::vector<std::string> paths;
  std::string output;
  bool json = false, csv = false, help = false;
  CommandLineArgs options;
  options.flag({"--json"}, [&] { json = true; })
      .flag({"--csv"}, [&] { csv = true; })
      .option({"-o", "--output"}, [&](const std::string& file) { output = file; })
      .whenMissing([](const std::string&) { throw UsageError("diff: -o needs a file name"); })
      .help(help)
      .positional([&](const std::string& path) {
        if (paths.size() == 2) throw UsageError("diff: more than two reports given");
        paths.push_back(path);
      });
  rejectUnknownOptions(options, "diff");
  options.parse(args);
  if (help) {
    out << "usage: waitscope-report " << kDiffUsage
        << "\nCompares two runs of one program, A (the baseline) and B: every metric of both runs with its\n"
           "inclusive total in A and B, B-A and B/A. Call paths match by the region names along the path,\n"
           "ranks by number; with --json or --csv also each metric's per-rank mean, min and max. -o writes\n"
           "the difference report B-A (a report the app and every command open). docs/comparing-runs.md.\n";
    return 0;
  }
  if (paths.size() < 2) throw UsageError("diff: give two reports, A and B");
  if (json && csv) throw UsageError("diff: --json and --csv exclude each other");
  if (!output.empty())
    if (const std::string problem = derivedOutputProblem(output, paths); !problem.empty())
      throw std::runtime_error(problem);
  const report::Report a = report::openAnyReport(paths[0]);
  const report::Report b = report::openAnyReport(paths[1]);
  RunsCompared compared{paths[0], paths[1], a.processCount(), b.processCount(), report::haveSameRanks(a, b),
                        report::compareMetrics(a, b)};
  if (json)
    printComparisonJson(compared, out);
  else if (csv)
    printComparisonCsv(compared, out);
  else
    printComparison(compared, out);
  if (!output.empty()) {
    report::Report difference = report::differenceReport(a, b);
    difference.meta.emplace_back("minuend_report", paths[1]);
    difference.meta.emplace_back("subtrahend_report", paths[0]);
    writeDerivedReport(difference, output, paths);
  }
  return 0;
}

}  // namespace waitscope::tools
