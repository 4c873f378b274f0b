#include "views/timeline/passes/epoch_pass.h"

#include <algorithm>

#include <QPainter>

#include "views/timeline/timeline_geometry.h"

namespace waitscope::views {

void EpochPass::paint(QPainter& p, const TimelineFrame& frame) {
  const TimelineScene& scene = frame.scene;
  if (!(scene.layers & timeline::kSliceEpochs)) return;
  const RowBands& bands = scene.rows->bands();
  for (auto& v : rects_) v.clear();
  for (const timeline::LocationSlice& ls : scene.slice->locations) {
    const int y = static_cast<int>((*scene.rowCenter)[ls.location] - bands.bandMiddle());
    for (const timeline::Epoch& e : ls.epochs) {
      const int x0 = pixelOf(scene.xOf(e.start)), x1 = pixelOf(scene.xOf(e.end));
      rects_[static_cast<std::size_t>(e.kind)].emplace_back(x0, y + bands.epochTop, std::max(x1 - x0, 1), bands.epochHeight);
    }
  }
  p.setPen(Qt::NoPen);
  for (std::size_t k = 0; k < rects_.size(); ++k) {
    p.setBrush(frame.style->epochBrushes[k]);
    p.drawRects(rects_[k].data(), static_cast<int>(rects_[k].size()));
  }
}

}  // namespace waitscope::views
