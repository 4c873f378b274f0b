#pragma once
// The timeline index of one trace and its report: per location, the region
// sequence at several resolutions, and the messages, collectives, RMA epochs,
// RMA transfers, wait-state instances and critical-path segments, each sorted
// by time. Built once (from the trace, location by location) and kept as a
// file beside the report (timeline_index_file.h); a slice query then costs
// what it returns, not what the trace holds.
#include <cstdint>
#include <string>
#include <vector>

#include "interval_list.h"
#include "report/report.h"
#include "timeline_types.h"
#include "trace/trace.h"

namespace waitscope::timeline {

// One resolution of a location's region sequence. Level 0 is exact
// (resolution 0); level k merges by RegionMerger with pixel = resolution.
// `points` ends with a point of call path kNoId at the last leave.
struct RegionLevel {
  double resolution = 0.0;
  std::vector<RegionPoint> points;
};

struct LocationTimeline {
  std::vector<RegionLevel> levels;  // finest first
  IntervalList<Message> sends;      // this location is the sender
  IntervalList<Message> receives;   // this location is the receiver
  IntervalList<Collective> collectives;
  IntervalList<Epoch> epochs;
  IntervalList<Transfer> outgoing;  // this location is the origin
  IntervalList<Transfer> incoming;  // this location is the target
  IntervalList<InstanceMark> instances;
  IntervalList<PathMark> path;
};

struct TimelineIndex {
  double begin = 0.0;  // first event time over all locations
  double end = 0.0;    // last event time
  std::vector<RegionGroup> callPathGroups;  // indexed like Report::callPaths
  std::vector<LocationTimeline> locations;  // indexed like Report::locations

  RegionGroup groupOf(std::uint32_t callPath) const {
    return callPath < callPathGroups.size() ? callPathGroups[callPath] : RegionGroup::MpiOther;
  }
  std::uint64_t itemCount() const;
  std::size_t memoryBytes() const;
};

// Builds the thinned levels of every item list (after building or loading).
void buildListLevels(TimelineIndex& index);

// Builds the index from a trace held in memory (every MPI location loaded).
TimelineIndex buildTimelineIndex(const trace::Trace& trace, const report::Report& report);

// Builds the index reading the OTF2 trace one location at a time, so the
// trace's events never need to fit in memory at once. Throws trace::TraceError.
TimelineIndex buildTimelineIndex(const std::string& tracePath, const report::Report& report);

}  // namespace waitscope::timeline
