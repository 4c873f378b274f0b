#pragma once
// The cause side of the delay costs: every remote wait state this rank caused, with what it
// charges on this location's synchronization interval (the call paths' delay, and the own wait
// states inside the interval that pass the cost on). All but the propagated cost phi, which
// follows the backward order (delay_propagation.h).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "analysis/causes/analyzed_waits.h"
#include "analysis/causes/interval_profile.h"
#include "analysis/causes/search_hints.h"
#include "analysis/causes/sync_index.h"
#include "analysis/trace/chunked_vector.h"
#include "analysis/trace/ids.h"

namespace waitscope::causes::delay {

// What a waiter tells the cause about one of its wait states, before the
// wait state's profile (`entries` pairs of path id and time).
struct WaitHeader {
  std::uint32_t waitId;
  std::uint32_t family;
  std::uint32_t entries;
  double omega;
  double syncTime;
};

// One remote wait state this rank caused: its charge on this location's
// interval. Its numerators in charges and (own wait, v) pairs in props run from
// its first to the next one's first; the call paths of its numerators, in the
// same order, from `paths` in the charges' path lists. 40 bytes: there is one for
// every wait state of the trace; its denominator D and indirect fraction follow
// from its charges and props (CausedWaits::denom, ::indirect), and its propagated
// cost phi is known only after the propagation.
struct Incoming {
  double syncTime;
  double omega;
  trace::Rank waiter;
  std::uint32_t waitId;
  std::uint32_t firstCharge;
  std::uint32_t firstProp;
  std::uint32_t paths;
  Family family;
};
static_assert(sizeof(Incoming) == 40, "one for every wait state: keep it compact");

// Sequences of call paths, each distinct one kept once: the charges of the wait states a rank
// caused name the same few sequences again and again (the same calls lie between the same
// synchronizations: on halo at 16 ranks, 130 distinct sequences for 480,000 wait states).
// Past kMaxDistinct distinct sequences, new ones are kept without being looked up again, so
// that a trace without repetition pays no more than one copy of each.
class PathLists {
 public:
  // Where `paths` starts in the lists (an equal sequence kept before, or a new copy).
  std::uint32_t intern(const std::vector<trace::CallPathId>& paths);
  trace::CallPathId operator[](std::size_t i) const { return pool_[i]; }

 private:
  static constexpr std::size_t kMaxDistinct = std::size_t{1} << 16;
  static constexpr std::uint32_t kFreeSlot = ~std::uint32_t{0};  // as a length: no sequence is that long
  // The distinct sequences by hash, open addressing in a table at most half full (2 MB at
  // kMaxDistinct): one cache line per lookup, where a node-based map took two or three, and a
  // lookup per caused wait state.
  struct Kept {
    std::uint64_t hash;
    std::uint32_t first;
    std::uint32_t length;
  };
  std::size_t slotOf(std::uint64_t hash) const;
  void grow();

  trace::ChunkedVector<trace::CallPathId> pool_;
  std::vector<Kept> slots_;
  std::size_t kept_ = 0;
};

class CausedWaits {
 public:
  CausedWaits(const std::vector<Wait>& waits, SyncIndex& syncs, IntervalProfile& profile)
      : waits_(waits), syncs_(syncs), profile_(profile) {}

  // Adds the wait state `h` of `waiter`, whose time per call path of this rank
  // over its interval is `theirTime`.
  void prepare(trace::Rank waiter, const WaitHeader& h, const std::vector<double>& theirTime, SearchHints& hints);

  std::size_t chargesEnd(std::size_t i) const {
    return i + 1 < incoming.size() ? incoming[i + 1].firstCharge : charges.size();
  }
  std::size_t propsEnd(std::size_t i) const {
    return i + 1 < incoming.size() ? incoming[i + 1].firstProp : props.size();
  }
  // The call path of incoming[i]'s charge j (firstCharge <= j < chargesEnd(i)).
  trace::CallPathId chargePath(std::size_t i, std::size_t j) const {
    return paths[incoming[i].paths + (j - incoming[i].firstCharge)];
  }
  // D of incoming[i], the sum of its numerators and own waiting times: the same sums, in the
  // same order, as prepare() formed (0: the cost goes to its single call path undivided).
  double denom(std::size_t i) const { return delays(i) + waited(i); }
  // The part of incoming[i]'s interval its cause spent in own wait states, sum v / D (0 without
  // any).
  double indirect(std::size_t i) const {
    if (incoming[i].firstProp == propsEnd(i)) return 0.0;
    const double v = waited(i);
    return v / (delays(i) + v);
  }

  // Chunked: they grow to millions of entries on a rank that causes most wait
  // states, and a vector's doubling would briefly hold three times that.
  trace::ChunkedVector<Incoming> incoming;
  // The numerators; their call paths are in `paths`, a sequence per incoming wait state.
  trace::ChunkedVector<double> charges;
  PathLists paths;
  // (own wait, v) pairs as two arrays, for the same reason.
  struct Props {
    trace::ChunkedVector<std::uint32_t> waits;
    trace::ChunkedVector<double> values;
    std::size_t size() const { return waits.size(); }
    void add(std::size_t wait, double value) {
      waits.push_back(static_cast<std::uint32_t>(wait));
      values.push_back(value);
    }
    void shrinkTo(std::size_t n) {
      waits.shrinkTo(n);
      values.shrinkTo(n);
    }
  } props;

 private:
  double delays(std::size_t i) const {
    double sum = 0.0;
    for (std::size_t j = incoming[i].firstCharge, end = chargesEnd(i); j < end; ++j) sum += charges[j];
    return sum;
  }
  double waited(std::size_t i) const {
    double sum = 0.0;
    for (std::size_t j = incoming[i].firstProp, end = propsEnd(i); j < end; ++j) sum += props.values[j];
    return sum;
  }

  const std::vector<Wait>& waits_;
  SyncIndex& syncs_;
  IntervalProfile& profile_;
  std::vector<trace::CallPathId> chargePaths_;  // of the wait state being prepared
};

}  // namespace waitscope::causes::delay
