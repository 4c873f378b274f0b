#include "views/timeline/passes/outline_batch.h"

#include <QPainter>
#include <QPen>
#include <QRectF>

#include "views/timeline/passes/render_pass.h"

namespace waitscope::views {

void OutlineBatch::add(const QRectF& r) {
  sides_.emplace_back(r.topLeft(), r.topRight());
  sides_.emplace_back(r.topRight(), r.bottomRight());
  sides_.emplace_back(r.bottomRight(), r.bottomLeft());
  sides_.emplace_back(r.bottomLeft(), r.topLeft());
}

void OutlineBatch::draw(QPainter& p, const TimelineFrame& frame, const QPen& pen) {
  if (frame.directRaster && pen.color().alpha() == 255 && RasterLayer::usableOn(p)) {
    RasterLayer& layer = *frame.layer;
    layer.begin(p, frame.scene.plot);
    const QRgb c = pen.color().rgba64().toArgb32();
    std::size_t kept = 0;  // the few lines the layer leaves to QPainter
    for (const QLineF& l : sides_)
      if (!layer.wideLine(l.x1(), l.y1(), l.x2(), l.y2(), pen.widthF(), c)) sides_[kept++] = l;
    sides_.resize(kept);
    layer.drawTo(p);
    if (kept == 0) return;
  }
  p.setPen(pen);
  p.drawLines(sides_.data(), static_cast<int>(sides_.size()));
}

}  // namespace waitscope::views
