#pragma once
// The ranks of an RMA window's communicator, as the active-target validation and replay address
// them: world rank of each communicator rank, the reverse map, and a group's members as
// communicator ranks.
#include <string>
#include <unordered_map>
#include <vector>

#include "analysis/trace/definitions.h"

namespace waitscope::patterns::rma_active {

// Ranks of one window's communicator: its members by rank, and the reverse map.
struct CommRanks {
  bool self = false;                              // MPI_COMM_SELF-like: only the calling rank
  std::vector<trace::Rank> members;               // world rank of comm rank i
  std::unordered_map<trace::Rank, trace::Rank> commRankOfWorld;
  std::string problem;                            // why the communicator cannot be used, if so
};

// The ranks of `comm` seen from world rank `me`; `problem` says why they cannot be used, if so.
CommRanks commRanks(const trace::Definitions& defs, trace::CommId comm, trace::Rank me, int worldSize);

// Comm ranks of the world ranks of a group; empty `problem` when all are members.
std::vector<int> groupInComm(const trace::Definitions& defs, trace::GroupId group, const CommRanks& comm,
                             std::string& problem);

}  // namespace waitscope::patterns::rma_active
