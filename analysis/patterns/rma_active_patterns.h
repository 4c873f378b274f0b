#pragma once
// RMA active-target patterns (seeds 000 and 003): Late Post (start and complete
// variants), Early Transfer, Early Wait, Late Complete, Wait at Fence, Early
// Fence, Wait at Create, Wait at Free, and the pairwise-synchronization counts.
// Replayed with RMA: one exchange window per application window, opened and
// closed with the recorded epochs.
#include <string>

#include "analysis/replay/replay_context.h"

namespace waitscope::patterns {

// Collective over ctx.comms.world(). Checks that this rank's RMA epochs are
// balanced and match its partners' (so the replay cannot deadlock); returns an
// empty string or one line naming the location, event and time.
std::string validateRmaActive(const replay::ReplayContext& ctx);

// Collective over ctx.comms.world(): replays window creation, fences and
// GATS epochs in trace order and adds the patterns to ctx.severities.
void analyzeRmaActive(replay::ReplayContext& ctx);

}  // namespace waitscope::patterns
