#include "views/timeline/passes/status_pass.h"

#include <QFontMetrics>
#include <QPainter>

namespace waitscope::views {

void StatusPass::paint(QPainter& p, const TimelineFrame& frame) {
  const QString& text = frame.statusText;
  if (text.isEmpty()) return;
  const QRect& plot = frame.scene.plot;
  const QPalette& palette = *frame.palette;
  const QFontMetrics fm(*frame.font);
  if (frame.status == timeline::SliceStatus::Loading) {
    p.setPen(palette.placeholderText().color());
    p.drawText(plot, Qt::AlignCenter, text);
    return;
  }
  const bool failed = frame.status == timeline::SliceStatus::Failed;
  const QString line = fm.elidedText(text, Qt::ElideRight, plot.width() - 12);
  const int w = fm.horizontalAdvance(line) + 12;
  const QRect box = failed ? QRect(plot.left(), plot.top(), w, fm.height() + 6)
                           : QRect(plot.right() + 1 - w, plot.top(), w, fm.height() + 6);
  p.fillRect(box, failed ? QColor(0xfd, 0xec, 0xea) : palette.window().color());
  p.setPen(failed ? QColor(0xa0, 0x10, 0x10) : palette.text().color());
  p.drawText(box, Qt::AlignCenter, line);
}

}  // namespace waitscope::views
