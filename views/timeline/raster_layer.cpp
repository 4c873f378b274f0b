#include "raster_layer.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include <QPaintEngine>
#include <QPainter>
#include <QRegion>

#include "column_spans.h"

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

bool RasterLayer::penRect(double x0, double y0, double x1, double y1, double width, QRect& out) {
  const double h = width / 2;
  const double edges[4] = {std::min(x0, x1) - h, std::max(x0, x1) + h, std::min(y0, y1) - h, std::max(y0, y1) + h};
  int first[4];
  for (int i = 0; i < 4; ++i) {
    const double e = std::clamp(edges[i], -1e6, 1e6) - 0.5;  // pixel c is inside when c > e on the near side
    if (std::abs(e - std::round(e)) < 1e-6) return false;     // through a pixel centre
    first[i] = static_cast<int>(std::ceil(e));
  }
  out = QRect(first[0], first[2], first[1] - first[0], first[3] - first[2]);
  return true;
}

bool RasterLayer::wideLine(double x0, double y0, double x1, double y1, double width, QRgb opaque) {
  QRect r;
  if (!penRect(x0, y0, x1, y1, width, r)) return false;
  fillRect(r.x(), r.y(), r.width(), r.height(), opaque);
  return true;
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
