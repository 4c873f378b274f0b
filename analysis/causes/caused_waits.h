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
// interval. Its (path, numerator) pairs in charges and (own wait, v) pairs
// in props run from its first to the next one's first. 48 bytes: there is one
// for every wait state of the trace; its indirect fraction follows from its
// props (CausedWaits::indirect), and its propagated cost phi, known only after
// the propagation, lies at phiAt in the propagation's buffer.
struct Incoming {
  double syncTime;
  double omega;
  double denom;  // D; 0: the cost goes to the single path charges[first] undivided
  trace::Rank waiter;
  std::uint32_t waitId;
  std::uint32_t firstCharge;
  std::uint32_t firstProp;
  Family family;
  std::uint32_t phiAt = 0;  // set by the propagation
};
static_assert(sizeof(Incoming) == 48, "one for every wait state: keep it compact");

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
  // The part of incoming[i]'s interval its cause spent in own wait states, sum v / D (0 without
  // any): the same sum, in the same order, as prepare() formed.
  double indirect(std::size_t i) const {
    const std::size_t first = incoming[i].firstProp, end = propsEnd(i);
    if (first == end) return 0.0;
    double waited = 0.0;
    for (std::size_t j = first; j < end; ++j) waited += props.values[j];
    return waited / incoming[i].denom;
  }

  // Chunked: they grow to millions of entries on a rank that causes most wait
  // states, and a vector's doubling would briefly hold three times that.
  trace::ChunkedVector<Incoming> incoming;
  // (path, numerator) pairs as two arrays: 12 bytes a charge instead of a padded 16.
  struct Charges {
    trace::ChunkedVector<trace::CallPathId> paths;
    trace::ChunkedVector<double> values;
    std::size_t size() const { return paths.size(); }
    void add(trace::CallPathId path, double value) {
      paths.push_back(path);
      values.push_back(value);
    }
    void shrinkTo(std::size_t n) {
      paths.shrinkTo(n);
      values.shrinkTo(n);
    }
  } charges;
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
  const std::vector<Wait>& waits_;
  SyncIndex& syncs_;
  IntervalProfile& profile_;
};

}  // namespace waitscope::causes::delay
