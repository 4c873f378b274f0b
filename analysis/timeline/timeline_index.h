#pragma once
// The timeline index of one trace and its report: per location, the region
// sequence at several resolutions, and the messages, collectives, RMA epochs,
// RMA transfers, wait-state instances and critical-path segments, each sorted
// by time. Built once (from the trace, location by location) and kept as a
// file beside the report (timeline_index_file.h); a slice query then costs
// what it returns, not what the trace holds.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "analysis/report/report.h"
#include "analysis/timeline/interval_list.h"
#include "analysis/timeline/timeline_types.h"
#include "analysis/trace/clock_correction.h"
#include "analysis/trace/trace.h"

namespace waitscope::timeline {

// One resolution of a location's region sequence. Level 0 is exact
// (resolution 0); level k merges by RegionMerger with pixel = resolution.
// The points end with one of call path kNoId at the last leave. They live
// either in the level's own vector (just built) or in the memory-mapped index
// file (loaded), so a loaded index keeps in memory only the pages queries touch.
class RegionLevel {
 public:
  double resolution = 0.0;

  RegionLevel() = default;
  RegionLevel(double r, std::vector<RegionPoint> owned) : resolution(r), owned_(std::move(owned)), points_(owned_) {}
  RegionLevel(double r, std::span<const RegionPoint> mapped) : resolution(r), points_(mapped) {}
  RegionLevel(RegionLevel&& o) noexcept
      : resolution(o.resolution), owned_(std::move(o.owned_)), points_(o.points_) {}  // the buffer moves along
  RegionLevel& operator=(RegionLevel&& o) noexcept {
    resolution = o.resolution;
    owned_ = std::move(o.owned_);
    points_ = o.points_;
    return *this;
  }
  RegionLevel(const RegionLevel& o) : resolution(o.resolution), owned_(o.owned_), points_(o.points_) {
    if (!owned_.empty()) points_ = owned_;
  }
  RegionLevel& operator=(const RegionLevel& o) {
    if (this != &o) *this = RegionLevel(o);
    return *this;
  }

  std::span<const RegionPoint> points() const { return points_; }
  std::size_t heapBytes() const { return owned_.capacity() * sizeof(RegionPoint); }

 private:
  std::vector<RegionPoint> owned_;
  std::span<const RegionPoint> points_;
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
  std::shared_ptr<const void> storage;      // the mapped index file the region levels point into, if loaded

  RegionGroup groupOf(std::uint32_t callPath) const {
    return callPath < callPathGroups.size() ? callPathGroups[callPath] : RegionGroup::MpiOther;
  }
  std::uint64_t itemCount() const;
  std::size_t memoryBytes() const;
};

// Builds the thinned levels of every item list (after building or loading).
void buildListLevels(TimelineIndex& index);

// Builds the index from a trace held in memory (every MPI location loaded). With
// `corrections` (per world rank, clock_corrected_trace.h) the events are drawn at the times
// the analysis corrected them to.
TimelineIndex buildTimelineIndex(const trace::Trace& trace, const report::Report& report,
                                 const std::vector<trace::LocationClockCorrection>* corrections = nullptr);

// Builds the index reading the OTF2 trace a block of ranks at a time (at most `ranksPerRead`,
// fewer where their locations announce more than kEventsPerRead events; one rank at least), so
// the trace's events never need to fit in memory at once, and the definitions, which grow with
// the ranks, are parsed once per block rather than once per rank. Throws trace::TraceError.
constexpr std::size_t kRanksPerRead = 64;
constexpr std::uint64_t kEventsPerRead = std::uint64_t{4} << 20;  // 64 MB of events
TimelineIndex buildTimelineIndex(const std::string& tracePath, const report::Report& report,
                                 const std::vector<trace::LocationClockCorrection>* corrections = nullptr,
                                 std::size_t ranksPerRead = kRanksPerRead);

}  // namespace waitscope::timeline
