#include "analysis/tools/report_print.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "analysis/report/open_report.h"
#include "analysis/report/report_queries.h"
#include "analysis/report/text_output.h"
#include "analysis/tools/command_line_args.h"
#include "analysis/tools/report_command_args.h"
#include "analysis/tools/usage_error.h"

namespace waitscope::tools {

using report::jsonNumber;
using report::jsonString;

using report::MetricUnit;

std::string formatValue(double value, MetricUnit unit) {
  char buffer[64];
  switch (unit) {
    case MetricUnit::Seconds: std::snprintf(buffer, sizeof buffer, "%.6f s", value); break;
    // Counts are whole numbers unless a writer estimated them.
    case MetricUnit::Occurrences:
      std::snprintf(buffer, sizeof buffer, value == std::floor(value) ? "%.0f occ" : "%.3f occ", value);
      break;
    case MetricUnit::Bytes:
      std::snprintf(buffer, sizeof buffer, value == std::floor(value) ? "%.0f bytes" : "%.3f bytes", value);
      break;
  }
  return buffer;
}

void printMetricTree(const report::Report& report, std::ostream& out) {
  const std::vector<double> totals = report::metricTotals(report);
  const std::uint32_t time = report.findMetric("time");
  const double timeTotal = time != report::kNoId ? totals[time] : 0.0;
  struct Line {
    std::string label, value, percent;
  };
  std::vector<Line> lines;
  std::size_t labelWidth = 0, valueWidth = 0;
  for (const report::TreeEntry& e : report::metricsDepthFirst(report)) {
    const report::Metric& m = report.metrics[e.index];
    Line line;
    line.label = std::string(2 * e.depth, ' ') + (m.displayName.empty() ? m.uniqueName : m.displayName) + " [" +
                 m.uniqueName + "]";
    line.value = formatValue(totals[e.index], m.unit);
    if (m.unit == MetricUnit::Seconds && timeTotal > 0.0) {
      char buffer[32];
      std::snprintf(buffer, sizeof buffer, "%6.2f%%", 100.0 * totals[e.index] / timeTotal);
      line.percent = buffer;
    }
    labelWidth = std::max(labelWidth, line.label.size());
    valueWidth = std::max(valueWidth, line.value.size());
    lines.push_back(std::move(line));
  }
  for (const Line& line : lines) {
    std::string text = line.label + std::string(labelWidth - line.label.size() + 2, ' ') +
                       std::string(valueWidth - line.value.size(), ' ') + line.value;
    if (!line.percent.empty()) text += "  " + line.percent;
    out << text << '\n';
  }
}

void printMetricTreeJson(const report::Report& report, std::ostream& out) {
  const std::vector<double> totals = report::metricTotals(report);
  out << "{\"metrics\": {";
  for (std::size_t i = 0; i < report.metrics.size(); ++i)
    out << (i == 0 ? "" : ", ") << jsonString(report.metrics[i].uniqueName) << ": " << jsonNumber(totals[i]);
  out << "}, \"meta\": {";
  for (std::size_t i = 0; i < report.meta.size(); ++i)
    out << (i == 0 ? "" : ", ") << jsonString(report.meta[i].first) << ": " << jsonString(report.meta[i].second);
  out << "}}\n";
}

int runPrint(const std::vector<std::string>& args, std::ostream& out) {
  std::string path;
  bool json = false, help = false;
  CommandLineArgs options;
  options.flag({"--json"}, [&] { json = true; }).help(help);
  takeOneFile(options, "print", "report", path);
  options.parse(args);
  if (help) {
    out << "usage: waitscope-report " << kPrintUsage
        << "\nPrints the metric tree of a report with each metric's inclusive total over all call paths and\n"
           "locations; with --json, one object {\"metrics\": {\"<unique name>\": <total>, ...}, \"meta\": {...}}.\n";
    return 0;
  }
  if (path.empty()) throw UsageError("print: no report given");
  const report::Report report = report::openAnyReport(path);
  if (json) {
    printMetricTreeJson(report, out);
  } else {
    out << "metric tree of " << path << " (inclusive: all call paths and locations)\n";
    // A hybrid run: which of its paradigms got the time metrics only.
    if (const std::string line = report.metaValue("unanalyzed_paradigms"); !line.empty())
      out << "note: " << line << "\n";
    printMetricTree(report, out);
    // One line when the analysis corrected clock-condition violations (waitscope-analyze).
    if (const std::string how = report.metaValue("time_correction", ""); !how.empty())
      out << "times corrected (" << how << "): " << report.metaValue("time_correction_violations", "0")
          << " clock condition violations, " << report.metaValue("time_correction_moved_events", "0")
          << " events moved, largest shift " << report.metaValue("time_correction_largest_shift", "0") << " s\n";
  }
  return 0;
}

}  // namespace waitscope::tools
