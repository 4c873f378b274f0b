#pragma once
// The timeline draws events where the analysis put them: when waitscope-analyze corrected
// clock-condition violations (controlled logical clock, Becker et al., Parallel Computing
// 35(12), 2009), the report says so (meta `time_correction`) and REPORT.clock-correction holds
// each rank's correction (analysis/trace/clock_correction_file.h). Its wait states, messages
// and critical path are in corrected times; so must the regions under them be.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "analysis/report/report.h"
#include "analysis/trace/clock_correction.h"
#include "analysis/trace/trace.h"

namespace waitscope::timeline {

// Moves the events of `trace` (all ranks or some) to their corrected times: each rank's own
// events by its entry of `corrections` (indexed by world rank); its threads, streams and
// records of other paradigms, which share the process's clock but were not replayed, by the
// rank's shift at their recorded time, interpolated between the rank's events.
void applyClockCorrections(trace::Trace& trace, const std::vector<trace::LocationClockCorrection>& corrections);

// The corrections for a report at `reportPath`: nothing when the report records no correction;
// else the side file's, or, when it is missing or damaged, nothing and one line for `warn`
// naming the file (the timeline then shows the recorded times).
std::optional<std::vector<trace::LocationClockCorrection>> reportClockCorrections(
    const std::string& reportPath, const report::Report& report, const std::function<void(const std::string&)>& warn);

}  // namespace waitscope::timeline
