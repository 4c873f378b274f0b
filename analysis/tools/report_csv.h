#pragma once
// `waitscope-report csv REPORT --metric NAME [--by callpath|location|both]`:
// one metric's values per call path, per location, or per both, as CSV.
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "analysis/report/report.h"

namespace waitscope::tools {

inline constexpr const char* kCsvUsage = "csv REPORT --metric NAME [--by callpath|location|both]";

enum class CsvRows { ByCallPath, ByLocation, Both };

// Runs the command; throws UsageError or report::ReportError.
int runCsv(const std::vector<std::string>& args, std::ostream& out);

// Header, then the metric-inclusive, call-path-exclusive values of `metric`:
// every call path (depth first, with its id and its parent's) or every location;
// Both lists only the non-zero (call path, location) pairs. A row's length does
// not grow with the call path's depth: paths deeper than 16 levels are shortened
// (docs/report-format.md).
void printCsv(const report::Report& report, std::uint32_t metric, CsvRows rows, std::ostream& out);

// "MPI Rank 3", or "rank 3" for a location without a name.
std::string locationLabel(const report::Report& report, std::uint32_t location);

}  // namespace waitscope::tools
