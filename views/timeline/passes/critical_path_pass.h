#pragma once
// The critical path as one connected line across rows: a bar per visit of the
// path to a location, thin links between consecutive visits, and where a visit
// overlaps a region of the highlighted call path, that part in the highlight colour.
#include <cstdint>
#include <vector>

#include <QLine>
#include <QRect>

#include "views/timeline/passes/render_pass.h"

namespace waitscope::views {

class CriticalPathPass final : public RenderPass {
 public:
  void paint(QPainter& p, const TimelineFrame& frame) override;

 private:
  struct PathPoint {
    std::uint32_t order;
    double x0, x1, y;
  };
  void collectHighlighted(const TimelineFrame& frame);

  std::vector<PathPoint> points_;
  std::vector<PathPoint> highlighted_;  // the path's bars inside the highlighted call path's regions
  std::vector<QLine> links_;
  std::vector<QRect> bars_;
};

}  // namespace waitscope::views
