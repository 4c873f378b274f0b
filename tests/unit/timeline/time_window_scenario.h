#pragma once
// The message trace of timeline_scenarios.h with a report whose values follow
// the analyzer's rules by construction (time per category, visits, a Late
// Sender instance, the critical path and its imbalance, bytes), for the
// time-window tests below Qt and in the app.
#include <cstdint>

#include "analysis/report/report.h"
#include "analysis/trace/trace.h"

namespace waitscope::test {

enum TimeWindowMetric : std::uint32_t {
  kTwTime, kTwExecution, kTwComp, kTwMpi, kTwComm, kTwP2p, kTwLateSender, kTwVisits, kTwBytes, kTwPath, kTwImbalance
};

// Rank 0: main [0, 8], foo [1, 2], 8 sends of 3/64 s from 2 on every 1/16 s, bar [4, 5].
// Rank 1: main [0, 8], 8 receives of 1/64 s, the first with 1/128 s of Late Sender from 2 + 1/64.
// The critical path lies on rank 0 until 4.5 (ending in bar), then on rank 1.
report::Report timeWindowReport(const trace::Trace& trace);

}  // namespace waitscope::test
