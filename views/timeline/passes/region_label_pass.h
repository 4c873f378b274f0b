#pragma once
// On top of a row's region band: the outline of the highlighted call path's
// regions, and each region's name where it fits.
#include <QPen>

#include "views/timeline/passes/outline_batch.h"
#include "views/timeline/passes/row_passes.h"

namespace waitscope::views {

class RegionLabelPass final : public RowPass {
 public:
  void begin(QPainter& p, const TimelineFrame& frame) override;
  void paintRow(QPainter& p, const TimelineFrame& frame, const timeline::LocationSlice& row) override;

 private:
  OutlineBatch outlines_;
  QPen textPen_;             // this frame's
  bool lineOutlines_ = false;  // this frame: outlines as lines through the layer (OutlineBatch)
};

}  // namespace waitscope::views
