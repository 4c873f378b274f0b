#pragma once
// Point-to-point message matching at the receiver's first-layer place (Hilbrich et al., EASC 2014,
// section 3): send and receive events with the same envelope (communicator, source, destination,
// tag) pair up in order (MPI's non-overtaking rule); whichever comes first waits in the matching
// table. A matched pair gives the Late Sender and Late Receiver waits as the trace analysis defines
// them (docs/patterns.md); receives completed by one call (MPI_Waitall) wait together for the
// latest of their senders.
#include <cstddef>
#include <cstdint>
#include <deque>
#include <unordered_map>

#include "analysis/online/online_event.h"
#include "analysis/online/wait_totals.h"

namespace waitscope::online {

class MessageMatcher {
 public:
  explicit MessageMatcher(WaitTotals& totals) : totals_(totals) {}

  void send(const Event& e) { add(e, true); }
  void receive(const Event& e) { add(e, false); }

  // Entries held: unmatched sends and receives, and calls waiting for more of their receives.
  std::size_t entries() const { return unmatched_ + openCalls_.size(); }
  std::size_t unmatched() const { return unmatched_; }

 private:
  struct Key {
    std::uint32_t comm, source, dest;
    std::int32_t tag;
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    std::size_t operator()(const Key& k) const {
      std::uint64_t h = k.comm * 0x9E3779B97F4A7C15ull;
      h ^= (static_cast<std::uint64_t>(k.source) << 32 | k.dest) + 0x7F4A7C15 + (h << 6) + (h >> 2);
      h ^= static_cast<std::uint32_t>(k.tag) + (h << 6) + (h >> 2);
      return static_cast<std::size_t>(h);
    }
  };
  struct Queue {
    bool sends = true;  // what the queue holds (all of one kind)
    std::deque<Event> items;
  };
  struct OpenCall {
    std::uint32_t remaining = 0;
    double latestSend = -1e300;
  };

  void add(const Event& e, bool isSend);
  void matched(const Event& send, const Event& recv);
  void lateSender(const Event& recv, double sendEnter);

  WaitTotals& totals_;
  std::unordered_map<Key, Queue, KeyHash> table_;
  std::unordered_map<std::uint64_t, OpenCall> openCalls_;  // (rank, call) of multi-receive calls
  std::size_t unmatched_ = 0;
};

}  // namespace waitscope::online
