#pragma once
// What every analysis report must satisfy, whatever the trace: checked after every analysis the
// tests run, so that a pattern that overlaps another or outgrows its call shows in any test.
#include <string>
#include <vector>

#include "analysis/report/report.h"

namespace waitscope::test {

// One line per broken invariant (empty when the report satisfies all of them):
// - no wait-state instance is negative or longer than its call path's time at its location;
// - no metric-exclusive value is below -1e-9, unless a clock-condition violation is counted on
//   that call path (the analysis cannot order events whose clocks disagree);
// - no metric's metric-inclusive value exceeds its parent's, per call path and location;
// - a completion pattern and the wait it completes (Wait at Barrier and Barrier Completion,
//   Wait at N x N and N x N Completion) sum to at most the call path's time at each location.
std::vector<std::string> invariantViolations(const report::Report& report);

}  // namespace waitscope::test
