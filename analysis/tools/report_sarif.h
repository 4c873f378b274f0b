#pragma once
// `waitscope-report sarif REPORT -o FILE`: the diagnostics as SARIF 2.1.0, for
// IDEs (VS Code's SARIF viewer), GitHub code scanning and CI dashboards
// (docs/ide.md): one rule per wait-state pattern of the report, one result per
// significant (pattern, call path).
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "analysis/report/file_uri.h"
#include "analysis/report/report.h"
#include "analysis/report/source_location.h"

namespace waitscope::tools {

inline constexpr const char* kSarifUsage =
    "sarif REPORT -o FILE [--min-percent P] [--source-root FROM=TO]...";

struct SarifOptions {
  double minPercent = 1.0;                // as diagnostics
  std::vector<report::SourceRoot> roots;  // applied to every file
  std::string toolVersion;                // the driver's version
};

// Runs the command; throws UsageError or report::ReportError.
int runSarif(const std::vector<std::string>& args, std::ostream& out);

// The SARIF log, one JSON object.
void writeSarif(const report::Report& report, const SarifOptions& options, std::ostream& out);

// "error" from 10% of the total time, "warning" from 1%, "note" below.
const char* sarifLevel(double share);

// A file path as a URI reference (report/file_uri.h).
using report::fileUri;

}  // namespace waitscope::tools
