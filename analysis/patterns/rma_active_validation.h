#pragma once
// The checks RMA active-target synchronization must pass before its replay, which would
// otherwise deadlock: epochs balanced on live windows, and partners that agree.
#include <string>

#include "analysis/replay/replay_context.h"

namespace waitscope::patterns {

// Collective over ctx.comms.world(). Checks that this rank's RMA epochs are
// balanced and match its partners' (so the replay cannot deadlock); returns an
// empty string or one line naming the location, event and time.
std::string validateRmaActive(const replay::ReplayContext& ctx);

}  // namespace waitscope::patterns
