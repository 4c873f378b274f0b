#pragma once
// Wait-state instances on the region band: hatched and outlined in their
// pattern's colour (bolder for the highlighted metric and its sub-metrics,
// pale for the others); too narrow to hatch, a solid mark.
#include <optional>
#include <vector>

#include <QPoint>
#include <QRect>
#include <QRectF>

#include "views/timeline/passes/outline_batch.h"
#include "views/timeline/passes/row_passes.h"

namespace waitscope::views {

class WaitStatePass final : public RowPass {
 public:
  void begin(QPainter& p, const TimelineFrame& frame) override;
  void paintRow(QPainter& p, const TimelineFrame& frame, const timeline::LocationSlice& row) override;
  // The narrow marks of all rows.
  void end(QPainter& p, const TimelineFrame& frame) override;

 private:
  bool direct_ = false;              // this frame: raster layers usable
  std::optional<QPoint> hatchOrigin_;  // this frame: the brush origin, when hatching can go into a layer
  std::vector<QRectF> runRects_;  // consecutive instances of one style, drawn as one batch
  OutlineBatch outlines_;
  std::vector<std::vector<QRect>> narrowRects_;  // narrow instances, per pattern
};

}  // namespace waitscope::views
