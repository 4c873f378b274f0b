#pragma once
// Collective patterns: Wait at Barrier, Barrier Completion, Wait at N x N,
// N x N Completion, Late Broadcast, Early Reduce, Early Scan, and for MPI_Init
// and MPI_Finalize, Initialization Completion and Wait at Finalize.
//
// Replayed with collectives over the communicators rebuilt from the trace,
// batched: one MPI_Allreduce (and one MPI_Exscan for scans) carries the times
// of many consecutive collective operations of a communicator at once.
#include <string>

#include "replay/replay_context.h"

namespace waitscope::patterns {

// Collective over every rebuilt communicator: checks that all members recorded
// the same sequence of collective operations (count, operation, root).
// Returns "" or one line naming the communicator and the ranks that disagree.
std::string validateCollectives(const replay::ReplayContext& ctx);

// Collective over every rebuilt communicator: adds the patterns.
void analyzeCollectives(replay::ReplayContext& ctx);

}  // namespace waitscope::patterns
