#pragma once
// The critical path's hops (Hermanns, Miklosch, Böhme, Wolf, EuroMPI 2013, §3): a token with the
// walk's current time goes back from the path's end; on each location it goes back to the latest
// wait state that ended at or before that time and then to the wait state's cause, at the time
// the cause released it, until a location has no such wait state left (the program's start).
//
// The hops follow one another strictly, so rank 0 replays them from the locations' wait states
// (switches) instead of sending a message per hop, and each location walks its own legs of the
// path. Rank 0 holds neither every location's switches nor every leg at once: it fetches each
// location's switches in chunks, latest first, as the walk reaches them (the walk's time never
// increases, so a switch that ended after it is never used again), and sends each location its
// legs in chunks as they fill. Its memory is at most three chunks per location (the switches in
// use, the next ones on their way, the legs being filled), not the trace's wait states.
#include <cstddef>
#include <functional>
#include <vector>

#include "analysis/replay/location_comm.h"
#include "analysis/trace/ids.h"

namespace waitscope::causes {

// A wait state of this location that switches the path to its cause.
struct PathSwitch {
  double start;
  double end;
  trace::Rank cause;
};

// Where the walk starts (the location and time the path ends) and the program's start.
struct PathEnds {
  double start;
  double end;
  int endRank;
};

// One stretch of the path on this location: back from `from` to `to`.
struct Leg {
  double from;
  double to;
};

// Switches (or legs) per chunk: a few thousand at a few locations, fewer at many, so that rank 0's
// windows stay about a megabyte whatever the number of locations.
std::size_t hopChunk(int locations);

// Collective over `world`. `switches` are this location's, in increasing order of end (equal ends
// by start, then cause). Calls `onLeg` with this location's legs in the walk's order (backwards in
// time), as rank 0 plans them, before it returns.
void walkHops(const std::vector<PathSwitch>& switches, const PathEnds& ends, const replay::LocationComm& world,
              std::size_t chunk, const std::function<void(const Leg&)>& onLeg);

}  // namespace waitscope::causes
