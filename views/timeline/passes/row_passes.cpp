#include "views/timeline/passes/row_passes.h"

namespace waitscope::views {

void RowPasses::paint(QPainter& p, const TimelineFrame& frame) {
  for (const auto& pass : passes_) pass->begin(p, frame);
  for (const timeline::LocationSlice& row : frame.scene.slice->locations)
    for (const auto& pass : passes_) pass->paintRow(p, frame, row);
  for (const auto& pass : passes_) pass->end(p, frame);
}

}  // namespace waitscope::views
