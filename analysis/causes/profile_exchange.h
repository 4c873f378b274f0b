#pragma once
// The synchronization graph and the interval profiles, exchanged: every waiter sends each cause,
// in all-to-all rounds, its wait states (id, family, omega, t_S) with their interval profiles, in
// the order of its wait list; each cause prepares their charges (caused_waits.h). Neither depends
// on the backward order.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "analysis/causes/analyzed_waits.h"
#include "analysis/causes/caused_waits.h"
#include "analysis/causes/interval_profile.h"
#include "analysis/causes/path_keys.h"
#include "analysis/causes/search_hints.h"
#include "analysis/causes/sync_index.h"
#include "analysis/replay/replay_context.h"
#include "analysis/replay/location_comm.h"
#include "analysis/trace/ids.h"

namespace waitscope::causes::delay {

class ProfileExchange {
 public:
  ProfileExchange(const replay::ReplayContext& ctx, const replay::LocationComm& comm, const AnalyzedWaits& waits,
                  SyncIndex& syncs, IntervalProfile& profile, CausedWaits& caused);

  // Collective over `comm`: all rounds, until no rank has wait states left to send.
  void run();

 private:
  bool prepareRound();
  void receiveProfiles();
  bool alltoallBytes(bool more);

  // Bounds three buffers per process (out_, in_ and MPI's), each about a round's size but for
  // the last wait state that fills it (in_: or kLeastRoundBytes from each rank that still sends,
  // if more): a process that holds several locations splits it between them (down to a floor
  // that keeps the messages large), as they exchange at the same time.
  static constexpr std::size_t kRoundBytes = std::size_t{1} << 20;
  static constexpr std::size_t kLeastRoundBytes = std::size_t{64} << 10;
  static_assert(kRoundBytes < (std::size_t{1} << 29), "a grant travels in 30 bits");

  const replay::ReplayContext& ctx_;
  std::size_t roundBytes_;
  const replay::LocationComm& comm_;
  const std::vector<Wait>& waits_;
  const std::vector<std::uint32_t>& causeBegin_;
  const std::vector<std::uint32_t>& byCause_;
  SyncIndex& syncs_;
  IntervalProfile& profile_;
  CausedWaits& caused_;
  const PathKeys keys_;  // the waiters' keys name call paths of this rank's tree

  // Per peer, this rank as waiter and as cause.
  std::vector<std::uint32_t> nextOfCause_;  // the next entry of byCause_ to send, per cause
  std::vector<std::size_t> grantOf_;        // per cause, the bytes it takes from this rank in a round
  int waitersLeft_ = 0;                     // as a cause: the ranks with wait states still to send it
  // The search state of the peers this rank waited for and of those that waited for it, in slots
  // made as they first exchange (the keys go with the first bytes): a rank has few of them, and a
  // process holding many locations of a large world would otherwise keep every pair.
  static constexpr std::uint32_t kNoSlot = ~std::uint32_t{0};
  struct Waiter {
    SearchHints hints;
    std::vector<trace::CallPathId> localPathOf;  // its path ids -> this rank's
  };
  std::vector<std::uint32_t> causeSlot_;   // per peer: its slot in causeHints_ once this rank sent it keys
  std::vector<std::uint32_t> waiterSlot_;  // per peer: its slot in waiters_ once its keys came
  std::vector<SearchHints> causeHints_;    // as waiter, per cause
  std::vector<Waiter> waiters_;            // as cause, per waiter
  std::vector<char> out_, in_;
  std::vector<int> sendCount_, recvCount_, sdispl_, rdispl_, sendInfo_, recvInfo_;
  std::vector<double> theirTime_;  // per local call path, for the wait state being prepared
  std::vector<trace::CallPathId> theirTouched_;
};

}  // namespace waitscope::causes::delay
