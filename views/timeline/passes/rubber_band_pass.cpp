#include "views/timeline/passes/rubber_band_pass.h"

#include <QPainter>

namespace waitscope::views {

void RubberBandPass::paint(QPainter& p, const TimelineFrame& frame) {
  if (frame.rubberBand) p.fillRect(*frame.rubberBand, QColor(0x30, 0x60, 0xc0, 50));
}

}  // namespace waitscope::views
