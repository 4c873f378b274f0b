#include "views/timeline/timeline_alignment.h"

#include <algorithm>
#include <limits>
#include <vector>

#include <QStringList>

namespace waitscope::views {

namespace {

// Per call path of the report: whether any region on it (itself or a caller) is one of `names`.
std::vector<char> callPathsWithin(const report::Report& report, const QStringList& names) {
  std::vector<char> within(report.callPaths.size(), 0);
  for (std::size_t c = 0; c < report.callPaths.size(); ++c) {  // parents come before children
    const report::CallPath& cp = report.callPaths[c];
    const bool named = cp.region < report.regions.size() &&
                       names.contains(QString::fromStdString(report.regions[cp.region].name));
    within[c] = named || (cp.parent < c && within[cp.parent]);
  }
  return within;
}

// Over every location's exact region sequence: the earliest entry into, and the
// latest exit out of, a call path marked in `within`.
struct Extent {
  double firstEnter = std::numeric_limits<double>::infinity();
  double lastExit = -std::numeric_limits<double>::infinity();
  bool found() const { return lastExit >= firstEnter; }
};

Extent extentOf(const timeline::TimelineIndex& index, const std::vector<char>& within) {
  Extent e;
  for (const timeline::LocationTimeline& location : index.locations) {
    if (location.levels.empty()) continue;
    const auto points = location.levels.front().points();
    for (std::size_t i = 0; i + 1 < points.size(); ++i) {
      const std::uint32_t cp = points[i].callPath;
      if (cp >= within.size() || !within[cp]) continue;
      e.firstEnter = std::min(e.firstEnter, points[i].start);
      e.lastExit = std::max(e.lastExit, points[i + 1].start);
    }
  }
  return e;
}

}  // namespace

AlignmentPoint alignmentPoint(const timeline::TimelineIndex& index, const report::Report& report,
                              const TimelineAlignment& alignment, bool second) {
  AlignmentPoint point;
  point.time = index.begin;
  switch (alignment.kind) {
    case TimelineAlignment::Kind::TraceStart: point.found = true; break;
    case TimelineAlignment::Kind::Offset:
      // Drawn `offset` later: its start sits at t = offset, so t = 0 is `offset` before it.
      if (second) point.time = index.begin - alignment.offset;
      point.found = true;
      break;
    case TimelineAlignment::Kind::EndOfMpiInit: {
      const Extent e =
          extentOf(index, callPathsWithin(report, {QStringLiteral("MPI_Init"), QStringLiteral("MPI_Init_thread")}));
      if (e.found()) {
        point.time = e.lastExit;
        point.found = true;
      } else {
        point.problem = QStringLiteral("no MPI_Init or MPI_Init_thread in its timeline; aligned at its trace start");
      }
      break;
    }
    case TimelineAlignment::Kind::FirstCallOfRegion: {
      const Extent e = extentOf(index, callPathsWithin(report, {alignment.region.trimmed()}));
      if (e.found()) {
        point.time = e.firstEnter;
        point.found = true;
      } else {
        point.problem = QStringLiteral("no call of the region \"%1\" in its timeline (region names are as in the "
                                       "call tree); aligned at its trace start")
                            .arg(alignment.region.trimmed().left(80));
      }
      break;
    }
  }
  return point;
}

AlignmentPoint alignmentPoint(const timeline::SliceSource& source, const report::Report& report,
                              const TimelineAlignment& alignment, bool second) {
  if (const auto* local = dynamic_cast<const timeline::LocalSliceSource*>(&source))
    return alignmentPoint(local->index(), report, alignment, second);
  AlignmentPoint point;
  point.time = source.begin();
  const bool needsRegions = alignment.kind == TimelineAlignment::Kind::EndOfMpiInit ||
                            alignment.kind == TimelineAlignment::Kind::FirstCallOfRegion;
  if (alignment.kind == TimelineAlignment::Kind::Offset && second) point.time -= alignment.offset;
  point.found = !needsRegions;
  if (needsRegions)
    point.problem = QStringLiteral("its trace is on another machine, where its regions cannot be searched; aligned "
                                   "at its trace start");
  return point;
}

}  // namespace waitscope::views
