#include "raster_layer.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include <QPaintEngine>
#include <QPainter>

namespace waitscope::views {

bool RasterLayer::usableOn(const QPainter& painter) {
  const QPaintEngine* engine = painter.paintEngine();
  return engine && engine->type() == QPaintEngine::Raster && painter.deviceTransform().type() <= QTransform::TxTranslate;
}

void RasterLayer::clearDirty() {
  for (int y = dirtyTop_; y <= dirtyBottom_; ++y)
    std::memset(row(y) + dirtyLeft_, 0, static_cast<std::size_t>(dirtyRight_ - dirtyLeft_ + 1) * sizeof(QRgb));
  dirtyTop_ = dirtyLeft_ = 0;
  dirtyBottom_ = dirtyRight_ = -1;
}

void RasterLayer::begin(const QRect& area) {
  clearDirty();
  area_ = area;
  if (image_.width() < area.width() || image_.height() < area.height()) {
    image_ = QImage(std::max(image_.width(), area.width()), std::max(image_.height(), area.height()),
                    QImage::Format_ARGB32_Premultiplied);
    image_.fill(Qt::transparent);
  }
  bits_ = image_.bits();  // detaches once here, not per row
  stride_ = image_.bytesPerLine();
}

void RasterLayer::fillRect(int x, int y, int w, int h, QRgb opaque) {
  int x0 = std::max(x - area_.left(), 0), x1 = std::min(x - area_.left() + w, area_.width());
  int y0 = std::max(y - area_.top(), 0), y1 = std::min(y - area_.top() + h, area_.height());
  if (x0 >= x1 || y0 >= y1) return;
  if (x1 - x0 == 1) {
    for (int r = y0; r < y1; ++r) row(r)[x0] = opaque;
  } else {
    for (int r = y0; r < y1; ++r) std::fill(row(r) + x0, row(r) + x1, opaque);
  }
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

bool RasterLayer::wideLine(double x0, double y0, double x1, double y1, double width, QRgb opaque) {
  const double h = width / 2;
  const double edges[4] = {std::min(x0, x1) - h, std::max(x0, x1) + h, std::min(y0, y1) - h, std::max(y0, y1) + h};
  int first[4];
  for (int i = 0; i < 4; ++i) {
    const double e = std::clamp(edges[i], -1e6, 1e6) - 0.5;  // pixel c is inside when c > e on the near side
    if (std::abs(e - std::round(e)) < 1e-6) return false;     // through a pixel centre
    first[i] = static_cast<int>(std::ceil(e));
  }
  fillRect(first[0], first[2], first[1] - first[0], first[3] - first[2], opaque);
  return true;
}

void RasterLayer::verticalLine(int x, int y0, int y1, QRgb opaque) {
  if (y1 < y0) std::swap(y0, y1);
  fillRect(x, y0, 1, y1 - y0 + 1, opaque);
}

void RasterLayer::drawTo(QPainter& painter) {
  if (dirtyBottom_ < dirtyTop_) return;
  painter.drawImage(QPoint(area_.left() + dirtyLeft_, area_.top() + dirtyTop_), image_,
                    QRect(dirtyLeft_, dirtyTop_, dirtyRight_ - dirtyLeft_ + 1, dirtyBottom_ - dirtyTop_ + 1));
  clearDirty();
}

}  // namespace waitscope::views
