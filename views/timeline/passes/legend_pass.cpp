#include "views/timeline/passes/legend_pass.h"

#include <QPainter>

#include "views/timeline/timeline_geometry.h"

namespace waitscope::views {

void LegendPass::paint(QPainter& p, const TimelineFrame& frame) {
  if (!frame.legendVisible) return;
  const TimelineStyle& style = *frame.style;
  const QPalette& palette = *frame.palette;
  const int y = frame.size.height() - kLegendHeight;
  p.fillRect(QRect(0, y, frame.size.width(), kLegendHeight), palette.window());
  p.setPen(palette.text().color());
  int x = 6;
  std::size_t n = 0;  // the entry's laid-out label (TimelineStyle::legendTexts, same order)
  const auto entry = [&](const QBrush& brush, const QPen& pen) {
    p.setPen(pen);
    p.setBrush(brush);
    p.drawRect(QRect(x, y + 5, 12, 12));
    if (n >= style.legendTexts.size()) return;
    p.setPen(palette.text().color());
    p.drawStaticText(QPointF(x + 16, y + 15 - style.textAscent), style.legendTexts[n]);  // baseline at y + 15
    x += 16 + style.legendWidths[n] + 12;
    ++n;
  };
  for (const QBrush& group : style.groupBrushes) entry(group, noPen_);
  for (const QBrush& epoch : style.epochBrushes) entry(epoch, noPen_);
  entry(waitStateBrush_, waitStatePen_);
  entry(style.pathBrush, noPen_);
}

}  // namespace waitscope::views
