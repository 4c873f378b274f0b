#include "analysis/trace/definitions.h"

#include "analysis/trace/paradigms.h"

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

bool Definitions::isMpiComm(CommId comm) const {
  if (comm >= comms.size() || comms[comm].group >= groups.size()) return true;
  return !isForeignParadigm(groups[comms[comm].group].paradigm);
}

bool Definitions::isMpiWindow(WinId win) const { return win >= windows.size() || isMpiComm(windows[win].comm); }

LocationId Definitions::locationOfCommMember(CommId comm, Rank rank) const {
  if (comm >= comms.size() || comms[comm].group >= groups.size()) return kNone;
  const Group& group = groups[comms[comm].group];
  if (rank >= group.members.size()) return kNone;
  const std::uint32_t member = group.members[rank];
  for (const Group& g : groups)
    if (g.type == GroupType::CommLocations && g.paradigm == group.paradigm)
      return member < g.members.size() ? g.members[member] : kNone;
  return kNone;
}

std::vector<Rank> Definitions::processRanks() const {
  std::vector<Rank> byGroup(locationGroups.size(), kNone);
  for (std::size_t r = 0; r < worldLocations.size(); ++r) {
    const LocationId l = worldLocations[r];
    if (l < locations.size() && locations[l].group < byGroup.size() && byGroup[locations[l].group] == kNone)
      byGroup[locations[l].group] = static_cast<Rank>(r);
  }
  std::vector<Rank> out(locations.size(), kNone);
  for (std::size_t l = 0; l < locations.size(); ++l)
    if (locations[l].group < byGroup.size()) out[l] = byGroup[locations[l].group];
  return out;
}

std::vector<LocationId> Definitions::otherLocationsByRank(std::vector<std::size_t>* first) const {
  const std::vector<Rank> processRank = processRanks();
  std::vector<char> isRank(locations.size(), 0);
  for (const LocationId l : worldLocations)
    if (l < isRank.size()) isRank[l] = 1;
  std::vector<std::vector<LocationId>> byRank(worldLocations.size());
  for (LocationId l = 0; l < locations.size(); ++l)
    if (!isRank[l] && processRank[l] < byRank.size()) byRank[processRank[l]].push_back(l);
  std::vector<LocationId> out;
  if (first) first->clear();
  for (const auto& ofRank : byRank) {
    if (first) first->push_back(out.size());
    out.insert(out.end(), ofRank.begin(), ofRank.end());
  }
  if (first) first->push_back(out.size());
  return out;
}

}  // namespace waitscope::trace
