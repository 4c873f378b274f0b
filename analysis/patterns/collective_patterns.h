#pragma once
// Collective patterns: Wait at Barrier, Barrier Completion, Wait at N x N,
// N x N Completion, Late Broadcast, Early Reduce, Early Scan, and for MPI_Init
// and MPI_Finalize, Initialization Completion and Wait at Finalize; and the clock-condition
// violations of collective calls.
//
// Replayed with collectives over the communicators rebuilt from the trace,
// batched: one MPI_Allreduce (and one MPI_Exscan for scans) carries the times
// of many consecutive collective operations of a communicator at once.
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/replay/replay_context.h"

namespace waitscope::patterns {

class Collectives {
 public:
  // Collects this location's collective operations per communicator (one pass).
  explicit Collectives(replay::ReplayContext& ctx);

  // Collective over every rebuilt communicator: checks that all members recorded
  // the same sequence of collective operations (count, operation, root).
  // Returns "" or one line naming the location, call, time and communicator.
  std::string validate() const;

  // Nothing to exchange before detect(): its batched reductions are the detection.

  // Collective over every rebuilt communicator: adds the patterns. Returns the
  // clock-condition violations (calls left before a partner entered).
  std::uint64_t detect();

  enum class Kind : std::uint8_t { Barrier, NxN, OneToN, NToOne, Scan, Init, Finalize, Other };
  // Its call as the enter and leave event, whose path and times it reads (one per collective
  // call: 20 bytes, where a copy of the call took 48).
  struct Operation {
    Kind kind;
    bool sends;          // this process sends data in it (an N-to-1 operation's senders)
    std::uint32_t code;  // op and root, compared across members
    trace::Rank root;    // rank in the communicator, kNone if none
    std::uint32_t enterEvent;
    std::uint32_t leaveEvent;
    replay::Call call(const std::vector<trace::Event>& events) const {
      const trace::Event& enter = events[enterEvent];
      return {enter.ref, enter.time, events[leaveEvent].time, enterEvent, leaveEvent};
    }
  };
  static_assert(sizeof(Operation) == 20, "one per collective call: keep it compact");
  // Per trace communicator, this location's operations in order.
  const std::vector<std::vector<Operation>>& operations() const { return ops_; }

 private:
  replay::ReplayContext& ctx_;
  std::vector<std::vector<Operation>> ops_;  // per trace communicator, in order
};

}  // namespace waitscope::patterns
