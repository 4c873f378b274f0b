#pragma once
// Corrects clock-condition violations before the pattern search, with the controlled logical
// clock and backward amortization (Becker, Rabenseifner, Wolf, Linford, Parallel Computing
// 35(12), 2009). The happened-before relations it keeps are the ones the violation counts check
// (docs/patterns.md), the orders the MPI standard guarantees: a send's enter before its
// receive's completion; every enter of a barrier or an N-to-N operation before every exit, the
// root's enter before the other exits of a 1-to-N operation, every enter before the root's exit
// of an N-to-1 operation, the enters of the lower ranks before a scan's exit; an MPI_Win_post
// enter before the matching MPI_Win_complete exits, an MPI_Win_complete enter before the matching
// MPI_Win_wait (or completing MPI_Win_test) exit, and every enter of a fence before the exit of a
// member that was the target of a transfer in the epoch the fence closes.
//
// Instead of replaying the program message by message, every round runs the clock of each
// location over its events and exchanges the corrected times of the events other locations
// depend on in the analysis' batched exchanges (one all-to-all for the messages and the GATS
// epochs, one reduction per batch of collective operations and fences); rounds repeat until no
// time changes. The first round, on the recorded times, finds whether any relation is broken: if
// none is, nothing is corrected.
#include <cstdint>

#include "analysis/patterns/collective_patterns.h"
#include "analysis/patterns/p2p_patterns.h"
#include "analysis/replay/replay_context.h"
#include "analysis/trace/clock_correction.h"

namespace waitscope::analyzer {

// Receives complete at least this long after their send was entered (and collective exits after
// the enters they wait for), once corrected.
inline constexpr double kMinLatency = 1e-6;

struct TimeCorrection {
  bool applied = false;            // the same on every rank
  std::uint64_t violations = 0;    // broken relations on the recorded times, over all ranks
  int rounds = 0;                  // exchange rounds, the first one included
  bool converged = true;           // false if the rounds stopped at their limit
  trace::LocationClockCorrection correction;  // this location's; empty if not applied
};

// Collective over ctx.comms.world(), after validation (the point-to-point envelopes are matched).
TimeCorrection correctClocks(const replay::ReplayContext& ctx, const patterns::PointToPoint& p2p,
                             const patterns::Collectives& collectives);

}  // namespace waitscope::analyzer
