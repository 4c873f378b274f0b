#pragma once
// Everything the analysis of one location needs: the trace (definitions and
// this rank's events), the MPI communicators rebuilt from it, the enclosing
// call of every event, and where results go. One per analysis rank.
#include <mpi.h>

#include <string>

#include "analysis/replay/call_index.h"
#include "analysis/replay/communicators.h"
#include "analysis/replay/severities.h"
#include "analysis/trace/trace.h"

namespace waitscope::replay {

struct ReplayContext {
  const trace::Trace& trace;               // definitions, call tree, and this rank's location
  const trace::LocationEvents& events;     // trace.locations[0]
  trace::Rank worldRank;                   // == rank in `comms.world()`: the location's MPI rank
  int worldSize;
  const Communicators& comms;
  const CallIndex& calls;
  Severities& severities;

  const trace::Definitions& defs() const { return trace.defs; }
  // World rank of `rank` in trace communicator `comm`; for MPI_COMM_SELF-like
  // communicators, this rank itself; for an inter-communicator, rank `rank` of the
  // group this rank is not in. kNone if out of range.
  trace::Rank worldRankOf(trace::CommId comm, trace::Rank rank) const {
    if (trace.defs->isInterComm(comm)) return trace.defs->peerWorldRank(comm, rank, worldRank);
    const LocationComm* c = comms.get(comm);
    if (c && c->size() == 1 && rank == 0) return worldRank;
    return trace.defs->worldRank(comm, rank);
  }
  // Name of the region a call path ends in ("MPI_Win_start").
  const std::string& regionName(trace::CallPathId path) const {
    return trace.defs->regions[trace.callTree[path].region].name;
  }
};

}  // namespace waitscope::replay
