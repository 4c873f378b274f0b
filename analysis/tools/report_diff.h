#pragma once
// `waitscope-report diff A B [--json|--csv] [-o D.waitscope]`: two runs of one program
// compared metric by metric (docs/comparing-runs.md), and optionally their difference report.
#include <ostream>
#include <string>
#include <vector>

#include "analysis/report/report_algebra.h"

namespace waitscope::tools {

inline constexpr const char* kDiffUsage = "diff A B [--json|--csv] [-o D.waitscope]";

// Runs the command; throws UsageError, report::ReportError or std::runtime_error.
int runDiff(const std::vector<std::string>& args, std::ostream& out);

// What diff prints of the comparison of runs `a` and `b` (their names as given), each metric of
// the union tree with both totals, B-A and B/A; JSON and CSV add per-rank mean, min and max.
struct RunsCompared {
  std::string nameA, nameB;
  std::size_t ranksA = 0, ranksB = 0;
  bool sameRanks = true;
  std::vector<report::MetricComparison> metrics;
};
void printComparison(const RunsCompared& compared, std::ostream& out);
void printComparisonJson(const RunsCompared& compared, std::ostream& out);
void printComparisonCsv(const RunsCompared& compared, std::ostream& out);

}  // namespace waitscope::tools
