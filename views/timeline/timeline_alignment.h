#pragma once
// Where two runs' timelines are aligned when stacked on one time axis
// (stacked_timelines.h): the trace time of each run that is drawn at t = 0.
// Points: the trace start; the end of MPI initialisation (the latest exit of
// MPI_Init or MPI_Init_thread over the run's locations, when the last rank is
// ready); the first call of a named region on any location (the start of a
// solver loop, say); or the trace starts with the second run shifted by a
// given number of seconds.
#include <QString>

#include "analysis/report/report.h"
#include "analysis/timeline/timeline_index.h"
#include "analysis/timeline/timeline_query.h"

namespace waitscope::views {

struct TimelineAlignment {
  enum class Kind { TraceStart, EndOfMpiInit, FirstCallOfRegion, Offset };
  Kind kind = Kind::TraceStart;
  QString region;       // FirstCallOfRegion: the region's name, as in the report
  double offset = 0.0;  // Offset: seconds the second run is drawn later than the first (negative: earlier)
};

// A run's alignment point in its own trace time, or why it has none (one line).
struct AlignmentPoint {
  double time = 0.0;
  bool found = false;
  QString problem;
};

// The alignment point of the run behind `index` and `report`; `second` says
// whether it is the run drawn below (Offset shifts that one). A point it lacks
// (no MPI_Init, a region never entered) comes back not found, at the trace start.
AlignmentPoint alignmentPoint(const timeline::TimelineIndex& index, const report::Report& report,
                              const TimelineAlignment& alignment, bool second);
// The same for any slice source: only a local index holds the exact region
// sequence, so another source (a remote trace) aligns at its start and says why.
AlignmentPoint alignmentPoint(const timeline::SliceSource& source, const report::Report& report,
                              const TimelineAlignment& alignment, bool second);

}  // namespace waitscope::views
