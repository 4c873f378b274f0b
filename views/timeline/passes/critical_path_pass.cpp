#include "views/timeline/passes/critical_path_pass.h"

#include <algorithm>
#include <cmath>

#include <QPainter>

#include "views/timeline/timeline_geometry.h"

namespace waitscope::views {

// A visit is one stay of the path on a location, through many call paths:
// what lights up is where it overlaps a region of the highlighted call path on
// its row (both lists are sorted by start and do not overlap themselves).
void CriticalPathPass::collectHighlighted(const TimelineFrame& frame) {
  highlighted_.clear();
  if (frame.highlightedCallPath == timeline::kNoId) return;
  const TimelineScene& scene = frame.scene;
  for (const timeline::LocationSlice& ls : scene.slice->locations) {
    std::size_t first = 0;
    for (const timeline::PathMark& m : ls.path) {
      while (first < ls.regions.size() && ls.regions[first].end <= m.start) ++first;
      for (std::size_t k = first; k < ls.regions.size() && ls.regions[k].start < m.end; ++k) {
        const timeline::RegionSpan& s = ls.regions[k];
        if (s.callPath == frame.highlightedCallPath)
          highlighted_.push_back({m.order, scene.xOf(std::max(s.start, m.start)), scene.xOf(std::min(s.end, m.end)),
                                  (*scene.rowCenter)[ls.location]});
      }
    }
  }
}

void CriticalPathPass::paint(QPainter& p, const TimelineFrame& frame) {
  const TimelineScene& scene = frame.scene;
  if (!(scene.layers & timeline::kSlicePath)) return;
  const TimelineStyle& style = *frame.style;
  points_.clear();
  for (const timeline::LocationSlice& ls : scene.slice->locations)
    for (const timeline::PathMark& m : ls.path)
      points_.push_back({m.order, scene.xOf(m.start), scene.xOf(m.end), (*scene.rowCenter)[ls.location]});
  if (points_.empty()) return;
  collectHighlighted(frame);
  std::sort(points_.begin(), points_.end(), [](const PathPoint& a, const PathPoint& b) { return a.order < b.order; });
  // Links between consecutive segments; links less than a pixel wide in one
  // pixel column are drawn as one vertical line (a path hopping between rows
  // many times within a pixel stays one line per column).
  bool column = false;
  double columnX = 0, columnTop = 0, columnBottom = 0;
  const auto flushColumn = [&] {
    if (column) links_.emplace_back(int(columnX), int(columnTop), int(columnX), int(columnBottom));
    column = false;
  };
  links_.clear();
  for (std::size_t i = 1; i < points_.size(); ++i) {
    const PathPoint& a = points_[i - 1];
    const PathPoint& b = points_[i];
    if (a.y == b.y) continue;
    if (std::abs(b.x0 - a.x1) < 1.0) {
      const double x = std::floor(b.x0) + 0.5;
      if (column && x == columnX) {
        columnTop = std::min({columnTop, a.y, b.y});
        columnBottom = std::max({columnBottom, a.y, b.y});
        continue;
      }
      flushColumn();
      column = true;
      columnX = x;
      columnTop = std::min(a.y, b.y);
      columnBottom = std::max(a.y, b.y);
    } else {
      links_.emplace_back(pixelOf(a.x1), int(a.y), pixelOf(b.x0), int(b.y));
    }
  }
  flushColumn();
  p.setPen(style.pathLinkPen);
  if (frame.directRaster && style.opaquePath && RasterLayer::usableOn(p)) {
    // The vertical links and the bars straight into an image, in the same order.
    RasterLayer& layer = *frame.layer;
    layer.begin(p, scene.plot);
    const QRgb link = style.pathLinkPen.color().rgba64().toArgb32();
    std::size_t kept = 0;
    for (const QLine& l : links_)
      if (l.x1() == l.x2())
        layer.verticalLine(l.x1(), l.y1(), l.y2(), link);
      else
        links_[kept++] = l;
    links_.resize(kept);
    p.drawLines(links_.data(), static_cast<int>(links_.size()));
    for (int pass = 0; pass < 2; ++pass) {
      const QRgb c = (pass == 0 ? style.pathBrush : style.highlightBrush).color().rgba64().toArgb32();
      for (const PathPoint& pt : pass == 0 ? points_ : highlighted_) {
        const int x0 = pixelOf(pt.x0);
        layer.fillRect(x0, int(pt.y) - 1, std::max(pixelOf(pt.x1) - x0, 1), 3, c);
      }
    }
    layer.drawTo(p);
    return;
  }
  p.drawLines(links_.data(), static_cast<int>(links_.size()));
  // Segments as filled bars (wide pens go through the stroker, rectangles do
  // not), batched; the highlighted call path's parts on top.
  for (int pass = 0; pass < 2; ++pass) {
    bars_.clear();
    for (const PathPoint& pt : pass == 0 ? points_ : highlighted_) {
      const int x0 = pixelOf(pt.x0);
      bars_.emplace_back(x0, int(pt.y) - 1, std::max(pixelOf(pt.x1) - x0, 1), 3);
    }
    p.setPen(Qt::NoPen);
    p.setBrush(pass == 0 ? style.pathBrush : style.highlightBrush);
    p.drawRects(bars_.data(), static_cast<int>(bars_.size()));
  }
}

}  // namespace waitscope::views
