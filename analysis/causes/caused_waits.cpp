#include "analysis/causes/caused_waits.h"

#include <algorithm>

namespace waitscope::causes::delay {

using trace::CallPathId;
using trace::Rank;

std::uint32_t PathLists::intern(const std::vector<CallPathId>& paths) {
  std::uint64_t hash = 0xcbf29ce484222325ULL ^ paths.size();  // FNV-1a over the ids
  for (const CallPathId p : paths) hash = (hash ^ p) * 0x100000001b3ULL;
  const auto length = static_cast<std::uint32_t>(paths.size());
  if (!slots_.empty()) {
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = slotOf(hash); slots_[i].length != kFreeSlot; i = (i + 1) & mask) {
      const Kept& kept = slots_[i];
      if (kept.hash != hash || kept.length != length) continue;
      std::size_t k = 0;
      while (k < length && pool_[kept.first + k] == paths[k]) ++k;
      if (k == length) return kept.first;
    }
  }
  const auto first = static_cast<std::uint32_t>(pool_.size());
  for (const CallPathId p : paths) pool_.push_back(p);
  if (kept_ < kMaxDistinct) {
    if (2 * (kept_ + 1) > slots_.size()) grow();
    const std::size_t mask = slots_.size() - 1;
    std::size_t i = slotOf(hash);
    while (slots_[i].length != kFreeSlot) i = (i + 1) & mask;
    slots_[i] = {hash, first, length};
    ++kept_;
  }
  return first;
}

// The high bits of the hash times the golden ratio: FNV-1a's low bits depend only on the low
// bits of the ids.
std::size_t PathLists::slotOf(std::uint64_t hash) const {
  return static_cast<std::size_t>((hash * 0x9E3779B97F4A7C15ULL) >> 32) & (slots_.size() - 1);
}

void PathLists::grow() {
  std::vector<Kept> old(slots_.empty() ? std::size_t{64} : 2 * slots_.size(), Kept{0, 0, kFreeSlot});
  old.swap(slots_);
  const std::size_t mask = slots_.size() - 1;
  for (const Kept& kept : old) {
    if (kept.length == kFreeSlot) continue;
    std::size_t i = slotOf(kept.hash);
    while (slots_[i].length != kFreeSlot) i = (i + 1) & mask;
    slots_[i] = kept;
  }
}

void CausedWaits::prepare(Rank waiter, const WaitHeader& h, const std::vector<double>& theirTime, SearchHints& hints) {
  Incoming in{h.syncTime, h.omega, waiter, h.waitId, 0, 0, 0, static_cast<Family>(h.family)};
  const double a = syncs_.previousSync(waiter, h.syncTime, hints);
  const double b = h.syncTime;
  profile_.profile(a, b, hints);
  in.firstCharge = static_cast<std::uint32_t>(charges.size());
  chargePaths_.clear();
  double sum = 0.0;
  for (const CallPathId path : profile_.profiled()) {
    const double d = profile_.time(path) - theirTime[path];
    if (d > 0.0) {
      chargePaths_.push_back(path);
      charges.push_back(d);
      sum += d;
    }
  }
  in.firstProp = static_cast<std::uint32_t>(props.size());
  double waited = 0.0;
  const std::size_t first = firstWaitEndingAfter(waits_, a, hints);
  for (std::size_t k = first; k < waits_.size() && waits_[k].start < b; ++k) {
    const double v = std::min(b, waits_[k].end) - std::max(a, waits_[k].start);
    if (v > 0.0) {
      props.add(k, v);
      waited += v;
    }
  }
  // D = sum + waited (denom() forms it again from the charges and props). Without excess time
  // and wait states in the interval (skewed or equal intervals) the interval's own time takes
  // the cost, else the call at t_S.
  if (!(sum + waited > 0.0)) {
    charges.shrinkTo(in.firstCharge);
    props.shrinkTo(in.firstProp);
    chargePaths_.clear();
    double all = 0.0;
    for (const CallPathId path : profile_.profiled()) all += profile_.time(path);
    if (all > 0.0) {
      for (const CallPathId path : profile_.profiled()) {
        chargePaths_.push_back(path);
        charges.push_back(profile_.time(path));
      }
    } else {
      chargePaths_.push_back(profile_.pathAt(b));
      charges.push_back(0.0);
    }
  }
  in.paths = paths.intern(chargePaths_);
  profile_.clear();
  incoming.push_back(in);
}

}  // namespace waitscope::causes::delay
