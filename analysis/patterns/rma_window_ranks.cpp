#include "analysis/patterns/rma_window_ranks.h"

#include <algorithm>

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
  out.identity = true;
  for (Rank r = 0; r < out.members.size(); ++r) {
    if (out.members[r] >= static_cast<Rank>(worldSize)) {
      out.problem = "is on communicator " + std::to_string(comm) + ", whose rank " + std::to_string(r) +
                    " is world rank " + std::to_string(out.members[r]) + " but the analysis has only " +
                    std::to_string(worldSize) + " ranks";
      return out;
    }
    out.identity = out.identity && out.members[r] == r;
  }
  if (!out.identity) {
    out.byWorld.reserve(out.members.size());
    for (Rank r = 0; r < out.members.size(); ++r) out.byWorld.emplace_back(out.members[r], r);
    std::sort(out.byWorld.begin(), out.byWorld.end());
  }
  if (out.members.empty()) out.problem = "is on communicator " + std::to_string(comm) + ", which has no members";
  else if (out.commRankOf(me) == trace::kNone)
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
    ranks.push_back(static_cast<int>(comm.commRankOf(comm.members.front())));
    return ranks;
  }
  for (const Rank world : g.members) {
    const Rank rank = comm.commRankOf(world);
    if (rank == trace::kNone) {
      problem = "names world rank " + std::to_string(world) + ", which is not part of the window's communicator";
      ranks.clear();
      return ranks;
    }
    ranks.push_back(static_cast<int>(rank));
  }
  return ranks;
}

Rank CommRanks::commRankOf(Rank world) const {
  if (identity) return world < members.size() ? world : trace::kNone;
  const auto it = std::lower_bound(byWorld.begin(), byWorld.end(), std::pair<Rank, Rank>{world, 0});
  return it != byWorld.end() && it->first == world ? it->second : trace::kNone;
}

}  // namespace waitscope::patterns::rma_active
