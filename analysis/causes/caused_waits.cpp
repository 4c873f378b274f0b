#include "analysis/causes/caused_waits.h"

#include <algorithm>

namespace waitscope::causes::delay {

using trace::CallPathId;
using trace::Rank;

void CausedWaits::prepare(Rank waiter, const WaitHeader& h, const std::vector<double>& theirTime, SearchHints& hints) {
  Incoming in{h.syncTime, h.omega, 0.0, waiter, h.waitId, 0, 0, static_cast<Family>(h.family)};
  const double a = syncs_.previousSync(waiter, h.syncTime, hints);
  const double b = h.syncTime;
  profile_.profile(a, b, hints);
  in.firstCharge = static_cast<std::uint32_t>(charges.size());
  double sum = 0.0;
  for (const CallPathId path : profile_.profiled()) {
    const double d = profile_.time(path) - theirTime[path];
    if (d > 0.0) {
      charges.add(path, d);
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
  const double total = sum + waited;
  if (total > 0.0) {
    in.denom = total;  // indirect(): waited / total
  } else {
    // No excess time and no wait states in the interval (skewed or equal
    // intervals): the interval's own time takes the cost, else the call at t_S.
    charges.shrinkTo(in.firstCharge);
    props.shrinkTo(in.firstProp);
    double all = 0.0;
    for (const CallPathId path : profile_.profiled()) all += profile_.time(path);
    if (all > 0.0) {
      for (const CallPathId path : profile_.profiled()) charges.add(path, profile_.time(path));
      in.denom = all;
    } else {
      charges.add(profile_.pathAt(b), 0.0);
      in.denom = 0.0;
    }
  }
  profile_.clear();
  incoming.push_back(in);
}

}  // namespace waitscope::causes::delay
