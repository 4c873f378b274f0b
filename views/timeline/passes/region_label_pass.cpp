#include "views/timeline/passes/region_label_pass.h"

#include <algorithm>

#include <QPainter>

#include "views/timeline/timeline_geometry.h"

namespace waitscope::views {

void RegionLabelPass::begin(QPainter& p, const TimelineFrame& frame) {
  textPen_ = QPen(frame.palette->text().color());
  lineOutlines_ = frame.directRaster && RasterLayer::usableOn(p);
}

void RegionLabelPass::paintRow(QPainter& p, const TimelineFrame& frame, const timeline::LocationSlice& row) {
  const TimelineScene& scene = frame.scene;
  const RowBands& bands = scene.rows->bands();
  const TimelineStyle& style = *frame.style;
  const QRect& plot = scene.plot;
  const double top = (*scene.rowCenter)[row.location] - bands.bandMiddle();
  const double span = scene.window.to - scene.window.from;
  const std::uint32_t highlighted = frame.highlightedCallPath;
  if (highlighted != timeline::kNoId) {
    outlines_.clear();
    p.setPen(style.highlightPen);
    p.setBrush(Qt::NoBrush);
    for (const timeline::RegionSpan& s : row.regions) {
      if (s.callPath != highlighted) continue;
      const double w = (s.end - s.start) / span * plot.width();
      const QRectF r(scene.xOf(s.start), top + bands.bandTop, std::max(w, 1.0), bands.bandHeight);
      if (lineOutlines_)
        outlines_.add(r);
      else
        p.drawRect(r);
    }
    outlines_.draw(p, frame, style.highlightPen);
  }
  if (bands.bandHeight + 4 < style.textHeight) return;  // rows too low for names
  p.setPen(textPen_);
  for (const timeline::RegionSpan& s : row.regions) {
    const double w = (s.end - s.start) / span * plot.width();
    if (!(s.callPath < style.callPathNameWidths.size() && w > style.callPathNameWidths[s.callPath] + 6)) continue;
    const QRectF r(scene.xOf(s.start), top + bands.bandTop, std::max(w, 1.0), bands.bandHeight);
    p.drawStaticText(QPointF(r.center().x() - style.callPathNameWidths[s.callPath] / 2.0,
                             r.top() + (r.height() - style.textHeight) / 2.0),
                     style.callPathTexts[s.callPath]);
  }
}

}  // namespace waitscope::views
