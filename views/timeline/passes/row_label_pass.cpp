#include "views/timeline/passes/row_label_pass.h"

#include <QPainter>

#include "views/timeline/timeline_geometry.h"

namespace waitscope::views {

namespace {

constexpr int kNodeMarkHeight = 16;

// A triangle in an 8x8 box at (x, y): pointing down when open, right when folded.
void drawFoldMark(QPainter& p, const QPalette& palette, int x, int y, bool folded) {
  QPointF tri[3] = {QPointF(x, y + 2), QPointF(x + 8, y + 2), QPointF(x + 4, y + 8)};
  if (folded) {
    tri[0] = QPointF(x + 1, y);
    tri[1] = QPointF(x + 7, y + 5);
    tri[2] = QPointF(x + 1, y + 10);
  }
  p.setBrush(palette.text());
  p.drawPolygon(tri, 3);
}

}  // namespace

void RowLabelPass::paint(QPainter& p, const TimelineFrame& frame) {
  const QRect& plot = frame.scene.plot;
  const TimelineRows& rows = *frame.scene.rows;
  const TimelineStyle& style = *frame.style;
  const QPalette& palette = *frame.palette;
  p.save();
  p.setClipRect(QRect(0, plot.top(), kLabelWidth, plot.height()));
  p.fillRect(QRect(0, plot.top(), kLabelWidth, plot.height()), palette.window());
  p.setPen(palette.text().color());
  const int top = frame.scene.contentTop;
  for (const TimelineRow& r : rows.rows()) {
    const int y = top + r.top;
    if (y + r.height < plot.top() || y > plot.bottom()) continue;
    if (r.isNode) {
      drawFoldMark(p, palette, 3, y + (kNodeMarkHeight - 8) / 2 - 1, rows.collapsed(r.node));
      if (r.node < style.nodeTexts.size())
        p.drawStaticText(QPointF(14, y + (r.height - style.textHeight) / 2), style.nodeTexts[r.node]);
    } else if (r.location < style.locationTexts.size()) {
      const int textTop = y + (r.height - style.textHeight) / 2;
      // A process with threads or streams: its mark folds them (a click on the label).
      if (rows.hasChildren(r.location))
        drawFoldMark(p, palette, 7, textTop + (style.textHeight - 8) / 2, rows.childrenCollapsed(r.location));
      p.drawStaticText(QPointF(18 + 12 * r.depth, textTop), style.locationTexts[r.location]);
    }
  }
  p.restore();
}

}  // namespace waitscope::views
