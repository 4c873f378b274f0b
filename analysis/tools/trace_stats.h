#pragma once
// `waitscope-report stats`: event totals of a trace, as text or JSON.
#include <ostream>

#include "analysis/trace/trace.h"

namespace waitscope::tools {

void printStatsText(const trace::Trace& trace, std::ostream& out);
void printStatsJson(const trace::Trace& trace, std::ostream& out);

}  // namespace waitscope::tools
