#pragma once
// Where a call path is in the source, and how to find that file on this
// machine: traces often come from another machine, so their paths are mapped
// through source roots (FROM=TO prefix pairs). Used by `waitscope-report
// diagnostics` and `sarif` and by the app's source pane.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analysis/report/report.h"

namespace waitscope::report {

struct SourcePosition {
  std::string file;        // empty when unknown
  std::uint32_t line = 0;  // 0 when unknown
};

// The call site of `callPath`; else, walking up the call path, the first call
// site or the first region defined in a real source file (Score-P names the
// file of MPI functions "MPI", line 0: no place to go). Empty when none.
SourcePosition sourcePosition(const Report& report, std::uint32_t callPath);

struct SourceRoot {
  std::string from;  // a path prefix as recorded in the trace
  std::string to;    // where those files are here
};

// "FROM=TO" (split at the first '='; FROM must not be empty), or nullopt.
std::optional<SourceRoot> parseSourceRoot(std::string_view text);

// `file` with the longest matching FROM replaced by its TO; FROM matches whole
// path components only ("/src" maps "/src/a.c", not "/srcx/a.c"); an empty TO
// leaves the rest as a relative path ("/src/a.c" -> "a.c"). Unchanged when no
// root matches.
std::string mapSourceRoot(const std::vector<SourceRoot>& roots, const std::string& file);

// The source root that maps `recorded` (a file as the trace names it) to
// `found` (the same file, located here by the user: the app's "Find source
// root..."): the trailing path components both share are dropped from both
// ("/scratch/u1/app/a.c" and "/home/me/app/a.c" give "/scratch/u1=/home/me").
// A relative `recorded` keeps its first component ("src/a.c" and
// "/home/me/app/src/a.c" give "src=/home/me/app/src"). nullopt when the file
// names differ or `recorded` is a bare file name.
std::optional<SourceRoot> sourceRootFor(const std::string& recorded, const std::string& found);

// Metric-inclusive, call-path exclusive value of `metric` summed per source
// line of `file` (as recorded, before mapping), over every call path whose
// sourcePosition is in that file; ascending lines. The source pane's margin.
std::vector<std::pair<std::uint32_t, double>> valuesByLine(const Report& report, std::uint32_t metric,
                                                          const std::string& file);

}  // namespace waitscope::report
