#pragma once
// A report's values restricted to a time window (Vampir's function summary of
// a zoomed range): time per category, visits and critical-path time per call
// path and location from the timeline index's exact region sequence cut to the
// window, wait-state severities from the report's instances cut to the window
// (docs/time-window.md has the rules).
//
// A metric is restrictable only when the same computation over the whole trace
// gives the report's own values for it and for every metric below it; every
// other metric (delay costs, counts, bytes, ...) is not available in a window
// and has no rows in the restricted report, so it is never shown with a wrong
// number.
#include <cstdint>
#include <vector>

#include "analysis/report/report.h"
#include "analysis/timeline/timeline_index.h"

namespace waitscope::timeline {

struct TimeWindowProfile {
  double from = 0.0, to = 0.0;
  // The report's trees; severities of the window (available metrics only), the
  // instances and critical-path segments that overlap it, cut to it.
  report::Report report;
  std::vector<char> available;  // per metric: 1 when its values in the window are computed
};

class TimeWindowProfiler {
 public:
  // Both must outlive the profiler. Runs the whole-trace check once (a pass over the index).
  TimeWindowProfiler(const report::Report& report, const TimelineIndex& index);

  // Per metric: 1 when it can be restricted to a window.
  const std::vector<char>& available() const { return available_; }
  // The report restricted to [from, to] (seconds on the trace's clock).
  TimeWindowProfile restrict(double from, double to) const;

 private:
  struct Rows;
  Rows compute(double from, double to) const;

  const report::Report& report_;
  const TimelineIndex& index_;
  std::vector<std::uint32_t> category_;  // per call path: the metric its time goes to (kNoId: none)
  std::vector<char> partOfParent_;       // per metric, from the metric table
  std::vector<char> patternChain_;       // per metric: an instance's time also counts in its parent
  std::vector<std::uint32_t> depth_;     // per call path
  std::vector<std::uint32_t> chainTop_;  // per instance: the highest pattern its time counts in
  std::uint32_t visits_ = report::kNoId, criticalPath_ = report::kNoId;
  std::vector<char> computed_;           // per metric: this file knows how to compute it
  std::vector<char> available_;
};

}  // namespace waitscope::timeline
