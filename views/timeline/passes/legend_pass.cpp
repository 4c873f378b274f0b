#include "views/timeline/passes/legend_pass.h"

#include <QPainter>

#include "views/timeline/timeline_geometry.h"
#include "views/timeline/timeline_legend.h"

namespace waitscope::views {

void LegendPass::paint(QPainter& p, const TimelineFrame& frame) {
  if (!frame.legendVisible || !frame.legend) return;
  const TimelineStyle& style = *frame.style;
  const QPalette& palette = *frame.palette;
  const int width = frame.size.width();
  const int lines = frame.legend->lines(width, frame.scene.layers);
  const int top = frame.size.height() - lines * kLegendHeight;
  p.fillRect(QRect(0, top, width, lines * kLegendHeight), palette.window());
  const QColor text = palette.text().color();
  frame.legend->flow(width, frame.scene.layers, [&](const LegendEntry& e, int x, int line) {
    const int y = top + line * kLegendHeight;
    constexpr int s = TimelineLegend::kSwatch;
    if (e.swatch == LegendEntry::Swatch::None) {  // a heading: its text only
      p.setPen(text);
      p.drawStaticText(QPointF(x, y + 15 - style.textAscent), e.text);
      return;
    }
    if (e.swatch == LegendEntry::Swatch::Line) {
      p.setPen(e.pen);
      p.drawLine(QPointF(x, y + 5 + s), QPointF(x + s, y + 5));
    } else {
      p.setPen(e.pen);
      p.setBrush(e.brush);
      p.drawRect(QRect(x, y + 5, s, s));
    }
    p.setPen(text);
    p.drawStaticText(QPointF(x + s + TimelineLegend::kTextGap, y + 15 - style.textAscent), e.text);  // baseline at y + 15
  });
}

}  // namespace waitscope::views
