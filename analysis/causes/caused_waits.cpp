#include "analysis/causes/caused_waits.h"

#include <algorithm>

namespace waitscope::causes::delay {

using trace::CallPathId;
using trace::Rank;

std::uint32_t PathLists::intern(const std::vector<CallPathId>& paths) {
  std::uint64_t hash = 0xcbf29ce484222325ULL ^ paths.size();  // FNV-1a over the ids
  for (const CallPathId p : paths) hash = (hash ^ p) * 0x100000001b3ULL;
  const auto length = static_cast<std::uint32_t>(paths.size());
  for (auto [it, end] = byHash_.equal_range(hash); it != end; ++it) {
    const Kept& kept = it->second;
    if (kept.length != length) continue;
    std::size_t k = 0;
    while (k < length && pool_[kept.first + k] == paths[k]) ++k;
    if (k == length) return kept.first;
  }
  const auto first = static_cast<std::uint32_t>(pool_.size());
  for (const CallPathId p : paths) pool_.push_back(p);
  if (byHash_.size() < kMaxDistinct) byHash_.emplace(hash, Kept{first, length});
  return first;
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
