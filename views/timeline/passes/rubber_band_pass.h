#pragma once
// The time range being dragged out with the mouse (to zoom to it), shaded across the plot.
#include "views/timeline/passes/render_pass.h"

namespace waitscope::views {

class RubberBandPass final : public RenderPass {
 public:
  void paint(QPainter& p, const TimelineFrame& frame) override;
};

}  // namespace waitscope::views
