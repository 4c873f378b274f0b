#pragma once
// What the replay of one rank's location yields: severities of every pattern, clock condition
// violations and, from the backward replay, this location's pieces of the critical path.
#include <cstdint>
#include <vector>

#include "analysis/replay/severities.h"
#include "analysis/trace/ids.h"

namespace waitscope::replay {

// One visit of the critical path to this location (causes analysis).
struct PathPiece {
  trace::CallPathId path;  // active at the visit's end (kNone: the visit lies outside every region)
  double start;
  double end;
};

struct LocalResult {
  Severities severities;
  std::uint64_t clockViolations = 0;
  std::vector<PathPiece> criticalPath;  // on this location, in any order
  std::vector<double> exclusiveTime;    // per call path (time metrics), for the critical path's imbalance
};

}  // namespace waitscope::replay
