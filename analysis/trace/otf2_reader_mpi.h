#pragma once
// Parallel reading: every MPI rank of `comm` reads the definitions and only the
// events of the trace location it owns (analysis rank r owns world rank r).
#include <mpi.h>

#include "analysis/trace/otf2_reader.h"

namespace waitscope::trace {

// Collective over `comm`. Throws TraceError if this rank's part cannot be read;
// the caller decides how to agree on failure across ranks.
Trace readTraceForRank(const std::string& anchorPath, MPI_Comm comm, const ReadOptions& options = {});

}  // namespace waitscope::trace
