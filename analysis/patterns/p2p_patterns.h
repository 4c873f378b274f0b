#pragma once
// Point-to-point patterns: Late Sender, Messages in Wrong Order (from the same
// and from different sources), Late Receiver, and clock-condition violations.
//
// Replayed point-to-point, batched: instead of one message per application
// message, every rank sends each peer one message with the envelopes and send
// times of all its messages to that peer, and one reply with the receive
// posting times (docs/patterns.md explains why this is the same exchange).
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/replay/replay_context.h"

namespace waitscope::patterns {

class PointToPoint {
 public:
  explicit PointToPoint(replay::ReplayContext& ctx);

  // Nothing to validate before exchange(): a send or receive without partner shows only
  // when the envelopes meet, and exchange() reports it.

  // Collective over ctx.comms.world(): exchanges envelopes and times and
  // matches every receive with its send. Returns "" or one line naming the
  // location, event and time of the first receive or send without a partner.
  std::string exchange();

  // Local: adds the patterns to ctx.severities. Returns clock-condition violations.
  std::uint64_t detect();

  struct Send {
    std::uint32_t dest;        // world rank
    std::uint32_t comm;
    std::uint32_t tag;
    std::uint32_t event;       // index of the send record
    std::uint32_t call;        // the sending call (CallIndex::callById), kNone outside one
    // The call that completed the send: the sending call itself when blocking, the MPI_Wait*
    // (or MPI_Test*) that completed the request of a non-blocking one; kNone if none did.
    std::uint32_t completion = trace::kNone;
    double enter;              // enter of the sending call
  };
  static_assert(sizeof(Send) == 32, "one per message sent: no padding");
  struct Receive {
    std::uint32_t source;      // world rank
    std::uint32_t comm;
    std::uint32_t tag;
    std::uint32_t event;       // index of the completion record (MpiRecv / MpiIrecv)
    std::uint32_t postKey;     // event index of the posting (recv itself, or the irecv request)
    std::uint32_t call;        // the completing call (CallIndex::callById), kNone outside one
    double postEnter;          // enter of the call that posted the receive
    double sendEnter = 0.0;    // from the matched send
  };
  static_assert(sizeof(Receive) == 40, "one per message received: keep it compact");
  const std::vector<Send>& sends() const { return sends_; }
  const std::vector<Receive>& receives() const { return receives_; }

 private:
  replay::ReplayContext& ctx_;
  std::vector<Send> sends_;          // in event order
  std::vector<Receive> receives_;    // in completion order
  std::vector<double> recvPostOfSend_;  // per entry of sends_: the matched receive's posting enter
};

}  // namespace waitscope::patterns
