#pragma once
// Where `waitscope-report diff -o`, `ratio` and `mean` write the report they derive from
// other reports: as waitscope-run's reports, an existing Waitscope report is replaced but
// nothing else (a directory, another file), and never one of the command's own inputs.
#include <string>
#include <vector>

#include "analysis/report/report.h"

namespace waitscope::tools {

// One line (starting with `output`) saying why `output` may not take the report of a command
// that reads `inputs`, or "" when it may.
std::string derivedOutputProblem(const std::string& output, const std::vector<std::string>& inputs);

// Writes `derived` to `output` after derivedOutputProblem; throws std::runtime_error with that
// line, or report::ReportError when the write fails.
void writeDerivedReport(const report::Report& derived, const std::string& output,
                        const std::vector<std::string>& inputs);

}  // namespace waitscope::tools
