#pragma once
// The wait-state profiler's estimates against the trace analysis of the same program, per call
// path, as Figure 3 of Mao et al. (EuroMPI/ASIA 2014) does: the wait ratio (waiting time of the
// call path over the whole run's time) from each, and their difference in percentage points,
// for every call path where either ratio is at least P percent (default 0.5).
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "analysis/report/report.h"

namespace waitscope::report {

inline constexpr const char* kNotAProfile = "not a wait-state profile (record one with waitscope-run --profile)";
inline constexpr const char* kNotATraceAnalysis =
    "a wait-state profile, not a trace analysis (analyze a trace with waitscope-analyze)";

// A report written by the wait-state profiler (waitscope-run --profile).
bool isProfileReport(const Report& r);

struct ComparisonRow {
  std::string metric;       // the trace analysis' metric ("mpi_latesender")
  std::string pattern;      // its display name ("Late Sender")
  std::string callPath;     // "main/MPI_Recv"
  std::string callSite;     // "p2p_coll.c:65", empty when unknown
  double profileSeconds = 0.0;  // summed over locations
  double traceSeconds = 0.0;
  double profileRatio = 0.0;    // percent of the report's total time
  double traceRatio = 0.0;
  bool hasTested = false;       // the profile has the test-based Late Sender for this call path
  double testedRatio = 0.0;
  double differencePoints() const { return profileRatio - traceRatio; }
};

// Rows for every estimated pattern and call path (matched by call path and call site)
// whose wait ratio reaches `minPercent` in either report; patterns in the profile's
// order, within a pattern the largest ratio first. Throws std::runtime_error when
// `profile` is not a profile report or `trace` is one.
std::vector<ComparisonRow> compareReports(const report::Report& profile, const report::Report& trace,
                                          double minPercent);

void printComparison(const std::vector<ComparisonRow>& rows, double minPercent, const std::string& profilePath,
                     const std::string& tracePath, std::ostream& out);
void printComparisonCsv(const std::vector<ComparisonRow>& rows, std::ostream& out);

}  // namespace waitscope::report
