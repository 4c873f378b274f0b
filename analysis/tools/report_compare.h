#pragma once
// `waitscope-report compare PROFILE_REPORT TRACE_REPORT [--min-percent P] [--csv]`: the profile's
// wait-state estimates against the trace analysis, per call path (analysis/report/profile_comparison.h).
#include <ostream>
#include <string>
#include <vector>

namespace waitscope::tools {

inline constexpr const char* kCompareUsage = "compare PROFILE_REPORT TRACE_REPORT [--min-percent P] [--csv]";

// Runs the command; throws UsageError or report::ReportError.
int runCompare(const std::vector<std::string>& args, std::ostream& out);

}  // namespace waitscope::tools
