#pragma once
// Reading OTF2 archives (ours and Score-P's) into the trace model.
#include <functional>
#include <string>
#include <vector>

#include "analysis/trace/trace.h"
#include "analysis/trace/trace_error.h"

namespace waitscope::trace {

struct ReadOptions {
  // Receives each warning line (skipped locations, unsupported paradigms).
  // Default: print to stderr prefixed with "waitscope: warning: ".
  std::function<void(const std::string&)> warn;
  // Read only the definitions (no events).
  bool definitionsOnly = false;
};

// Serial mode: one process reads every MPI location. Throws TraceError.
Trace readTrace(const std::string& anchorPath, const ReadOptions& options = {});

// Reads the definitions and the events of the given MPI world ranks only.
Trace readTraceRanks(const std::string& anchorPath, const std::vector<Rank>& worldRanks,
                     const ReadOptions& options = {});

// The same ranks, a trace for each (in their order) as readTraceRanks(anchorPath, {rank}) gives it,
// from one read whose definitions they share. Warnings print as the first rank's read would print
// them; each trace keeps its own.
std::vector<Trace> readTraceRanksEach(const std::string& anchorPath, const std::vector<Rank>& worldRanks,
                                      const ReadOptions& options = {});

}  // namespace waitscope::trace
