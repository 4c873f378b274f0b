#pragma once
// RMA passive-target patterns (defined by us, docs/patterns.md): Lock
// Competition (in lock calls and in transfers) and Wait for Progress.
#include <string>

#include "analysis/replay/replay_context.h"

namespace waitscope::patterns {

class RmaPassive {
 public:
  explicit RmaPassive(replay::ReplayContext& ctx) : ctx_(ctx) {}

  // Local check of lock/unlock balance; empty string or one line naming the
  // location, event and time.
  std::string validate() const;

  // Nothing to exchange before detect(): detect() exchanges the holds and replies itself,
  // after the other families' collective work (every rank runs the same sequence).

  // Collective over ctx.comms.world(). Adds the patterns to ctx.severities.
  void detect();

 private:
  replay::ReplayContext& ctx_;
};

}  // namespace waitscope::patterns
