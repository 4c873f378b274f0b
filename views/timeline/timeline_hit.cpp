#include "views/timeline/timeline_hit.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include <QPointF>

#include "views/timeline/timeline_geometry.h"

namespace waitscope::views {

namespace {

double distanceToSegment(const QPointF& p, const QPointF& a, const QPointF& b) {
  const QPointF ab = b - a;
  const double len2 = QPointF::dotProduct(ab, ab);
  const double t = len2 > 0 ? std::clamp(QPointF::dotProduct(p - a, ab) / len2, 0.0, 1.0) : 0.0;
  const QPointF d = p - (a + t * ab);
  return std::hypot(d.x(), d.y());
}

}  // namespace

TimelineHit hitTest(const TimelineScene& scene, const QPoint& pos) {
  using Kind = TimelineHit::Kind;
  TimelineHit hit;
  const QRect& plot = scene.plot;
  const TimelineRows& rows = *scene.rows;
  const RowBands& bands = rows.bands();
  const timeline::Slice& slice = *scene.slice;
  const std::vector<double>& rowCenter = *scene.rowCenter;
  const TimeWindow& window = scene.window;
  const int top = scene.contentTop;
  if (pos.x() < kLabelWidth && pos.y() >= plot.top() && pos.y() <= plot.bottom()) {
    const int row = rows.rowAt(pos.y() - top);
    if (row >= 0 && rows.rows()[row].isNode) {
      hit.kind = Kind::NodeHeader;
      hit.node = rows.rows()[row].node;
    } else if (row >= 0 && rows.hasChildren(rows.rows()[row].location)) {
      hit.kind = Kind::ParentLabel;
      hit.node = rows.rows()[row].location;
    }
    return hit;
  }
  if (!plot.contains(pos)) return hit;
  const double t = window.from + (pos.x() - plot.left()) / double(plot.width()) * (window.to - window.from);
  const double slop = 2.0 * (window.to - window.from) / plot.width();
  const QPointF pf(pos);
  const int row = rows.rowAt(pos.y() - top);
  for (std::size_t s = 0; s < slice.locations.size(); ++s) {
    const timeline::LocationSlice& ls = slice.locations[s];
    const bool onRow = row >= 0 && !rows.rows()[row].isNode && rows.rows()[row].location == ls.location;
    if (onRow) {
      const int y = pos.y() - (top + rows.rows()[row].top);
      const auto within = [&](double a, double b) { return t >= a - slop && t <= b + slop; };
      if (y >= bands.bandTop - 1 && y < bands.bandTop + bands.bandHeight + 1)
        for (std::size_t i = 0; i < ls.instances.size(); ++i)
          if (within(ls.instances[i].start, ls.instances[i].end)) return {Kind::Instance, s, i, 0};
      if (std::abs(y - bands.bandMiddle()) <= 2)
        for (std::size_t i = 0; i < ls.path.size(); ++i)
          if (within(ls.path[i].start, ls.path[i].end)) return {Kind::Path, s, i, 0};
      if (y >= bands.epochTop && y < bands.epochTop + bands.epochHeight)
        for (std::size_t i = ls.epochs.size(); i-- > 0;)
          if (within(ls.epochs[i].start, ls.epochs[i].end)) return {Kind::Epoch, s, i, 0};
    }
    for (std::size_t i = 0; i < ls.messages.size(); ++i) {
      const timeline::Message& m = ls.messages[i];
      if (m.sender >= rowCenter.size() || m.receiver >= rowCenter.size() || rowCenter[m.sender] < 0 ||
          rowCenter[m.receiver] < 0)
        continue;
      if (distanceToSegment(pf, {scene.xOf(m.start), rowCenter[m.sender]}, {scene.xOf(m.end), rowCenter[m.receiver]}) <=
          2.5)
        return {Kind::Message, s, i, 0};
    }
    for (std::size_t i = 0; i < ls.transfers.size(); ++i) {
      const timeline::Transfer& m = ls.transfers[i];
      if (m.origin >= rowCenter.size() || m.target >= rowCenter.size() || rowCenter[m.origin] < 0 ||
          rowCenter[m.target] < 0)
        continue;
      if (distanceToSegment(pf, {scene.xOf(m.start), rowCenter[m.origin]}, {scene.xOf(m.end), rowCenter[m.target]}) <=
          2.5)
        return {Kind::Transfer, s, i, 0};
    }
  }
  if (row >= 0 && !rows.rows()[row].isNode) {
    const int y = pos.y() - (top + rows.rows()[row].top);
    for (std::size_t s = 0; s < slice.locations.size(); ++s) {
      const timeline::LocationSlice& ls = slice.locations[s];
      if (ls.location != rows.rows()[row].location || y < bands.bandTop || y >= bands.bandTop + bands.bandHeight) continue;
      for (std::size_t i = 0; i < ls.regions.size(); ++i)
        if (t >= ls.regions[i].start && t < ls.regions[i].end) return {Kind::Region, s, i, 0};
    }
  }
  return hit;
}

}  // namespace waitscope::views
