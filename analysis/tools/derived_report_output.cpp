#include "analysis/tools/derived_report_output.h"

#include <filesystem>
#include <stdexcept>
#include <system_error>

#include "analysis/report/report_io.h"
#include "analysis/tools/output_checks.h"

namespace waitscope::tools {

namespace fs = std::filesystem;

std::string derivedOutputProblem(const std::string& output, const std::vector<std::string>& inputs) {
  for (const std::string& input : inputs) {
    std::error_code ec;
    if (fs::exists(output, ec) && fs::equivalent(output, input, ec) && !ec)
      return output + ": the report is not written there: it is an input of this command; name another file with -o";
  }
  if (std::string problem = runReportProblem(output); !problem.empty()) return problem;
  std::error_code ec;
  const fs::path absolute = fs::absolute(output, ec);
  const std::string dir = absolute.parent_path().string();
  if (const std::string problem = directoryProblem(dir); !problem.empty())
    return output + ": cannot write the report in " + dir + ": " + problem;
  return {};
}

void writeDerivedReport(const report::Report& derived, const std::string& output,
                        const std::vector<std::string>& inputs) {
  if (const std::string problem = derivedOutputProblem(output, inputs); !problem.empty())
    throw std::runtime_error(problem);
  report::writeReport(derived, output);
}

}  // namespace waitscope::tools
