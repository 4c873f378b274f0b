#pragma once
// Hand-made traces for the timeline tests, with dyadic times (exact in binary
// and in nanosecond ticks) so every expected merge boundary is exact.
#include <string>

#include "analysis/report/report.h"
#include "tests/support/trace_builder.h"

namespace waitscope::test {

// A report that knows the trace's regions, call paths and locations (as the
// analyzer's would), with no severities yet.
report::Report reportSkeleton(const trace::Trace& trace);
// The report id of the call path main/.../`leaf` (region names from the root).
std::uint32_t callPathOf(const report::Report& report, const std::string& path);

// Two ranks, main [0, 8] each.
// Rank 0: foo [1, 2]; 8 MPI_Send to rank 1, send k at [2 + k/16, 2 + k/16 + 3/64]; bar [4, 5].
// Rank 1: 8 MPI_Recv from rank 0, recv k at [2 + k/16 + 1/64, 2 + k/16 + 2/64].
void buildMessages(trace::TraceBuilder& b);

// Three ranks, main [0, 8], one window on MPI_COMM_WORLD created at [0.25, 0.5], freed at [7, 7.25].
// Fences on every rank at [1, 1.25], [2, 2.5], [3, 3.25]; rank 0 puts 64 bytes to 1 at [1.5, 1.625].
// GATS: rank 0 posts to {1} at [4, 4.125] and waits at [4.25, 5]; rank 1 starts on {0} at [4, 4.5],
// puts 32 bytes to 0 at [4.5, 4.625], completes at [4.75, 4.875].
// Lock: rank 2 locks 0 exclusively at [5.5, 5.625], gets 128 bytes at [5.75, 5.875], unlocks at [6, 6.25].
void buildRma(trace::TraceBuilder& b);

}  // namespace waitscope::test
