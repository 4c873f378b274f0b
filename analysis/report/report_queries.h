#pragma once
// Questions every consumer of a report asks: inclusive values along the metric
// and call trees, totals per metric, values per call path or per location.
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/report/report.h"

namespace waitscope::report {

// Children of every metric / call path / system node (index -> child indices).
std::vector<std::vector<std::uint32_t>> metricChildren(const Report& report);
std::vector<std::vector<std::uint32_t>> callPathChildren(const Report& report);

// A tree walked depth first, roots and siblings in index order: the order in
// which trees are printed. Iterative, so deep trees cannot exhaust the stack.
struct TreeEntry {
  std::uint32_t index = 0;
  std::uint32_t depth = 0;  // 0 for a root
};
std::vector<TreeEntry> metricsDepthFirst(const Report& report);
std::vector<TreeEntry> callPathsDepthFirst(const Report& report);

// Metric-inclusive total of every metric over all call paths and locations
// (indexed like Report::metrics).
std::vector<double> metricTotals(const Report& report);

// Metric-inclusive value of `metric` per call path (call-path exclusive),
// summed over locations; indexed like Report::callPaths.
std::vector<double> valuesByCallPath(const Report& report, std::uint32_t metric);

// Metric-inclusive value of `metric` per location, summed over call paths;
// indexed like Report::locations.
std::vector<double> valuesByLocation(const Report& report, std::uint32_t metric);

// Metric-inclusive value of `metric` for one call path (call-path exclusive)
// per location.
std::vector<double> valuesByLocation(const Report& report, std::uint32_t metric, std::uint32_t callPath);

// Metric-inclusive value of `metric` per call path (call-path exclusive) and
// location, in one pass; a call path without stored values gets an empty vector.
std::vector<std::vector<double>> valuesByCallPathAndLocation(const Report& report, std::uint32_t metric);

// "main/foo/MPI_Recv": region names from the root.
std::string callPathString(const Report& report, std::uint32_t callPath);

// The first broken invariant of `report` as a short phrase ("call path 7: parent
// 9 is not before it"), or empty when the report is well-formed: indices in
// range, parents before children, unique metric names and severity rows, one
// finite value per location. readReport and writeReport both apply it, so every
// consumer may index without checking.
std::string firstProblem(const Report& report);
// The same for one wait-state instance, the `index`-th of the report (for instances
// written as they come, after the rest of the report).
std::string instanceProblem(const Report& report, const Instance& instance, std::size_t index);

}  // namespace waitscope::report
