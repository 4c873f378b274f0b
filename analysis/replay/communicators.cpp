#include "analysis/replay/communicators.h"

#include <map>

#include "analysis/replay/yielding_wait.h"

namespace waitscope::replay {

template <class Make>
void Communicators::walk(const trace::Definitions& defs, trace::Rank me, int worldSize, Make make) {
  for (trace::CommId c = 0; c < defs.comms.size(); ++c) {
    // Communicators of other paradigms (CUDA, OpenMP, ...) number locations, not MPI ranks:
    // nothing MPI happens on them (the reader keeps none of their records on a rank).
    if (!defs.isMpiComm(c)) continue;
    // Inter-communicators: only their point-to-point messages are analyzed (over the world), so
    // they get this rank's rank in its group but no communicator.
    if (defs.isInterComm(c)) {
      for (const trace::GroupId g : {defs.comms[c].group, defs.comms[c].remoteGroup}) {
        if (g >= defs.groups.size()) continue;
        const auto& members = defs.groups[g].members;
        for (trace::Rank r = 0; r < members.size(); ++r)
          if (members[r] == me) rank_[c] = r;
      }
      continue;
    }
    const std::size_t size = defs.commSize(c);
    // MPI_COMM_SELF-like: every rank is rank 0 of its own copy.
    if (defs.comms[c].group < defs.groups.size() && defs.groups[defs.comms[c].group].type == trace::GroupType::CommSelf) {
      byComm_[c] = self_.get();
      rank_[c] = 0;
      continue;
    }
    std::vector<trace::Rank> members;
    members.reserve(size);
    for (trace::Rank r = 0; r < size; ++r) members.push_back(defs.worldRank(c, r));
    // Every rank sees the same definitions, so every rank skips the same ones;
    // the validation pass reports them if an event uses one.
    bool valid = true;
    for (const trace::Rank m : members) valid = valid && m < static_cast<trace::Rank>(worldSize);
    if (!valid) continue;
    for (trace::Rank r = 0; r < size; ++r)
      if (members[r] == me) rank_[c] = r;
    if (size == 1) {
      if (rank_[c] != trace::kNone) byComm_[c] = self_.get();
      continue;
    }
    make(c, std::move(members), rank_[c]);
  }
}

Communicators::Communicators(const trace::Definitions& defs, const LocationComm& world)
    : world_(world), byComm_(defs.comms.size(), nullptr), rank_(defs.comms.size(), trace::kNone) {
  const auto me = world.member(world.rank());
  if (const HeldLocations* held = world.held()) {
    self_ = std::make_unique<LocationComm>(*held, std::make_shared<std::vector<trace::Rank>>(1, me), 0, 0);
    // The member lists are numbered in order of first appearance, the same on every process,
    // from 1 on (the world's is 0), so that a list's internal messages keep apart from others'.
    std::map<std::vector<trace::Rank>, std::pair<int, const LocationComm*>> byMembers;
    walk(defs, me, world.size(), [&](trace::CommId c, std::vector<trace::Rank> members, trace::Rank mine) {
      auto [it, added] = byMembers.try_emplace(members, static_cast<int>(byMembers.size()) + 1, nullptr);
      if (mine == trace::kNone) return;
      if (!it->second.second) {
        owned_.push_back(std::make_unique<LocationComm>(
            *held, std::make_shared<const std::vector<trace::Rank>>(std::move(members)), static_cast<int>(mine),
            it->second.first));
        it->second.second = owned_.back().get();
      }
      byComm_[c] = it->second.second;
    });
    return;
  }
  self_ = std::make_unique<LocationComm>(MPI_COMM_SELF, world.yieldCore());
  // MPI_Comm_create_group blocks, polling: the ranks meet first in a wait that gives up the core
  // (yielding_wait.h), or those that finished reading early would take it from those still reading.
  callAndWait(world.yieldCore(), MPI_Ibarrier, world.mpi());
  MPI_Group worldGroup;
  MPI_Comm_group(world.mpi(), &worldGroup);
  std::map<std::vector<trace::Rank>, const LocationComm*> byMembers;
  // Every rank walks the communicators in the same (id) order and joins those it
  // belongs to: MPI_Comm_create_group involves only the members, so the calls
  // cannot cross.
  walk(defs, me, world.size(), [&](trace::CommId c, std::vector<trace::Rank> members, trace::Rank mine) {
    if (mine == trace::kNone) return;
    if (const auto it = byMembers.find(members); it != byMembers.end()) {
      byComm_[c] = it->second;
      return;
    }
    std::vector<int> ranks(members.begin(), members.end());
    MPI_Group group;
    MPI_Group_incl(worldGroup, static_cast<int>(ranks.size()), ranks.data(), &group);
    MPI_Comm comm = MPI_COMM_NULL;
    MPI_Comm_create_group(world.mpi(), group, static_cast<int>(c % 32768), &comm);
    MPI_Group_free(&group);
    owned_.push_back(std::make_unique<LocationComm>(comm, world.yieldCore(), true));
    byComm_[c] = owned_.back().get();
    byMembers.emplace(std::move(members), byComm_[c]);
  });
  MPI_Group_free(&worldGroup);
}

Communicators::~Communicators() = default;

}  // namespace waitscope::replay
