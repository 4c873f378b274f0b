#pragma once
// The synchronization index of one location: when it last synchronized with each peer (a message
// with it, a collective, fence, window create/free on a communicator containing both, a
// post/start/complete/wait whose group names it, MPI_Init/Finalize, or the start of the trace).
// A wait state's synchronization interval starts there on both sides.
#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

#include "analysis/causes/analyzed_waits.h"
#include "analysis/causes/search_hints.h"
#include "analysis/replay/replay_context.h"
#include "analysis/trace/ids.h"

namespace waitscope::causes::delay {

class SyncIndex {
 public:
  // The synchronization times per peer and per communicator, from the call
  // index's communication events: a synchronizing event counts at the enter of
  // the innermost region around it (the MPI call), else at its own time;
  // MPI_Init and MPI_Finalize synchronize with every location.
  SyncIndex(const replay::ReplayContext& ctx, const std::vector<Wait>& waits);

  // Enter of the latest synchronizing call with `peer` entered before t.
  double previousSync(trace::Rank peer, double t, SearchHints& hints);

 private:
  // Synchronization times, sorted, with the place of the last answer in them: the lists are kept
  // apart and searched one by one, never merged per peer, which would copy every communicator's
  // list once per peer asked about (on a world of N ranks, N copies of its collectives).
  struct Times {
    std::vector<double> times;
    std::size_t hint = 0;
  };
  static constexpr std::uint32_t kNoSlot = ~std::uint32_t{0};
  struct CommTimes {
    Times syncs;
    std::vector<char> members;  // per world rank
  };

  // The times of the peers this location synchronized with in pairs, by slot: a location has few
  // such peers, and a process holding many locations of a large world would otherwise keep a list
  // for every pair.
  Times& peerTimes(trace::Rank peer);

  const std::vector<Wait>& waits_;
  double traceStart_ = 0.0;
  Times globalSyncs_;
  std::vector<std::uint32_t> peerSlot_;  // per world rank: its slot in perPeer_, or kNoSlot
  std::vector<Times> perPeer_;
  std::map<trace::CommId, CommTimes> perComm_;
};

}  // namespace waitscope::causes::delay
