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

GroupId Definitions::peerGroup(CommId comm, Rank self) const {
  if (comm >= comms.size()) return kNone;
  const Communicator& c = comms[comm];
  if (c.remoteGroup == kNone) return c.group;
  const auto contains = [&](GroupId g) {
    if (g >= groups.size()) return false;
    for (const std::uint32_t m : groups[g].members)
      if (m == self) return true;
    return false;
  };
  if (contains(c.group)) return c.remoteGroup;
  if (contains(c.remoteGroup)) return c.group;
  return kNone;
}

Rank Definitions::peerWorldRank(CommId comm, Rank rank, Rank self) const {
  const GroupId g = peerGroup(comm, self);
  if (g >= groups.size()) return kNone;
  if (groups[g].type == GroupType::CommSelf) return rank == 0 ? self : kNone;
  return rank < groups[g].members.size() ? groups[g].members[rank] : kNone;
}

std::size_t Definitions::peerCount(CommId comm, Rank self) const {
  const GroupId g = peerGroup(comm, self);
  if (g >= groups.size()) return 0;
  return groups[g].type == GroupType::CommSelf ? 1 : groups[g].members.size();
}

Rank Definitions::worldRankOfLocation(LocationId location) const {
  for (std::size_t r = 0; r < worldLocations.size(); ++r)
    if (worldLocations[r] == location) return static_cast<Rank>(r);
  return kNone;
}

}  // namespace waitscope::trace
