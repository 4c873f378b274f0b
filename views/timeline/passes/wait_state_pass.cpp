#include "views/timeline/passes/wait_state_pass.h"

#include <algorithm>

#include <QPainter>

#include "views/timeline/timeline_geometry.h"

namespace waitscope::views {

void WaitStatePass::begin(QPainter& p, const TimelineFrame& frame) {
  for (auto& v : narrowRects_) v.clear();
  direct_ = frame.directRaster && RasterLayer::usableOn(p);
  // The hatch goes into a layer where the brush origin is a whole pixel (the pattern's phase).
  const QPointF brushOrigin = p.brushOrigin();
  const QPoint wholeOrigin = brushOrigin.toPoint();
  hatchOrigin_ = direct_ && QPointF(wholeOrigin) == brushOrigin ? std::optional<QPoint>(wholeOrigin) : std::nullopt;
}

void WaitStatePass::paintRow(QPainter& p, const TimelineFrame& frame, const timeline::LocationSlice& row) {
  const TimelineScene& scene = frame.scene;
  if (!(scene.layers & timeline::kSliceInstances)) return;
  const RowBands& bands = scene.rows->bands();
  const TimelineStyle& style = *frame.style;
  RasterLayer& layer = *frame.layer;
  const QRect& plot = scene.plot;
  const std::uint32_t highlighted = frame.highlightedMetric;
  const std::vector<char>& metricHighlighted = *frame.metricHighlighted;
  // Outlines of wide pens as square-capped lines (OutlineBatch) on raster devices.
  const bool lineOutlines = direct_;
  const double top = (*scene.rowCenter)[row.location] - bands.bandMiddle();
  // Consecutive instances of one style in one batch.
  const QPen* runPen = nullptr;
  const QBrush* runBrush = nullptr;
  const auto flushRun = [&] {
    if (!runPen) return;
    outlines_.clear();
    // Hatch and outline of one colour: on raster devices both go into a
    // layer (their union does not depend on the order); what it refuses is
    // left to QPainter.
    if (runBrush->color() == runPen->color() && runBrush->style() == Qt::BDiagPattern && hatchOrigin_) {
      layer.begin(p, plot);
      const QRgb c = runPen->color().rgba64().toArgb32();
      std::size_t kept = 0;
      for (const QRectF& r : runRects_) {
        if (!layer.patternRect(r, style.hatch, *hatchOrigin_, c)) runRects_[kept++] = r;
        if (!layer.outline(r, runPen->widthF(), c)) outlines_.add(r);
      }
      runRects_.resize(kept);
      layer.drawTo(p);
    } else {
      for (const QRectF& r : runRects_) outlines_.add(r);
    }
    p.setPen(Qt::NoPen);
    p.setBrush(*runBrush);
    p.drawRects(runRects_.data(), static_cast<int>(runRects_.size()));
    outlines_.draw(p, frame, *runPen);
    runPen = nullptr;
  };
  for (const timeline::InstanceMark& i : row.instances) {
    const double x0 = offGrid(scene.xOf(i.start)), x1 = offGrid(scene.xOf(i.end));
    const QRectF r(x0, offGrid(top + bands.bandTop - 1), std::max(x1 - x0, 2.0), bands.bandHeight + 2);
    const bool known = i.metric < style.patternPens.size();
    if (x1 - x0 < 3.0 && known && highlighted == timeline::kNoId) {
      // Too narrow for hatching: a solid mark in the pattern's colour (drawn batched in end()).
      if (i.metric >= narrowRects_.size()) narrowRects_.resize(i.metric + 1);
      narrowRects_[i.metric].push_back(r.toAlignedRect());
      continue;
    }
    const QPen* pen = &style.paleInstancePen;
    const QBrush* brush = &style.paleInstanceBrush;
    if (known && !(highlighted != timeline::kNoId &&
                   !(i.metric < metricHighlighted.size() && metricHighlighted[i.metric]))) {
      pen = highlighted != timeline::kNoId ? &style.patternStrongPens[i.metric] : &style.patternPens[i.metric];
      brush = &style.patternBrushes[i.metric];
    }
    if (lineOutlines && pen != &style.paleInstancePen) {  // the pale pen is thin and translucent: drawn as it comes
      if (pen != runPen) {
        flushRun();
        runPen = pen;
        runBrush = brush;
        runRects_.clear();
      }
      runRects_.push_back(r);
      continue;
    }
    flushRun();
    p.setPen(*pen);
    p.setBrush(*brush);
    p.drawRect(r);
  }
  flushRun();
}

void WaitStatePass::end(QPainter& p, const TimelineFrame& frame) {
  const TimelineStyle& style = *frame.style;
  RasterLayer& layer = *frame.layer;
  p.setPen(Qt::NoPen);
  if (direct_ && style.opaqueMarks) {
    layer.begin(p, frame.scene.plot);
    for (std::size_t m = 0; m < narrowRects_.size() && m < style.patternPens.size(); ++m) {
      const QRgb c = style.patternPens[m].color().rgba64().toArgb32();
      for (const QRect& r : narrowRects_[m]) layer.fillRect(r.x(), r.y(), r.width(), r.height(), c);
    }
    layer.drawTo(p);
    return;
  }
  for (std::size_t m = 0; m < narrowRects_.size() && m < style.patternPens.size(); ++m) {
    p.setBrush(style.patternPens[m].brush());
    p.drawRects(narrowRects_[m].data(), static_cast<int>(narrowRects_[m].size()));
  }
}

}  // namespace waitscope::views
