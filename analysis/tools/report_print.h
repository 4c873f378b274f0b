#pragma once
// `waitscope-report print REPORT [--json]`: the metric tree with inclusive
// totals over all call paths and locations.
#include <ostream>
#include <string>
#include <vector>

#include "analysis/report/report.h"

namespace waitscope::tools {

inline constexpr const char* kPrintUsage = "print REPORT [--json]";

// Runs the command; throws UsageError or report::ReportError.
int runPrint(const std::vector<std::string>& args, std::ostream& out);

// The indented tree: display name, unique name, value with unit, and percent of
// `time` for time metrics.
void printMetricTree(const report::Report& report, std::ostream& out);
// One JSON object: {"metrics": {"<unique name>": <inclusive total>, ...}, "meta": {...}}.
void printMetricTreeJson(const report::Report& report, std::ostream& out);

// "1.234567 s", "12 occ", "4096 bytes".
std::string formatValue(double value, report::MetricUnit unit);

}  // namespace waitscope::tools
