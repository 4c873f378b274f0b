#pragma once
// `waitscope-report cube REPORT -o FILE.cubex`: the report as a Cube 4 file,
// so Cube's GUI and tools open it (docs/cube.md).
#include <ostream>
#include <string>
#include <vector>

namespace waitscope::tools {

inline constexpr const char* kCubeUsage = "cube REPORT -o FILE.cubex";

// Runs the command; throws UsageError or report::ReportError.
int runCube(const std::vector<std::string>& args, std::ostream& out);

}  // namespace waitscope::tools
