#include "analysis/trace/definitions.h"

namespace waitscope::trace {

Rank Definitions::worldRank(CommId comm, Rank rank) const {
  if (comm >= comms.size()) return kNone;
  const GroupId g = comms[comm].group;
  if (g >= groups.size()) return kNone;
  const Group& group = groups[g];
  if (group.type == GroupType::CommSelf) return kNone;  // the caller's own rank: depends on the location
  return rank < group.members.size() ? group.members[rank] : kNone;
}

std::size_t Definitions::commSize(CommId comm) const {
  if (comm >= comms.size()) return 0;
  const GroupId g = comms[comm].group;
  if (g >= groups.size()) return 0;
  return groups[g].type == GroupType::CommSelf ? 1 : groups[g].members.size();
}

Rank Definitions::worldRankOfLocation(LocationId location) const {
  for (std::size_t r = 0; r < worldLocations.size(); ++r)
    if (worldLocations[r] == location) return static_cast<Rank>(r);
  return kNone;
}

}  // namespace waitscope::trace
