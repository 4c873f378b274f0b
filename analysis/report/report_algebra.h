#pragma once
// Report algebra, as Cube's cube_diff, cube_mean and cube_merge: runs of one
// program compared value by value. Nothing is matched by id: metrics match by
// unique name, call paths by the region names along the path (siblings of one
// name by call site, then in order), locations by rank.
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/report/report.h"

namespace waitscope::report {

// Where a call path of the aligned reports was found.
enum class Presence : std::uint8_t { Both, OnlyA, OnlyB };

// Two runs re-expressed over one structure: the union of their metrics, call
// paths (and regions) and locations, so that index i means the same thing in
// a, b and difference. With the same ranks in both runs the locations are the
// ranks; otherwise per-rank values are not comparable and every report has a
// single location "All ranks" holding each value's sum over the ranks.
struct AlignedReports {
  Report a;
  Report b;
  Report difference;                       // b - a, value by value; meta "kind" = "difference"
  std::vector<Presence> callPathPresence;  // indexed like the aligned call paths
  bool sameRanks = true;
};

AlignedReports alignReports(const Report& a, const Report& b);

// True when both runs have the same ranks (as a set, each once): their per-rank values compare.
bool haveSameRanks(const Report& a, const Report& b);

// B - A and B / A over the aligned structure (A's value 0: the ratio is 0 when B's is 0 too,
// and the row is left out otherwise, since a report holds finite values only). Meta records
// both inputs ("minuend", "subtrahend" or "numerator", "denominator") and "kind".
Report differenceReport(const Report& a, const Report& b);
Report ratioReport(const Report& a, const Report& b);

// The mean of several runs with the same ranks, value by value (cube_mean), and the union of
// runs' metrics where each metric comes from the first run that has it (cube_merge). Throw
// std::runtime_error naming the run that does not fit.
Report meanReport(const std::vector<const Report*>& runs);
Report mergeReports(const std::vector<const Report*>& runs);

// One metric's totals in both runs: what `waitscope-report diff` prints per metric.
struct MetricComparison {
  std::string uniqueName;
  std::string displayName;
  MetricUnit unit = MetricUnit::Seconds;
  std::uint32_t depth = 0;     // in the union metric tree
  double totalA = 0.0;         // metric-inclusive, over all call paths and locations
  double totalB = 0.0;
  double meanA = 0.0, minA = 0.0, maxA = 0.0;  // per rank
  double meanB = 0.0, minB = 0.0, maxB = 0.0;
  double difference() const { return totalB - totalA; }
  // B / A; 0 when both are 0; infinity when only A is 0.
  double ratio() const;
};

// Every metric of the union tree, depth first.
std::vector<MetricComparison> compareMetrics(const Report& a, const Report& b);

}  // namespace waitscope::report
