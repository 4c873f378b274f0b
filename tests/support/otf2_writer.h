#pragma once
// Writing the trace model as an OTF2 archive that looks like one of Score-P 7.1
// (see docs/trace-format.md), so that our recorder's and our test builder's
// traces are read by the same code paths as Score-P's, and by otf2-print,
// Vampir and Scalasca.
#include <string>

#include "analysis/trace/trace.h"
#include "analysis/trace/trace_error.h"

namespace waitscope::trace {

// Writes `archiveDir/archiveName.otf2` (plus `.def` and the event folder) from
// the definitions and the loaded locations of `trace`. An existing archive of
// the same name in that folder is replaced. Events are streamed from the
// model's arrays without copies. Throws TraceError naming the path on failure.
void writeOtf2(const Trace& trace, const std::string& archiveDir, const std::string& archiveName = "traces");

}  // namespace waitscope::trace
