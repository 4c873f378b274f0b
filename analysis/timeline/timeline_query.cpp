#include "timeline_query.h"

#include <algorithm>
#include <cmath>

#include "region_merge.h"

namespace waitscope::timeline {

namespace {

struct PixelGrid {
  double from;
  double pixel;
  std::int64_t column(double t) const {
    const double c = std::floor((t - from) / pixel);
    return static_cast<std::int64_t>(std::clamp(c, -4e18, 4e18));
  }
};

// The coarsest level whose resolution is at most one pixel.
const RegionLevel& levelFor(const LocationTimeline& location, double pixel) {
  std::size_t best = 0;
  for (std::size_t k = 1; k < location.levels.size(); ++k)
    if (location.levels[k].resolution <= pixel) best = k;
  return location.levels[best];
}

void queryRegions(const TimelineIndex& index, const LocationTimeline& location, const SliceRequest& r,
                  double pixel, RegionMerger& merger, std::vector<RegionSpan>& out) {
  const std::vector<RegionPoint>& p = levelFor(location, pixel).points;
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

// Consecutive items that `same` says belong together and that start in the
// same pixel column become one (count adds up, end is the later one).
template <class T, class Same>
void appendMerged(std::vector<T>& out, const T& item, const PixelGrid& grid, Same&& same) {
  if (!out.empty()) {
    T& last = out.back();
    if (same(last, item) && grid.column(last.start) == grid.column(item.start)) {
      last.end = std::max(last.end, item.end);
      last.count += item.count;
      return;
    }
  }
  out.push_back(item);
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

    queryRegions(index, loc, request, pixel, merger, ls.regions);

    const auto samePeerMessage = [&](const Message& a, const Message& b) {
      return a.sender == b.sender && a.receiver == b.receiver && grid.column(a.end) == grid.column(b.end);
    };
    loc.sends.forEachOverlapping(t0, t1, [&](const Message& m) { appendMerged(ls.messages, m, grid, samePeerMessage); });
    loc.receives.forEachOverlapping(t0, t1, [&](const Message& m) {
      if (m.sender >= n || !requested[m.sender]) appendMerged(ls.messages, m, grid, samePeerMessage);
    });
    loc.collectives.forEachOverlapping(t0, t1, [&](const Collective& c) {
      appendMerged(ls.collectives, c, grid, [](const Collective& a, const Collective& b) {
        return a.comm == b.comm && a.op == b.op;
      });
    });
    loc.epochs.forEachOverlapping(t0, t1, [&](const Epoch& e) { ls.epochs.push_back(e); });
    const auto sameTransfer = [&](const Transfer& a, const Transfer& b) {
      return a.origin == b.origin && a.target == b.target && a.kind == b.kind && a.window == b.window;
    };
    loc.outgoing.forEachOverlapping(t0, t1, [&](const Transfer& t) { appendMerged(ls.transfers, t, grid, sameTransfer); });
    loc.incoming.forEachOverlapping(t0, t1, [&](const Transfer& t) {
      if (t.origin >= n || !requested[t.origin]) appendMerged(ls.transfers, t, grid, sameTransfer);
    });
    loc.instances.forEachOverlapping(t0, t1, [&](const InstanceMark& i) {
      appendMerged(ls.instances, i, grid, [](const InstanceMark& a, const InstanceMark& b) {
        return a.metric == b.metric && a.callPath == b.callPath;
      });
    });
    loc.path.forEachOverlapping(t0, t1, [&](const PathMark& p) {
      // A segment starting less than a pixel after this row's previous mark ends
      // extends that mark (which keeps its order and call path).
      if (!ls.path.empty() && p.start - ls.path.back().end < pixel) {
        ls.path.back().end = std::max(ls.path.back().end, p.end);
        return;
      }
      ls.path.push_back(p);
    });
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
