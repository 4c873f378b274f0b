#include "views/timeline/passes/region_pass.h"

#include <algorithm>

#include <QPainter>

#include "views/timeline/timeline_geometry.h"

namespace waitscope::views {

void RegionPass::paint(QPainter& p, const TimelineFrame& frame) {
  const TimelineScene& scene = frame.scene;
  const RowBands& bands = scene.rows->bands();
  const TimelineStyle& style = *frame.style;
  // Collected per colour and drawn with one drawRects call each: far cheaper
  // than a fillRect per item when there are thousands.
  for (auto& v : rects_) v.clear();
  bandSpans_.clear();
  for (const timeline::LocationSlice& ls : scene.slice->locations) {
    const double top = (*scene.rowCenter)[ls.location] - bands.bandMiddle();
    // Whole pixels: the raster engine fills integer rectangles on its fastest path.
    const int y = static_cast<int>(top);
    for (const timeline::RegionSpan& s : ls.regions) {
      const int x0 = pixelOf(scene.xOf(s.start)), x1 = pixelOf(scene.xOf(s.end));
      const int w = std::max(x1 - x0, 1);
      rects_[static_cast<std::size_t>(s.group)].emplace_back(x0, y + bands.bandTop, w, bands.bandHeight);
      // Spans come in time order: a rectangle starting inside the last run extends it.
      if (!bandSpans_.empty() && bandSpans_.back().y() == y + bands.bandTop && x0 <= bandSpans_.back().right() + 1)
        bandSpans_.back().setRight(std::max(bandSpans_.back().right(), x0 + w - 1));
      else
        bandSpans_.emplace_back(x0, y + bands.bandTop, w, bands.bandHeight);
    }
  }
  // On raster devices the rectangles go straight into one image (in the same
  // order: a later group wins a shared pixel, as with drawRects).
  const bool direct = frame.directRaster && RasterLayer::usableOn(p);
  p.setPen(Qt::NoPen);
  if (direct && style.opaqueRegions) {
    RasterLayer& layer = *frame.layer;
    layer.begin(p, scene.plot);
    // All rectangles of a row have its band's height: written into the band's
    // first writable row only, which is then copied down (the same pixels).
    const QRect writable = layer.writable();
    for (std::size_t g = 0; g < rects_.size(); ++g) {
      const QRgb c = style.groupBrushes[g].color().rgba64().toArgb32();
      for (const QRect& r : rects_[g]) {
        const int first = std::max(r.y(), writable.top());
        if (first <= r.bottom()) layer.fillRect(r.x(), first, r.width(), 1, c);
      }
    }
    for (const QRect& b : bandSpans_) {
      const int first = std::max(b.y(), writable.top());
      if (first <= b.bottom()) layer.copyRow(b.x(), b.right() + 1, first, first + 1, b.bottom() + 1);
    }
    layer.drawTo(p);
  } else {
    for (std::size_t g = 0; g < rects_.size(); ++g) {
      p.setBrush(style.groupBrushes[g]);
      p.drawRects(rects_[g].data(), static_cast<int>(rects_[g].size()));
    }
  }
}

}  // namespace waitscope::views
