#pragma once
// Point-to-point messages as lines from sender to receiver, RMA transfers as
// arrows from origin to target. Where lines crowd (a line per pixel column and
// peer when zoomed out), one per few pixels and peer is drawn: the same grey
// area, a fraction of the pixels.
#include <cstdint>
#include <utility>
#include <vector>

#include <QLine>

#include "views/timeline/column_spans.h"
#include "views/timeline/passes/render_pass.h"

namespace waitscope::views {

class MessagePass final : public RenderPass {
 public:
  void paint(QPainter& p, const TimelineFrame& frame) override;

 private:
  void paintMessages(QPainter& p, const TimelineFrame& frame);
  void paintTransfers(QPainter& p, const TimelineFrame& frame);
  // Whether a line of `key` starting at pixel x is too close to the last one drawn (else records it).
  bool crowded(std::uint32_t key, int x);

  std::vector<QLine> lines_;  // the lines left to QPainter, drawn in one call
  ColumnSpans columnSpans_;   // vertical message lines and transfer shafts, merged per column
  std::vector<std::pair<std::uint32_t, int>> lastLineX_;  // (line key, x of its last drawn line) of one row
};

}  // namespace waitscope::views
