#pragma once
// Which parts of a hybrid trace are MPI. Score-P records more than MPI in one archive:
// OpenMP and POSIX threads, accelerator streams (CUDA, OpenCL, Xeon Phi offload), and
// writes the host-device memory copies as RMA records on windows whose communicator's
// group has the accelerator's paradigm. Only the MPI part is replayed for wait states;
// everything else gets the time metrics that need no matching across locations.
#include <string>

#include "analysis/trace/definitions.h"

namespace waitscope::trace {

// "OpenMP", "CUDA", "POSIX threads", ...; "paradigm N" for a value without a name here.
std::string paradigmDisplayName(Paradigm paradigm);

// True for the paradigms whose synchronization the analysis does not replay (OpenMP,
// CUDA, threads, ...); false for MPI and for the paradigm-neutral ones (user code,
// compiler instrumentation, the measurement system: Score-P 7's PROCESSXTHREADS group, unknown).
bool isForeignParadigm(Paradigm paradigm);

// The one line that says which paradigms of the trace get no wait-state analysis, e.g.
// "OpenMP, CUDA: time metrics only, no wait-state analysis"; empty for an MPI-only trace.
// Looks at region paradigms, communicator-group paradigms and non-rank locations.
std::string unanalyzedParadigmsLine(const Definitions& defs);

}  // namespace waitscope::trace
