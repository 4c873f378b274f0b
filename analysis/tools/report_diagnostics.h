#pragma once
// `waitscope-report diagnostics REPORT [--min-percent P] [--source-root FROM=TO]...`:
// compiler-style warnings, one per significant (wait-state pattern, call path),
// so editors and CI logs can jump to the call site (docs/ide.md).
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "analysis/report/report.h"
#include "analysis/report/source_location.h"
#include "analysis/tools/command_line_args.h"

namespace waitscope::tools {

inline constexpr const char* kDiagnosticsUsage = "diagnostics REPORT [--min-percent P] [--source-root FROM=TO]...";

// Runs the command; throws UsageError or report::ReportError.
int runDiagnostics(const std::vector<std::string>& args, std::ostream& out);

// True for a wait-state pattern (Late Sender, Wait at Fence, ...) rather than a
// time category (mpi_synchronization, ...) or a derived metric (delay, critical path).
bool isWaitStatePattern(const report::Report& report, std::uint32_t metric);

// A (pattern, call path) whose metric-inclusive value, summed over locations,
// is at least the threshold share of `time`.
struct Finding {
  std::uint32_t metric = 0, callPath = 0;
  double value = 0.0;       // summed over locations
  double share = 0.0;       // value / total time; 0 when the report has no time
  std::uint32_t worst = 0;  // the location with the largest value
  double worstValue = 0.0;
};

// Every finding of at least `minPercent` percent of the total time, largest
// first (ties in report order).
std::vector<Finding> significantFindings(const report::Report& report, double minPercent);

// The option "--source-root FROM=TO" (or "--source-root=FROM=TO"), which adds a root to `roots`
// each time it is given; a malformed root throws UsageError naming `command`. Shared by
// diagnostics and sarif.
void addSourceRootOption(CommandLineArgs& options, const char* command, std::vector<report::SourceRoot>& roots);

// The option "--min-percent P" (or "--min-percent=P"): a number >= 0, like addSourceRootOption.
void addMinPercentOption(CommandLineArgs& options, const char* command, double& minPercent);

// One line per finding, largest first, the file mapped through `roots`:
// "fence.c:42: warning: 12.3% of time in Wait at Fence (MPI_Win_fence) [mpi_rma_wait_at_fence]
//  (worst: rank 2, 0.200 s)", on one line.
void printDiagnostics(const report::Report& report, double minPercent, std::ostream& out,
                      const std::vector<report::SourceRoot>& roots = {});

}  // namespace waitscope::tools
