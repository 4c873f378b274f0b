#pragma once
// RMA epochs (fence, access, exposure, lock, lock-all) as a thin band under
// each row's regions, in translucent colours so overlapping epochs stay visible.
#include <array>
#include <vector>

#include <QRect>

#include "views/timeline/passes/render_pass.h"

namespace waitscope::views {

class EpochPass final : public RenderPass {
 public:
  void paint(QPainter& p, const TimelineFrame& frame) override;

 private:
  std::array<std::vector<QRect>, 5> rects_;  // batched per epoch kind
};

}  // namespace waitscope::views
