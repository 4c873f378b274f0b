#pragma once
// `waitscope-report ratio A B -o R.waitscope` and `waitscope-report mean R1 R2 [...] -o M.waitscope`:
// reports derived value by value from other runs' reports (docs/comparing-runs.md).
#include <ostream>
#include <string>
#include <vector>

namespace waitscope::tools {

inline constexpr const char* kRatioUsage = "ratio A B -o R.waitscope";
inline constexpr const char* kMeanUsage = "mean R1 R2 [...] -o M.waitscope";

// Run the commands; throw UsageError, report::ReportError or std::runtime_error.
int runRatio(const std::vector<std::string>& args, std::ostream& out);
int runMean(const std::vector<std::string>& args, std::ostream& out);

}  // namespace waitscope::tools
