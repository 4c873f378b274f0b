#pragma once
// `waitscope-report pop R1 [R2 ...] [--json|--csv]`: the POP efficiency metrics of each run,
// the first run the reference of the scaling metrics (docs/pop.md).
#include <ostream>
#include <string>
#include <vector>

namespace waitscope::tools {

inline constexpr const char* kPopUsage = "pop R1 [R2 ...] [--json|--csv]";

// Runs the command; throws UsageError, report::ReportError or std::runtime_error.
int runPop(const std::vector<std::string>& args, std::ostream& out);

}  // namespace waitscope::tools
