#pragma once
// The legend below the plot (when shown): every kind of item drawn, each a
// swatch and its name, flowed into as many lines as the width needs
// (timeline_legend.h).
#include "views/timeline/passes/render_pass.h"

namespace waitscope::views {

class LegendPass final : public RenderPass {
 public:
  Area area() const override { return Area::Margins; }
  void paint(QPainter& p, const TimelineFrame& frame) override;
};

}  // namespace waitscope::views
