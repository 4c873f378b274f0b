#pragma once
// A tool place of an online run (Hilbrich et al., EASC 2014): a process above the application in
// the tree-based overlay. It receives event batches from its application ranks (first layer) or
// partials from its child places, picks the channel to receive from with the configured selection,
// matches point-to-point messages, aggregates collective instances towards the root, votes for
// application pauses, and (the root) writes the report and its live status.
#include <mpi.h>

#include "analysis/online/online_config.h"

namespace waitscope::online {

// Runs the place of world rank `worldRank` until the run's analysis is complete. `tool` is the
// job's duplicated MPI_COMM_WORLD (world ranks). Returns 0, or 1 after printing why the report
// could not be written.
int runPlace(const Config& config, MPI_Comm tool, int worldRank);

}  // namespace waitscope::online
