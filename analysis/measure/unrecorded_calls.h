#pragma once
// MPI calls whose communication a trace cannot hold, said at record time (docs/recording.md,
// "What is recorded"): on the first such call of a rank one line on stderr naming the call, and a
// summary over all ranks at MPI_Finalize, rather than a trace the analysis rejects later.
#include <mpi.h>

#include <cstdint>

namespace waitscope::measure {

// The MPI call in progress names a communicator the trace does not define (one that can reach
// another job's processes): its message or collective is left out of the trace.
void noteUndefinedComm();
// `function` returned a communicator that reaches another job's processes; `comm` is the
// communicator whose rank 0 says so.
void warnForeignComm(const char* function, MPI_Comm comm);
// MPI_Request_free of a receive still in progress: its message can never be recorded.
void warnFreedReceive();
// A communicating MPI call (table index `fn`) from a thread other than the recorded one. Thread-safe.
void noteOtherThread(std::uint32_t fn);
// This rank's calls of all kinds above, and the table index of the first of them.
std::uint64_t unrecordedCalls(std::uint32_t& first);
// Rank 0 at MPI_Finalize: `calls` such calls on all ranks, the first being table index `first`.
void printUnrecordedSummary(std::uint64_t calls, std::uint32_t first);

}  // namespace waitscope::measure
