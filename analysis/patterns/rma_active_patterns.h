#pragma once
// RMA active-target patterns (Hermanns, Geimer, Mohr, Wolf, EuroPVM/MPI 2009 and IJHPCA 2012):
// Late Post (start and complete variants), Early Transfer, Early Wait, Late Complete, Wait at
// Fence, Early Fence, Wait at Create, Wait at Free, and the pairwise-synchronization counts.
// The epochs' raw times are noted in a walk over the events, exchanged by RMA in one fence epoch,
// and evaluated in a second walk (rma_active_patterns.cpp).
#include <cstdint>
#include <string>

#include "analysis/replay/replay_context.h"

namespace waitscope::patterns {

class RmaActive {
 public:
  explicit RmaActive(replay::ReplayContext& ctx) : ctx_(ctx) {}

  // Collective over ctx.comms.world(): validateRmaActive (rma_active_validation.h).
  std::string validate() const;

  // Collective over ctx.comms.world(): exchanges the epochs' times with the partners and adds
  // the patterns to ctx.severities, in trace order. Returns the clock-condition violations of
  // the epochs (docs/patterns/rma_active.md).
  std::uint64_t detect();

 private:
  replay::ReplayContext& ctx_;
};

}  // namespace waitscope::patterns
