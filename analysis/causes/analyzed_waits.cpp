#include "analysis/causes/analyzed_waits.h"

#include "analysis/replay/merge_runs.h"
#include "analysis/replay/search_near.h"

namespace waitscope::causes::delay {

using metrics::Metric;
using trace::kNone;
using trace::Rank;

Family familyOf(Metric m) {
  // Scalasca's delay analysis covers no Wait at Finalize: the processes finish their work at
  // different times, and nothing after it could have been sped up.
  if (m == Metric::MpiFinalizeWait) return kNoFamily;
  switch (metrics::waitFamily(m)) {
    case metrics::WaitFamily::PointToPoint: return kP2p;
    case metrics::WaitFamily::Collective: return kCollective;
    case metrics::WaitFamily::RmaActive: return kRma;
    default: return kNoFamily;  // passive target: contention, not delay (docs/causes-delay.md)
  }
}

AnalyzedWaits collectWaits(const replay::Severities& severities, Rank me, int worldSize) {
  AnalyzedWaits out;
  out.waits.reserve(severities.instances().size());
  for (const replay::WaitInstance& w : severities.instances()) {
    const Family f = familyOf(w.metric);
    if (f == kNoFamily || w.cause == kNone || w.cause == me || w.cause >= static_cast<Rank>(worldSize) ||
        !(w.end > w.start) || w.callPath == kNone)
      continue;
    out.waits.push_back({w.start, w.end, w.callPath, w.cause, static_cast<unsigned>(f)});
  }
  // Each pattern family adds its instances in time order.
  replay::sortByMergingRuns(out.waits, [](const Wait& a, const Wait& b) {
    return a.start != b.start ? a.start < b.start : a.end > b.end;
  });
  // A sub-pattern (Late Complete in Early Wait, Early Fence in Wait at Fence)
  // is the same wait. So the kept ones start and end strictly later than the
  // one before them.
  std::size_t kept = 0;
  for (std::size_t i = 0; i < out.waits.size(); ++i) {
    const Wait& w = out.waits[i];
    if (kept > 0 && w.start >= out.waits[kept - 1].start && w.end <= out.waits[kept - 1].end) continue;
    out.waits[kept++] = w;
  }
  out.waits.resize(kept);
  out.waits.shrink_to_fit();  // reserved for every instance; they live through the whole backward replay
  // The wait states per cause, in wait-list order.
  const auto n = static_cast<std::size_t>(worldSize);
  out.causeBegin.assign(n + 1, 0);
  for (const Wait& w : out.waits) ++out.causeBegin[w.cause + 1];
  for (std::size_t p = 0; p < n; ++p) out.causeBegin[p + 1] += out.causeBegin[p];
  out.byCause.resize(out.waits.size());
  std::vector<std::uint32_t> at(out.causeBegin.begin(), out.causeBegin.end() - 1);
  for (std::size_t k = 0; k < out.waits.size(); ++k)
    out.byCause[at[out.waits[k].cause]++] = static_cast<std::uint32_t>(k);
  return out;
}

std::size_t firstWaitEndingAfter(const std::vector<Wait>& waits, double a, SearchHints& hints) {
  hints.waitEnd =
      replay::partitionPointNear(waits.size(), hints.waitEnd, [&](std::size_t k) { return waits[k].end > a; });
  return hints.waitEnd;
}

}  // namespace waitscope::causes::delay
