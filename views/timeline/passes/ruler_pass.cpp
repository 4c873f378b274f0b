#include "views/timeline/passes/ruler_pass.h"

#include <algorithm>
#include <cmath>

#include <QPainter>

#include "views/timeline/timeline_format.h"
#include "views/timeline/timeline_geometry.h"

namespace waitscope::views {

void RulerPass::paint(QPainter& p, const TimelineFrame& frame) {
  const TimelineScene& scene = frame.scene;
  const QRect& plot = scene.plot;
  const TimeWindow& window = scene.window;
  p.fillRect(QRect(0, 0, plot.right() + 1, kRulerHeight), frame.palette->window());
  p.setPen(frame.palette->text().color());
  p.drawLine(plot.left(), kRulerHeight - 1, plot.right(), kRulerHeight - 1);
  const double span = window.to - window.from;
  const double raw = span / std::max(1.0, plot.width() / 100.0);
  const double decade = std::pow(10.0, std::floor(std::log10(raw)));
  const double step = raw / decade < 2 ? 2 * decade : raw / decade < 5 ? 5 * decade : 10 * decade;
  for (double t = std::ceil(window.from / step) * step; t <= window.to; t += step) {
    const double x = scene.xOf(t);
    p.drawLine(QLineF(x, kRulerHeight - 6, x, kRulerHeight - 1));
    p.drawText(QRectF(x + 2, 0, 90, kRulerHeight - 6), Qt::AlignLeft | Qt::AlignVCenter, formatTime(t));
  }
}

}  // namespace waitscope::views
