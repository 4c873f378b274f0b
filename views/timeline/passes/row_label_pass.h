#pragma once
// The label column left of the plot: a collapsible header per node (a triangle
// pointing down when expanded) and the name of each location row.
#include "views/timeline/passes/render_pass.h"

namespace waitscope::views {

class RowLabelPass final : public RenderPass {
 public:
  Area area() const override { return Area::Margins; }
  void paint(QPainter& p, const TimelineFrame& frame) override;
};

}  // namespace waitscope::views
