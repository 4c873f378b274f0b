#include "analysis/timeline/timeline_query.h"

#include <algorithm>
#include <cmath>

#include "analysis/timeline/item_merge.h"
#include "analysis/timeline/region_merge.h"

namespace waitscope::timeline {

namespace {

// The coarsest level whose resolution is at most one pixel.
const RegionLevel& levelFor(const LocationTimeline& location, double pixel) {
  std::size_t best = 0;
  for (std::size_t k = 1; k < location.levels.size(); ++k)
    if (location.levels[k].resolution <= pixel) best = k;
  return location.levels[best];
}

void queryRegions(const TimelineIndex& index, const LocationTimeline& location, const SliceRequest& r,
                  double pixel, RegionMerger& merger, std::vector<RegionSpan>& out) {
  const std::span<const RegionPoint> p = levelFor(location, pixel).points();
  if (p.size() < 2) return;
  // The interval holding `from`: the last point starting at or before it.
  auto it = std::upper_bound(p.begin(), p.end(), r.from,
                             [](double t, const RegionPoint& point) { return t < point.start; });
  std::size_t i = it == p.begin() ? 0 : static_cast<std::size_t>(it - p.begin()) - 1;
  merger.begin(&out, r.from, pixel);
  for (; i + 1 < p.size() && p[i].start < r.to; ++i) {
    const double start = std::max(p[i].start, r.from);
    const double end = std::min(p[i + 1].start, r.to);
    merger.add(start, end, p[i].callPath, p[i].merged);
  }
  merger.finish();
  for (RegionSpan& s : out) s.group = index.groupOf(s.callPath);
}

}  // namespace

void querySlice(const TimelineIndex& index, const SliceRequest& request, Slice& out) {
  thread_local std::vector<std::uint8_t> requested;
  thread_local RegionMerger merger;
  out.from = request.from;
  out.to = request.to;
  out.width = request.width;

  const std::size_t n = index.locations.size();
  std::size_t count = 0;
  requested.assign(n, request.locations.empty() ? 1 : 0);
  if (request.locations.empty()) {
    count = n;
  } else {
    for (std::uint32_t l : request.locations)
      if (l < n && !requested[l]) {
        requested[l] = 1;
        ++count;
      }
  }
  out.locations.resize(count);
  std::size_t slot = 0;
  const auto visit = [&](std::uint32_t l) {
    LocationSlice& ls = out.locations[slot++];
    ls.location = l;
    ls.clear();
    if (!(request.to > request.from) || request.width == 0) return;
    const double pixel = (request.to - request.from) / request.width;
    const PixelGrid grid{request.from, pixel};
    const LocationTimeline& loc = index.locations[l];
    const double t0 = request.from, t1 = request.to;

    const std::uint32_t kinds = request.kinds;
    if (kinds & kSliceRegions) queryRegions(index, loc, request, pixel, merger, ls.regions);
    const auto add = [&](auto& into) { return [&](const auto& item) { appendMerged(into, item, grid); }; };
    if (kinds & kSliceMessages) {
      loc.sends.forEachOverlapping(t0, t1, pixel, add(ls.messages));
      loc.receives.forEachOverlapping(t0, t1, pixel, [&](const Message& m) {
        if (m.sender >= n || !requested[m.sender]) appendMerged(ls.messages, m, grid);
      });
    }
    if (kinds & kSliceCollectives) loc.collectives.forEachOverlapping(t0, t1, pixel, add(ls.collectives));
    if (kinds & kSliceEpochs) loc.epochs.forEachOverlapping(t0, t1, pixel, add(ls.epochs));
    if (kinds & kSliceTransfers) {
      loc.outgoing.forEachOverlapping(t0, t1, pixel, add(ls.transfers));
      loc.incoming.forEachOverlapping(t0, t1, pixel, [&](const Transfer& t) {
        if (t.origin >= n || !requested[t.origin]) appendMerged(ls.transfers, t, grid);
      });
    }
    if (kinds & kSliceInstances) loc.instances.forEachOverlapping(t0, t1, pixel, add(ls.instances));
    if (kinds & kSlicePath) loc.path.forEachOverlapping(t0, t1, pixel, add(ls.path));
  };
  if (request.locations.empty()) {
    for (std::uint32_t l = 0; l < n; ++l) visit(l);
  } else {
    for (std::uint32_t l : request.locations)
      if (l < n && requested[l] == 1) {
        requested[l] = 2;  // visited: a location listed twice is queried once
        visit(l);
      }
    for (std::uint32_t l : request.locations)
      if (l < n) requested[l] = 1;
  }
}

}  // namespace waitscope::timeline
