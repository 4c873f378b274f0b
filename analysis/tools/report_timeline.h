#pragma once
// `waitscope-report timeline TRACE REPORT --from T0 --to T1 --width W
// [--locations A-B] [--json|--binary] [--index FILE]`: one timeline slice, for
// the desktop app on another machine (over SSH) or for scripts.
#include <ostream>
#include <string>
#include <vector>

namespace waitscope::tools {

// Returns the exit status; throws UsageError for a wrong command line.
int runTimeline(const std::vector<std::string>& args, std::ostream& out);

}  // namespace waitscope::tools
