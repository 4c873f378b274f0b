#pragma once
// The order of the passive-target lock epochs on each target of a window, as happened-before
// relations: an epoch's lock is granted only after the previous conflicting holder released it
// (an exclusive hold conflicts with every other one, shared holds with exclusive ones). The
// holds are ordered by their start (the lock call's return, or a recorded acquisition), as the
// passive-target analysis sweeps them; holds of MPI_Win_lock_all are left out. What the trace
// shows of it: the release happens no earlier than the holder enters MPI_Win_unlock, and the grant
// no later than the next holder's MPI_Win_unlock returns (MPI_Win_lock may return before the
// lock is granted), or at a recorded acquisition. The clock-condition check counts an epoch
// granted (so) before the previous holder's release as a violation, and the time correction
// keeps these relations.
#include <cstdint>
#include <vector>

#include "analysis/replay/replay_context.h"

namespace waitscope::patterns {

class RmaLockOrder {
 public:
  // One relation between this location and another one: the event of ours that another
  // location's event must follow, or the event of ours that must follow another location's.
  struct Edge {
    std::uint32_t event;  // ours: a release (in precedes()) or a grant (in follows())
    std::uint32_t peer;   // world rank of the other location
    std::uint64_t key;    // the same on both ends, unique per relation
    trace::CallPathId path;  // the call of a grant (MPI_Win_unlock, or the acquiring call), kNone if none
  };

  // Collective over ctx.comms.world(), in the same order on every rank (after the passive-target
  // validation: lock and unlock balance).
  explicit RmaLockOrder(replay::ReplayContext& ctx);

  const std::vector<Edge>& precedes() const { return precedes_; }
  const std::vector<Edge>& follows() const { return follows_; }

  // Collective over ctx.comms.world(). Counts the grants of this location earlier than the
  // release they follow, adds them to ctx.severities on the granting call, and returns their number.
  std::uint64_t detect();

 private:
  replay::ReplayContext& ctx_;
  std::vector<Edge> precedes_, follows_;
};

}  // namespace waitscope::patterns
