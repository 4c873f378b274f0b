#pragma once
// What an asynchronous source is doing, over the plot: "loading…" in the
// middle while there is nothing to draw, in a box at the top right while a
// better slice is on its way; the source's one-line problem across the top
// when a request failed.
#include "views/timeline/passes/render_pass.h"

namespace waitscope::views {

class StatusPass final : public RenderPass {
 public:
  void paint(QPainter& p, const TimelineFrame& frame) override;
};

}  // namespace waitscope::views
