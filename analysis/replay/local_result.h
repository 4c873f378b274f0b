#pragma once
// What the replay of one rank's location yields: severities of every pattern, clock condition
// violations and, from the backward replay, this location's pieces of the critical path.
#include <cstdint>
#include <vector>

#include "analysis/replay/severities.h"
#include "analysis/trace/clock_correction.h"
#include "analysis/trace/ids.h"

namespace waitscope::replay {

// One visit of the critical path to this location (causes analysis).
struct PathPiece {
  trace::CallPathId path;  // active at the visit's end (kNone: the visit lies outside every region)
  double start;
  double end;
};

// Clock-condition violations found on this location, per paradigm (docs/patterns.md).
struct ClockViolationCounts {
  std::uint64_t p2p = 0;
  std::uint64_t collective = 0;
  std::uint64_t rma = 0;
};

// The time metrics of one of this rank's other locations (a thread or accelerator stream of
// its process; trace::Trace::threadLocations, same order).
struct ThreadResult {
  trace::LocationId location;
  Severities severities;
};

// What the correction of clock-condition violations did before the pattern search
// (analysis/analyzer/time_correction.h).
struct TimeCorrectionSummary {
  bool applied = false;            // the same on every rank
  std::uint64_t violations = 0;    // broken happened-before relations on the recorded times, all ranks
  std::uint64_t movedEvents = 0;   // this location's events whose time changed
  double largestShift = 0.0;       // seconds, this location
  int rounds = 0;                  // exchange rounds
  trace::LocationClockCorrection correction;  // this location's, empty unless applied
};

struct LocalResult {
  Severities severities;
  ClockViolationCounts clockViolations;
  TimeCorrectionSummary timeCorrection;
  std::vector<PathPiece> criticalPath;  // on this location, in any order
  std::vector<double> exclusiveTime;    // per call path (time metrics), for the critical path's imbalance
  std::vector<ThreadResult> threads;    // time metrics only: no wait states on these
};

}  // namespace waitscope::replay
