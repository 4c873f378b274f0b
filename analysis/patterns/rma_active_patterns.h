#pragma once
// RMA active-target patterns (Hermanns, Geimer, Mohr, Wolf, EuroPVM/MPI 2009 and IJHPCA 2012):
// Late Post (start and complete variants), Early Transfer, Early Wait, Late Complete, Wait at
// Fence, Early Fence, Wait at Create, Wait at Free, and the pairwise-synchronization counts.
// Replayed with RMA: one exchange window per application window, opened and closed with the
// recorded epochs.
#include <cstdint>
#include <string>

#include "analysis/replay/replay_context.h"

namespace waitscope::patterns {

class RmaActive {
 public:
  explicit RmaActive(replay::ReplayContext& ctx) : ctx_(ctx) {}

  // Collective over ctx.comms.world(): validateRmaActive (rma_active_validation.h).
  std::string validate() const;

  // Nothing to exchange before detect(): the replay exchanges as it re-enacts the epochs.

  // Collective over ctx.comms.world(): replays window creation, fences and
  // GATS epochs in trace order and adds the patterns to ctx.severities. Returns
  // the clock-condition violations of the epochs (docs/patterns/rma_active.md).
  std::uint64_t detect();

 private:
  replay::ReplayContext& ctx_;
};

}  // namespace waitscope::patterns
