#pragma once
// Collective wait states aggregated up the tree: every member's enter and
// leave go to its first-layer place, which keeps them and sends a partial aggregate (latest
// enter, earliest leave, the root's enter, the earliest non-root enter, members counted) up;
// places merge partials on the way; the root completes an instance when all members of the
// communicator are counted and sends the total back down, where each member's wait is what the
// trace analysis computes from the same aggregate (Wait at Barrier, Barrier Completion, Wait at
// NxN, NxN Completion, Late Broadcast, Early Reduce).
#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "analysis/online/online_event.h"
#include "analysis/online/wait_totals.h"

namespace waitscope::online {

// Merges `from` into `into` (associative and commutative: partials may come in any grouping).
void mergePartial(Partial& into, const Partial& from);
// The partial of one member's event.
Partial partialOf(const Event& e);

// A place's part: members waiting for results (first layer) and deltas not yet sent up.
class CollectiveTable {
 public:
  void addMember(const Event& e);
  void addPartial(const Partial& p);
  // The partials gathered since the last call (to send up, or to complete at the root).
  std::vector<Partial> takeDeltas();
  // The members of the completed instance `total` get their waits; false if none are here.
  bool applyResult(const Partial& total, WaitTotals& totals);
  std::size_t entries() const { return members_ + deltas_.size(); }

 private:
  struct Member {
    std::uint32_t rank, node;
    CollectiveKind kind;
    bool isRoot;
    double enter, leave;
  };
  static std::uint64_t key(std::uint32_t comm, std::uint64_t seq) { return seq << 32 ^ comm; }
  std::unordered_map<std::uint64_t, std::vector<Member>> open_;
  std::unordered_map<std::uint64_t, Partial> deltas_;
  std::size_t members_ = 0;
};

// The root's part: instances not yet complete.
class CollectiveCompletion {
 public:
  // Merges `delta`; true (and the total in `complete`) when every member is counted.
  bool add(const Partial& delta, Partial& complete);
  std::size_t entries() const { return open_.size(); }

 private:
  std::unordered_map<std::uint64_t, Partial> open_;
};

}  // namespace waitscope::online
