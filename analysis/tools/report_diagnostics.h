#pragma once
// `waitscope-report diagnostics REPORT [--min-percent P]`: compiler-style
// warnings, one per significant (wait-state pattern, call path), so editors and
// CI logs can jump to the call site.
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "report/report.h"

namespace waitscope::tools {

inline constexpr const char* kDiagnosticsUsage = "diagnostics REPORT [--min-percent P]";

// Runs the command; throws UsageError or report::ReportError.
int runDiagnostics(const std::vector<std::string>& args, std::ostream& out);

// True for a wait-state pattern (Late Sender, Wait at Fence, ...) rather than a
// time category (mpi_synchronization, ...) or a derived metric (delay, critical path).
bool isWaitStatePattern(const report::Report& report, std::uint32_t metric);

// One line per (pattern, call path) whose metric-inclusive value is at least
// `minPercent` of `time`, largest first:
// "fence.c:42: warning: 12.3% of time in Wait at Fence (MPI_Win_fence) [mpi_rma_wait_at_fence]
//  (worst: rank 2, 0.200 s)", on one line.
void printDiagnostics(const report::Report& report, double minPercent, std::ostream& out);

}  // namespace waitscope::tools
