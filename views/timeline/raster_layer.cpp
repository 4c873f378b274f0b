#include "views/timeline/raster_layer.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include <QPaintEngine>
#include <QPainter>
#include <QRectF>
#include <QRegion>

#include "views/timeline/column_spans.h"

namespace waitscope::views {

bool RasterLayer::usableOn(const QPainter& painter) {
  const QPaintEngine* engine = painter.paintEngine();
  return engine && engine->type() == QPaintEngine::Raster && painter.deviceTransform().type() <= QTransform::TxTranslate;
}

bool RasterLayer::targetDevice(QPainter& painter, const QRect& area) {
  QPaintEngine* engine = painter.paintEngine();
  QPaintDevice* device = engine ? engine->paintDevice() : nullptr;
  if (!device || device->devType() != QInternal::Image) return false;
  auto* image = static_cast<QImage*>(device);
  // Opaque pixels are the same 32-bit value in these formats; an image shared
  // with a copy would detach on bits() and the painter would not see the writes.
  const QImage::Format f = image->format();
  if ((f != QImage::Format_ARGB32_Premultiplied && f != QImage::Format_RGB32 && f != QImage::Format_ARGB32) ||
      !image->isDetached())
    return false;
  const QTransform& t = painter.deviceTransform();
  const int dx = static_cast<int>(std::lround(t.dx())), dy = static_cast<int>(std::lround(t.dy()));
  if (t.dx() != dx || t.dy() != dy) return false;
  // The region the paint event may touch (a widget's backing store is shared
  // with its parent and siblings): one rectangle or none.
  QRect clip = image->rect().intersected(area.translated(dx, dy));
  const QRegion system = engine->systemClip();
  if (!system.isEmpty()) {
    if (system.rectCount() != 1) return false;
    clip = clip.intersected(system.boundingRect());
  }
  bits_ = image->bits();  // detached: no copy
  stride_ = image->bytesPerLine();
  origin_ = QPoint(-dx, -dy);
  clip_ = clip.isValid() ? clip : QRect();
  return true;
}

void RasterLayer::clearDirty() {
  if (!onDevice_)
    for (int y = dirtyTop_; y <= dirtyBottom_; ++y)
      std::memset(row(y) + dirtyLeft_, 0, static_cast<std::size_t>(dirtyRight_ - dirtyLeft_ + 1) * sizeof(QRgb));
  dirtyTop_ = dirtyLeft_ = 0;
  dirtyBottom_ = dirtyRight_ = -1;
}

void RasterLayer::begin(QPainter& painter, const QRect& area) {
  clearDirty();
  area_ = area;
  const QPaintDevice* device = painter.paintEngine() ? painter.paintEngine()->paintDevice() : nullptr;
  const QTransform& t = painter.deviceTransform();
  device_ = device ? QRect(0, 0, device->width(), device->height())
                         .translated(-static_cast<int>(std::lround(t.dx())), -static_cast<int>(std::lround(t.dy())))
                   : QRect();
  onDevice_ = targetDevice(painter, area);
  if (onDevice_) return;
  if (image_.width() < area.width() || image_.height() < area.height()) {
    image_ = QImage(std::max(image_.width(), area.width()), std::max(image_.height(), area.height()),
                    QImage::Format_ARGB32_Premultiplied);
    image_.fill(Qt::transparent);
  }
  bits_ = image_.bits();  // detaches once here, not per row
  stride_ = image_.bytesPerLine();
  origin_ = area.topLeft();
  clip_ = QRect(0, 0, area.width(), area.height());
}

void RasterLayer::markDirty(int x0, int y0, int x1, int y1) {
  if (onDevice_) return;
  if (dirtyBottom_ < dirtyTop_) {
    dirtyTop_ = y0;
    dirtyBottom_ = y1 - 1;
    dirtyLeft_ = x0;
    dirtyRight_ = x1 - 1;
  } else {
    dirtyTop_ = std::min(dirtyTop_, y0);
    dirtyBottom_ = std::max(dirtyBottom_, y1 - 1);
    dirtyLeft_ = std::min(dirtyLeft_, x0);
    dirtyRight_ = std::max(dirtyRight_, x1 - 1);
  }
}

void RasterLayer::fillRect(int x, int y, int w, int h, QRgb opaque) {
  x -= origin_.x();
  y -= origin_.y();
  const int x0 = std::max(x, clip_.left()), x1 = std::min(x + w, clip_.right() + 1);
  const int y0 = std::max(y, clip_.top()), y1 = std::min(y + h, clip_.bottom() + 1);
  if (x0 >= x1 || y0 >= y1) return;
  if (x1 - x0 == 1) {
    for (int r = y0; r < y1; ++r) row(r)[x0] = opaque;
  } else {
    for (int r = y0; r < y1; ++r) std::fill(row(r) + x0, row(r) + x1, opaque);
  }
  markDirty(x0, y0, x1, y1);
}

namespace {

// The first pixel whose centre lies beyond `edge` (pixel c is inside when
// c + 0.5 > edge on the near side); false when the edge passes through a pixel
// centre, or as near to it as the engine's fixed point (1/64 pixel for
// stroked outlines) can blur: there its choice depends on its arithmetic.
bool firstPixelAfter(double edge, int& first) {
  const double e = std::clamp(edge, -1e6, 1e6) - 0.5;
  if (std::abs(e - std::round(e)) < 1.0 / 64) return false;
  first = static_cast<int>(std::ceil(e));
  return true;
}

}  // namespace

bool RasterLayer::penRect(double x0, double y0, double x1, double y1, double width, QRect& out) {
  const double h = width / 2;
  const double edges[4] = {std::min(x0, x1) - h, std::max(x0, x1) + h, std::min(y0, y1) - h, std::max(y0, y1) + h};
  int first[4];
  for (int i = 0; i < 4; ++i)
    if (!firstPixelAfter(edges[i], first[i])) return false;
  out = QRect(first[0], first[2], first[1] - first[0], first[3] - first[2]);
  return true;
}

bool RasterLayer::outline(const QRectF& r, double width, QRgb opaque) {
  const double h = width / 2;
  const double left = std::min(r.left(), r.right()), right = std::max(r.left(), r.right());
  const double top = std::min(r.top(), r.bottom()), bottom = std::max(r.top(), r.bottom());
  // The pen's edges along each axis: outer and inner of both sides.
  const double edges[8] = {left - h, left + h, right - h, right + h, top - h, top + h, bottom - h, bottom + h};
  int e[8];
  for (int i = 0; i < 8; ++i)
    if (!firstPixelAfter(edges[i], e[i])) return false;
  fillRect(e[0], e[4], e[3] - e[0], e[5] - e[4], opaque);  // top side
  fillRect(e[2], e[4], e[3] - e[2], e[7] - e[4], opaque);  // right
  fillRect(e[0], e[6], e[3] - e[0], e[7] - e[6], opaque);  // bottom
  fillRect(e[0], e[4], e[1] - e[0], e[7] - e[4], opaque);  // left
  return true;
}

RasterLayer::Pattern RasterLayer::patternOf(Qt::BrushStyle style) {
  QImage tile(8, 8, QImage::Format_ARGB32_Premultiplied);
  tile.fill(Qt::transparent);
  {
    QPainter p(&tile);
    p.fillRect(tile.rect(), QBrush(Qt::black, style));
  }
  Pattern pattern;
  for (int y = 0; y < 8; ++y)
    for (int x = 0; x < 8; ++x)
      if (qAlpha(tile.pixel(x, y)) != 0) pattern.rows[static_cast<std::size_t>(y)] |= static_cast<std::uint8_t>(1u << x);
  return pattern;
}

bool RasterLayer::patternRect(const QRectF& r, const Pattern& pattern, QPoint brushOrigin, QRgb opaque) {
  const QRectF n = r.normalized();
  int left, right, top, bottom;
  if (!firstPixelAfter(n.left(), left) || !firstPixelAfter(n.right(), right) || !firstPixelAfter(n.top(), top) ||
      !firstPixelAfter(n.bottom(), bottom))
    return false;
  // Layer coordinates, clipped; the pattern's phase stays in logical ones.
  const int x0 = std::max(left - origin_.x(), clip_.left()), x1 = std::min(right - origin_.x(), clip_.right() + 1);
  const int y0 = std::max(top - origin_.y(), clip_.top()), y1 = std::min(bottom - origin_.y(), clip_.bottom() + 1);
  if (x0 >= x1 || y0 >= y1) return true;
  const int px = origin_.x() - brushOrigin.x(), py = origin_.y() - brushOrigin.y();
  for (int y = y0; y < y1; ++y) {
    const unsigned bits = pattern.rows[static_cast<std::size_t>((y + py) & 7)];
    if (bits == 0) continue;
    QRgb* line = row(y);
    for (int x = x0; x < x1; ++x)
      if (bits >> ((x + px) & 7) & 1u) line[x] = opaque;
  }
  markDirty(x0, y0, x1, y1);
  return true;
}

bool RasterLayer::wideLine(double x0, double y0, double x1, double y1, double width, QRgb opaque) {
  QRect r;
  if (!penRect(x0, y0, x1, y1, width, r)) return false;
  fillRect(r.x(), r.y(), r.width(), r.height(), opaque);
  return true;
}

void RasterLayer::copyRow(int x0, int x1, int from, int y0, int y1) {
  x0 = std::max(x0 - origin_.x(), clip_.left());
  x1 = std::min(x1 - origin_.x(), clip_.right() + 1);
  from -= origin_.y();
  y0 = std::max(y0 - origin_.y(), clip_.top());
  y1 = std::min(y1 - origin_.y(), clip_.bottom() + 1);
  if (x0 >= x1 || y0 >= y1 || from < clip_.top() || from > clip_.bottom()) return;
  const QRgb* source = row(from) + x0;
  for (int y = y0; y < y1; ++y)
    if (y != from) std::memcpy(row(y) + x0, source, static_cast<std::size_t>(x1 - x0) * sizeof(QRgb));
  markDirty(x0, y0, x1, y1);
}

void RasterLayer::verticalLine(int x, int y0, int y1, QRgb opaque) {
  if (y1 < y0) std::swap(y0, y1);
  fillRect(x, y0, 1, y1 - y0 + 1, opaque);
}

bool RasterLayer::line(int x0, int y0, int x1, int y1, QRgb opaque, ColumnSpans* runs) {
  if (!device_.contains(x0, y0) || !device_.contains(x1, y1)) return false;
  if (x0 == x1) {
    if (runs)
      runs->add(x0, std::min(y0, y1), std::max(y0, y1));
    else
      verticalLine(x0, y0, y1, opaque);
    return true;
  }
  x0 -= origin_.x();
  x1 -= origin_.x();
  y0 -= origin_.y();
  y1 -= origin_.y();
  if (clip_.isEmpty() || std::max(x0, x1) < clip_.left() || std::min(x0, x1) > clip_.right() ||
      std::max(y0, y1) < clip_.top() || std::min(y0, y1) > clip_.bottom())
    return true;
  // Along the longer axis, from the smaller end: one pixel per step, the
  // shorter axis's coordinate of the line at the step's pixel centre in 16.16
  // fixed point (the slope truncated towards zero), as the raster engine's
  // aliased cosmetic lines with square caps place them (each line on its own:
  // drawLines does not join them).
  const bool steep = std::abs(y1 - y0) > std::abs(x1 - x0);
  int m0 = steep ? y0 : x0, m1 = steep ? y1 : x1, n0 = steep ? x0 : y0, n1 = steep ? x1 : y1;
  if (m0 > m1) {
    std::swap(m0, m1);
    std::swap(n0, n1);
  }
  const std::int64_t inc = (std::int64_t(n1 - n0) << 16) / (m1 - m0);
  // The first pixel's centre is half a step from the square cap's start; the
  // engine rounds that half step down for a falling slope.
  const std::int64_t start = (std::int64_t(n0) << 16) - (inc >> 1) + (inc > 0 ? inc : inc >> 1);
  const int lo = std::max(m0, steep ? clip_.top() : clip_.left());
  const int hi = std::min(m1, steep ? clip_.bottom() : clip_.right());
  const int nlo = steep ? clip_.left() : clip_.top(), nhi = steep ? clip_.right() : clip_.bottom();
  if (lo > hi) return true;
  std::int64_t n = start + (lo - m0) * inc;
  if (steep && runs) {
    // One vertical run per column the line crosses.
    int runColumn = static_cast<int>(n >> 16), runTop = lo;
    for (int m = lo; m <= hi; ++m, n += inc) {
      const int c = static_cast<int>(n >> 16);
      if (c == runColumn) continue;
      if (runColumn >= nlo && runColumn <= nhi) runs->add(runColumn + origin_.x(), runTop + origin_.y(), m - 1 + origin_.y());
      runColumn = c;
      runTop = m;
    }
    if (runColumn >= nlo && runColumn <= nhi) runs->add(runColumn + origin_.x(), runTop + origin_.y(), hi + origin_.y());
    return true;
  }
  int nMin = nhi + 1, nMax = nlo - 1;
  for (int m = lo; m <= hi; ++m, n += inc) {
    const int c = static_cast<int>(n >> 16);
    if (c < nlo || c > nhi) continue;
    if (steep)
      row(m)[c] = opaque;
    else
      row(c)[m] = opaque;
    nMin = std::min(nMin, c);
    nMax = std::max(nMax, c);
  }
  if (nMin > nMax) return true;
  if (steep)
    markDirty(nMin, lo, nMax + 1, hi + 1);
  else
    markDirty(lo, nMin, hi + 1, nMax + 1);
  return true;
}

void RasterLayer::drawTo(QPainter& painter) {
  if (dirtyBottom_ < dirtyTop_) return;
  painter.drawImage(QPoint(origin_.x() + dirtyLeft_, origin_.y() + dirtyTop_), image_,
                    QRect(dirtyLeft_, dirtyTop_, dirtyRight_ - dirtyLeft_ + 1, dirtyBottom_ - dirtyTop_ + 1));
  clearDirty();
}

}  // namespace waitscope::views
