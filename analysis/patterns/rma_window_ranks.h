#pragma once
// The ranks of an RMA window's communicator, as the active-target validation and replay address
// them: world rank of each communicator rank, the reverse map, and a group's members as
// communicator ranks.
#include <string>
#include <utility>
#include <vector>

#include "analysis/trace/definitions.h"

namespace waitscope::patterns::rma_active {

// Ranks of one window's communicator: its members by rank, and the reverse map.
struct CommRanks {
  bool self = false;                              // MPI_COMM_SELF-like: only the calling rank
  std::vector<trace::Rank> members;               // world rank of comm rank i
  std::string problem;                            // why the communicator cannot be used, if so

  // The comm rank of a world rank (the lowest, should a corrupt group name it twice); kNone for
  // a rank outside the communicator.
  trace::Rank commRankOf(trace::Rank world) const;

  // The reverse map: none when comm rank and world rank agree (a window on the world, the usual
  // case), else (world rank, comm rank) pairs in order. Every location builds it for each window
  // it creates, so no node per member (a hash map of 4096 entries per location and window took a
  // quarter of the analysis of a 4096-rank trace on 2 processes).
  bool identity = false;
  std::vector<std::pair<trace::Rank, trace::Rank>> byWorld;
};

// The ranks of `comm` seen from world rank `me`; `problem` says why they cannot be used, if so.
CommRanks commRanks(const trace::Definitions& defs, trace::CommId comm, trace::Rank me, int worldSize);

// Comm ranks of the world ranks of a group; empty `problem` when all are members.
std::vector<int> groupInComm(const trace::Definitions& defs, trace::GroupId group, const CommRanks& comm,
                             std::string& problem);

}  // namespace waitscope::patterns::rma_active
