#pragma once
// Pattern tests run under mpiexec: every rank builds the same trace with the
// TraceBuilder, analyzes its own location in-process (the code path of
// waitscope-analyze, without the file round trip), and rank 0 checks the
// report. Write scenarios generically in N = worldSize(): ctest runs them at
// 2, 3 and 4 ranks.
#include <string>

#include "analysis/analyzer/analyzer.h"
#include "analysis/report/report.h"
#include "tests/support/trace_builder.h"

namespace waitscope::test {

int worldRank();
int worldSize();
bool isRoot();  // rank 0, which holds the report

// The trace as analysis rank `rank` sees it: all definitions, its own events.
trace::Trace localView(const trace::Trace& full, trace::Rank rank);

// Analyzes on MPI_COMM_WORLD; the report on rank 0, an empty one elsewhere.
// Throws analyzer::AnalysisError on every rank if the trace is rejected.
report::Report analyzeBuilt(trace::TraceBuilder& builder, const analyzer::AnalysisOptions& options = {});
report::Report analyzeTrace(const trace::Trace& full, const analyzer::AnalysisOptions& options = {});
// Reads an OTF2 archive in parallel (one location per rank) and analyzes it.
report::Report analyzeFile(const std::string& anchor, const analyzer::AnalysisOptions& options = {});

// The error message the analysis gives for a trace, "" if it is accepted.
std::string analysisError(trace::TraceBuilder& builder);

// Metric-inclusive value of `metric` on `callPath` ("main/MPI_Recv", call-path
// exclusive) at world rank `rank`; 0 if absent. Rank 0 only.
double valueOf(const report::Report& report, const std::string& metric, const std::string& callPath, unsigned rank);
// Metric-inclusive total over all call paths and locations.
double totalOf(const report::Report& report, const std::string& metric);
// Metric-inclusive total over all call paths at one rank.
double totalOf(const report::Report& report, const std::string& metric, unsigned rank);
// Number of wait-state instances of `metric` (exactly that metric).
std::size_t instancesOf(const report::Report& report, const std::string& metric);

}  // namespace waitscope::test
