#include "views/timeline/passes/row_label_pass.h"

#include <QPainter>

#include "views/timeline/timeline_geometry.h"

namespace waitscope::views {

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
      const bool closed = rows.collapsed(r.node);
      QPointF tri[3] = {QPointF(3, y + 5), QPointF(11, y + 5), QPointF(7, y + 11)};  // expanded: pointing down
      if (closed) {
        tri[0] = QPointF(4, y + 3);
        tri[1] = QPointF(10, y + 8);
        tri[2] = QPointF(4, y + 13);
      }
      p.setBrush(palette.text());
      p.drawPolygon(tri, 3);
      if (r.node < style.nodeTexts.size())
        p.drawStaticText(QPointF(14, y + (r.height - style.textHeight) / 2), style.nodeTexts[r.node]);
    } else if (r.location < style.locationTexts.size()) {
      p.drawStaticText(QPointF(18 + 12 * r.depth, y + (r.height - style.textHeight) / 2), style.locationTexts[r.location]);
    }
  }
  p.restore();
}

}  // namespace waitscope::views
