#pragma once
// RMA passive-target patterns (defined by us, docs/patterns.md): Lock
// Competition (in lock calls and in transfers) and Wait for Progress.
#include <string>

#include "analysis/replay/replay_context.h"

namespace waitscope::patterns {

// Local check of lock/unlock balance; empty string or one line naming the
// location, event and time.
std::string validateRmaPassive(const replay::ReplayContext& ctx);

// Collective over ctx.comms.world(). Adds the patterns to ctx.severities.
void analyzeRmaPassive(replay::ReplayContext& ctx);

}  // namespace waitscope::patterns
