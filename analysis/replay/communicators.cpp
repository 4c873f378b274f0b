#include "analysis/replay/communicators.h"

#include <map>

#include "analysis/replay/yielding_wait.h"

namespace waitscope::replay {

Communicators::Communicators(const trace::Definitions& defs, MPI_Comm world)
    : world_(world),
      nodeOversubscribed_(replay::nodeOversubscribed(world)),
      mpi_(defs.comms.size(), MPI_COMM_NULL), rank_(defs.comms.size(), trace::kNone) {
  int me = 0;
  MPI_Comm_rank(world, &me);
  int worldSize = 0;
  MPI_Comm_size(world, &worldSize);
  MPI_Group worldGroup;
  MPI_Comm_group(world, &worldGroup);
  std::map<std::vector<std::uint32_t>, MPI_Comm> byMembers;
  // Every rank walks the communicators in the same (id) order and joins those it
  // belongs to: MPI_Comm_create_group involves only the members, so the calls
  // cannot cross.
  for (trace::CommId c = 0; c < defs.comms.size(); ++c) {
    // Communicators of other paradigms (CUDA, OpenMP, ...) number locations, not MPI ranks:
    // nothing MPI happens on them (the reader keeps none of their records on a rank).
    if (!defs.isMpiComm(c)) continue;
    // Inter-communicators: only their point-to-point messages are analyzed (over `world`), so
    // they get this rank's rank in its group but no MPI communicator.
    if (defs.isInterComm(c)) {
      for (const trace::GroupId g : {defs.comms[c].group, defs.comms[c].remoteGroup}) {
        if (g >= defs.groups.size()) continue;
        const auto& members = defs.groups[g].members;
        for (trace::Rank r = 0; r < members.size(); ++r)
          if (members[r] == static_cast<std::uint32_t>(me)) rank_[c] = r;
      }
      continue;
    }
    const std::size_t size = defs.commSize(c);
    // MPI_COMM_SELF-like: every rank is rank 0 of its own copy.
    if (defs.comms[c].group < defs.groups.size() && defs.groups[defs.comms[c].group].type == trace::GroupType::CommSelf) {
      mpi_[c] = MPI_COMM_SELF;
      rank_[c] = 0;
      continue;
    }
    std::vector<std::uint32_t> members;
    members.reserve(size);
    for (trace::Rank r = 0; r < size; ++r) members.push_back(defs.worldRank(c, r));
    // Every rank sees the same definitions, so every rank skips the same ones;
    // the validation pass reports them if an event uses one.
    bool valid = true;
    for (const std::uint32_t m : members) valid = valid && m < static_cast<std::uint32_t>(worldSize);
    if (!valid) continue;
    for (trace::Rank r = 0; r < size; ++r)
      if (members[r] == static_cast<std::uint32_t>(me)) rank_[c] = r;
    if (rank_[c] == trace::kNone) continue;
    if (size == 1) {
      mpi_[c] = MPI_COMM_SELF;
      continue;
    }
    if (const auto it = byMembers.find(members); it != byMembers.end()) {
      mpi_[c] = it->second;
      continue;
    }
    std::vector<int> ranks(members.begin(), members.end());
    MPI_Group group;
    MPI_Group_incl(worldGroup, static_cast<int>(ranks.size()), ranks.data(), &group);
    MPI_Comm comm = MPI_COMM_NULL;
    MPI_Comm_create_group(world, group, static_cast<int>(c % 32768), &comm);
    MPI_Group_free(&group);
    byMembers.emplace(std::move(members), comm);
    owned_.push_back(comm);
    mpi_[c] = comm;
  }
  MPI_Group_free(&worldGroup);
}

Communicators::~Communicators() {
  for (MPI_Comm& comm : owned_) MPI_Comm_free(&comm);
}

}  // namespace waitscope::replay
