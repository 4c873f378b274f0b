#pragma once
// The status bar's line about the report's clock correction: waitscope-analyze corrects
// clock-condition violations with the controlled logical clock (Becker et al., Parallel
// Computing 35(12), 2009) and records it in the report's meta (`time_correction`,
// `time_correction_moved_events`, `time_correction_largest_shift`); the user should know that
// the times shown are not the recorded ones.
#include <QString>

#include "analysis/report/report.h"

namespace waitscope::app {

// "Times corrected (controlled logical clock): 7 events moved, largest shift 300 ms", or ""
// when the report records no correction.
QString timeCorrectionStatus(const report::Report& report);

}  // namespace waitscope::app
