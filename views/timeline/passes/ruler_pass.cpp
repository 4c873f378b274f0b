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
  const double origin = scene.timeOrigin;
  p.fillRect(QRect(0, 0, plot.right() + 1, kRulerHeight), frame.palette->window());
  p.setPen(frame.palette->text().color());
  p.drawLine(plot.left(), kRulerHeight - 1, plot.right(), kRulerHeight - 1);
  const double span = window.to - window.from;
  const double raw = span / std::max(1.0, plot.width() / 100.0);
  const double decade = std::pow(10.0, std::floor(std::log10(raw)));
  const double step = raw / decade < 2 ? 2 * decade : raw / decade < 5 ? 5 * decade : 10 * decade;
  // Ticks at round times counted from the origin.
  const double last = window.to - origin;
  for (double t = std::ceil((window.from - origin) / step) * step; t <= last; t += step) {
    const double x = scene.xOf(t + origin);
    p.drawLine(QLineF(x, kRulerHeight - 6, x, kRulerHeight - 1));
    p.drawText(QRectF(x + 2, 0, 90, kRulerHeight - 6), Qt::AlignLeft | Qt::AlignVCenter,
               formatTime(std::abs(t) < step * 1e-9 ? 0.0 : t));
  }
  // An origin other than the trace's time 0 is a chosen alignment point: a line down
  // through the plot, so that stacked runs show where they are aligned.
  if (origin != 0.0 && origin >= window.from && origin <= window.to) {
    const double x = std::floor(scene.xOf(origin)) + 0.5;
    p.setPen(frame.style->originPen);
    p.drawLine(QLineF(x, 0, x, plot.bottom()));
  }
}

}  // namespace waitscope::views
