#pragma once
// The time ruler above the plot: a tick about every 100 pixels, at 1, 2 or 5
// times a power of ten, each with its time.
#include "views/timeline/passes/render_pass.h"

namespace waitscope::views {

class RulerPass final : public RenderPass {
 public:
  Area area() const override { return Area::Margins; }
  void paint(QPainter& p, const TimelineFrame& frame) override;
};

}  // namespace waitscope::views
