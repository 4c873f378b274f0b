#pragma once
// The wait states of this location whose causes the backward replay analyzes: the forward
// patterns' instances of the point-to-point, collective and RMA active-target families with a
// remote cause (a sub-pattern contained in another instance of the same call is the same wait),
// by start time, and grouped by cause.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "analysis/causes/search_hints.h"
#include "analysis/metrics/metric_table.h"
#include "analysis/replay/severities.h"
#include "analysis/trace/ids.h"

namespace waitscope::causes::delay {

enum Family : int { kNoFamily = -1, kP2p = 0, kCollective = 1, kRma = 2 };
constexpr std::size_t kFamilies = 3;

// The delay family of a wait-state metric; kNoFamily for those without delay costs.
Family familyOf(metrics::Metric m);

// One analyzed wait state of this location. 32 bytes: there is one for every wait state.
struct Wait {
  double start;
  double end;
  trace::CallPathId path;
  trace::Rank cause : 30;  // MPI ranks are ints, and far fewer
  unsigned family : 2;     // a Family other than kNoFamily
  double directShare = 0.0;  // later waiting time it explains directly
};
static_assert(sizeof(Wait) == 32, "one for every wait state: keep it compact");

struct AnalyzedWaits {
  std::vector<Wait> waits;                // by start time, non-overlapping
  std::vector<std::uint32_t> causeBegin;  // per cause, its first entry in byCause; one more at the end
  std::vector<std::uint32_t> byCause;     // indices into waits, grouped by cause
};

// The wait states among `severities`' instances of location `me` of `worldSize`.
AnalyzedWaits collectWaits(const replay::Severities& severities, trace::Rank me, int worldSize);

// First wait state that ends after a.
std::size_t firstWaitEndingAfter(const std::vector<Wait>& waits, double a, SearchHints& hints);

}  // namespace waitscope::causes::delay
