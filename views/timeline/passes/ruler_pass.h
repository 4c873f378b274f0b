#pragma once
// The time ruler above the plot: a tick about every 100 pixels, at 1, 2 or 5
// times a power of ten, each with its time counted from the time origin
// (marked by a line down through the plot when it is not the trace's 0).
#include "views/timeline/passes/render_pass.h"

namespace waitscope::views {

class RulerPass final : public RenderPass {
 public:
  Area area() const override { return Area::Margins; }
  void paint(QPainter& p, const TimelineFrame& frame) override;
};

}  // namespace waitscope::views
