#include "views/timeline/passes/message_pass.h"

#include <algorithm>
#include <cmath>
#include <cstddef>

#include <QPainter>

#include "views/timeline/timeline_geometry.h"

namespace waitscope::views {

namespace {

constexpr int kLineSpacing = 3;               // pixels between drawn lines of one sender and peer
constexpr std::size_t kMaxArrowHeads = 4096;  // transfers in view above which arrows lose their heads

}  // namespace

void MessagePass::paint(QPainter& p, const TimelineFrame& frame) {
  if (frame.scene.layers & timeline::kSliceMessages) paintMessages(p, frame);
  if (frame.scene.layers & timeline::kSliceTransfers) paintTransfers(p, frame);
}

bool MessagePass::crowded(std::uint32_t key, int x) {
  for (auto& [k, last] : lastLineX_)
    if (k == key) {
      if (x - last < kLineSpacing) return true;
      last = x;
      return false;
    }
  lastLineX_.emplace_back(key, x);
  return false;
}

void MessagePass::paintMessages(QPainter& p, const TimelineFrame& frame) {
  // Messages are many at low zoom: aliased 1-pixel lines are several times
  // cheaper than antialiased ones. On raster devices they go straight into
  // pixel memory (raster_layer.h), the same pixels; a line reaching beyond the
  // device is left to QPainter.
  const TimelineScene& scene = frame.scene;
  const TimelineStyle& style = *frame.style;
  const std::vector<double>& rowCenter = *scene.rowCenter;
  RasterLayer& layer = *frame.layer;
  const bool direct = frame.directRaster && style.opaqueLines && RasterLayer::usableOn(p);
  const QRgb messageColor = style.messagePen.color().rgba64().toArgb32();
  if (direct) {
    layer.begin(p, scene.plot);
    columnSpans_.begin(scene.plot.left(), scene.plot.width());
  }
  lines_.clear();
  for (const timeline::LocationSlice& ls : scene.slice->locations) {
    lastLineX_.clear();
    for (const timeline::Message& m : ls.messages) {
      if (m.sender >= rowCenter.size() || m.receiver >= rowCenter.size()) continue;
      const double ys = rowCenter[m.sender], yr = rowCenter[m.receiver];
      if (ys < 0 || yr < 0) continue;
      const int x0 = pixelOf(scene.xOf(m.start));
      if (crowded(m.sender ^ (m.receiver << 16), x0)) continue;
      const int x1 = pixelOf(scene.xOf(m.end));
      const int y0 = static_cast<int>(ys), y1 = static_cast<int>(yr);
      if (direct && x1 == x0)
        columnSpans_.add(x0, std::min(y0, y1), std::max(y0, y1));
      else if (!(direct && layer.line(x0, y0, x1, y1, messageColor, &columnSpans_)))
        lines_.emplace_back(x0, y0, x1, y1);
    }
  }
  p.setPen(style.messagePen);
  p.drawLines(lines_.data(), static_cast<int>(lines_.size()));
  if (direct) {
    columnSpans_.flushTo(layer, messageColor);
    layer.drawTo(p);
  }
}

void MessagePass::paintTransfers(QPainter& p, const TimelineFrame& frame) {
  // The shaft and a two-stroke arrowhead at the target, all in one drawLines
  // call (transfers are few: smooth arrows); where thousands crowd the view,
  // heads would only blot it.
  const TimelineScene& scene = frame.scene;
  const TimelineStyle& style = *frame.style;
  const std::vector<double>& rowCenter = *scene.rowCenter;
  RasterLayer& layer = *frame.layer;
  std::size_t transfers = 0;
  for (const timeline::LocationSlice& ls : scene.slice->locations) transfers += ls.transfers.size();
  const bool heads = transfers <= kMaxArrowHeads;
  const bool directShafts = frame.directRaster && style.transferPen.color().alpha() == 255 && RasterLayer::usableOn(p);
  const QRgb transferColor = style.transferPen.color().rgba64().toArgb32();
  if (directShafts) {
    layer.begin(p, scene.plot);
    columnSpans_.begin(scene.plot.left(), scene.plot.width());
  }
  lines_.clear();
  for (const timeline::LocationSlice& ls : scene.slice->locations) {
    lastLineX_.clear();
    for (const timeline::Transfer& t : ls.transfers) {
      if (t.origin >= rowCenter.size() || t.target >= rowCenter.size()) continue;
      const double yo = rowCenter[t.origin], yt = rowCenter[t.target];
      if (yo < 0 || yt < 0) continue;
      const QPointF a(scene.xOf(t.start), yo), b(scene.xOf(t.end), yt);
      if (crowded(t.origin ^ (t.target << 16) ^ (std::uint32_t(t.kind) << 30), pixelOf(a.x()))) continue;
      const QPoint pa = a.toPoint(), pb = b.toPoint();
      // Vertical: a rectangle of the pen's width, one run per column of it, when the layer can.
      QRect shaft;
      if (directShafts && pa.x() == pb.x() &&
          RasterLayer::penRect(pa.x(), pa.y(), pb.x(), pb.y(), style.transferPen.widthF(), shaft)) {
        for (int x = shaft.left(); x <= shaft.right(); ++x) columnSpans_.add(x, shaft.top(), shaft.bottom());
      } else {
        lines_.emplace_back(pa, pb);
      }
      if (!heads) continue;
      const QPointF d = b - a;
      const double len = std::hypot(d.x(), d.y());
      if (len < 1.0) continue;
      const QPointF u = d / len, n(-u.y(), u.x());
      lines_.emplace_back(b.toPoint(), (b - 7.0 * u + 3.5 * n).toPoint());
      lines_.emplace_back(b.toPoint(), (b - 7.0 * u - 3.5 * n).toPoint());
    }
  }
  p.setPen(style.transferPen);
  p.drawLines(lines_.data(), static_cast<int>(lines_.size()));
  if (directShafts) {
    columnSpans_.flushTo(layer, transferColor);
    layer.drawTo(p);
  }
}

}  // namespace waitscope::views
