#include "analysis/patterns/rma_window_ranks.h"

namespace waitscope::patterns::rma_active {

using trace::CommId;
using trace::Rank;

CommRanks commRanks(const trace::Definitions& defs, CommId comm, Rank me, int worldSize) {
  CommRanks out;
  if (comm >= defs.comms.size()) {
    out.problem = "is on communicator " + std::to_string(comm) + ", which the trace does not define";
    return out;
  }
  const trace::GroupId g = defs.comms[comm].group;
  if (g >= defs.groups.size()) {
    out.problem = "is on communicator " + std::to_string(comm) + ", whose group the trace does not define";
    return out;
  }
  if (defs.groups[g].type == trace::GroupType::CommSelf) {
    out.self = true;
    out.members = {me};
  } else {
    out.members = defs.groups[g].members;
  }
  for (Rank r = 0; r < out.members.size(); ++r) {
    if (out.members[r] >= static_cast<Rank>(worldSize)) {
      out.problem = "is on communicator " + std::to_string(comm) + ", whose rank " + std::to_string(r) +
                    " is world rank " + std::to_string(out.members[r]) + " but the analysis has only " +
                    std::to_string(worldSize) + " ranks";
      return out;
    }
    out.commRankOfWorld.emplace(out.members[r], r);
  }
  if (out.members.empty()) out.problem = "is on communicator " + std::to_string(comm) + ", which has no members";
  else if (!out.commRankOfWorld.contains(me))
    out.problem = "is on communicator " + std::to_string(comm) + ", which this rank is not part of";
  return out;
}

std::vector<int> groupInComm(const trace::Definitions& defs, trace::GroupId group, const CommRanks& comm,
                             std::string& problem) {
  std::vector<int> ranks;
  if (group >= defs.groups.size()) {
    problem = "names group " + std::to_string(group) + ", which the trace does not define";
    return ranks;
  }
  const trace::Group& g = defs.groups[group];
  if (g.type == trace::GroupType::CommSelf) {
    ranks.push_back(static_cast<int>(comm.commRankOfWorld.at(comm.members.front())));
    return ranks;
  }
  for (const Rank world : g.members) {
    const auto it = comm.commRankOfWorld.find(world);
    if (it == comm.commRankOfWorld.end()) {
      problem = "names world rank " + std::to_string(world) + ", which is not part of the window's communicator";
      ranks.clear();
      return ranks;
    }
    ranks.push_back(static_cast<int>(it->second));
  }
  return ranks;
}

}  // namespace waitscope::patterns::rma_active
