#pragma once
// The region band of every row: one rectangle per region span, coloured by its
// group, at least a pixel wide.
#include <array>
#include <vector>

#include <QRect>

#include "views/timeline/passes/render_pass.h"

namespace waitscope::views {

class RegionPass final : public RenderPass {
 public:
  void paint(QPainter& p, const TimelineFrame& frame) override;

 private:
  std::array<std::vector<QRect>, timeline::kRegionGroupCount> rects_;  // batched per colour
  std::vector<QRect> bandSpans_;  // per row, the runs of pixels its rectangles cover
};

}  // namespace waitscope::views
