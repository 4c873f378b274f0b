#pragma once
// Pattern tests run under mpiexec: every rank builds the same trace with the
// TraceBuilder, analyzes its own location in-process (the code path of
// waitscope-analyze, without the file round trip), and rank 0 checks the
// report. Write scenarios generically in N = worldSize(): ctest runs them at
// 2, 3 and 4 ranks. With WAITSCOPE_TEST_RANKS_PER_PROCESS=K in the environment each process
// analyzes K ranks (N = K x processes, the analyzer's M < N mode): the same scenarios, the same
// expected values.
#include <functional>
#include <string>

#include "analysis/analyzer/analyzer.h"
#include "analysis/report/report.h"
#include "tests/support/trace_builder.h"

namespace waitscope::test {

int worldRank();   // of this process
int worldSize();   // the trace's ranks: processes x ranksPerProcess()
int ranksPerProcess();
bool isRoot();  // process 0, which holds the report (of location 0)

// Runs `body(local, world)` for every location this process analyzes (localView of `full`):
// its own one, or its block of them on fibers (analyzer::analyzeHeldLocations).
void forEachLocation(const trace::Trace& full,
                     const std::function<void(trace::Trace& local, const replay::LocationComm& world)>& body);

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
