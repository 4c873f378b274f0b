#pragma once
// Opaque pixels written straight into an image of the plot and drawn with one
// QPainter::drawImage: the same pixels the raster engine produces for opaque
// solid rectangles and aliased one-pixel vertical lines, without its cost per
// item (clipping, span set-up, blending), which dominates when a zoomed-out
// timeline has tens of thousands of one- or two-pixel items.
//
// Only for raster painters without scaling and for opaque colours (the view
// checks both and otherwise paints with QPainter; exports to SVG always do).
// The image keeps its storage between frames: drawing allocates nothing once
// warm. Transparent pixels leave what is under them, so a layer can be drawn
// at any point of the painting order.
#include <QImage>
#include <QRect>
#include <QRgb>

class QPainter;

namespace waitscope::views {

class RasterLayer {
 public:
  // Starts a layer over `area` (widget coordinates), all transparent.
  void begin(const QRect& area);
  // Fills [x, x + w) x [y, y + h), clipped to the area.
  void fillRect(int x, int y, int w, int h, QRgb opaque);
  // An axis-aligned line from (x0, y0) to (x1, y1) drawn with a square-capped
  // pen `width` wide: the pixels whose centres lie inside its rectangle, as
  // the aliased raster engine fills it. Where an edge passes through a pixel
  // centre the engine's choice depends on its arithmetic: then nothing is
  // written and it returns false (the caller draws that line with QPainter).
  bool wideLine(double x0, double y0, double x1, double y1, double width, QRgb opaque);
  // Pixels (x, y0) to (x, y1), both included (y0 and y1 in either order).
  void verticalLine(int x, int y0, int y1, QRgb opaque);
  // Draws what was written (nothing when nothing was) and leaves the layer empty.
  void drawTo(QPainter& painter);

  // Whether painting on `painter` can use layers (raster engine, no scaling or rotation).
  static bool usableOn(const QPainter& painter);

 private:
  void clearDirty();
  QRgb* row(int y) { return reinterpret_cast<QRgb*>(bits_ + static_cast<qsizetype>(y) * stride_); }
  QImage image_;
  uchar* bits_ = nullptr;
  qsizetype stride_ = 0;
  QRect area_;
  int dirtyTop_ = 0, dirtyBottom_ = -1;   // image rows written since begin
  int dirtyLeft_ = 0, dirtyRight_ = -1;   // and columns
};

}  // namespace waitscope::views
