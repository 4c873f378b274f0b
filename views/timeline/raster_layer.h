#pragma once
// Opaque pixels written straight into pixel memory instead of through
// QPainter: the same pixels the raster engine produces for opaque solid
// rectangles and aliased one-pixel vertical lines, without its cost per item
// (clipping, span set-up, blending), which dominates when a zoomed-out
// timeline has tens of thousands of one- or two-pixel items.
//
// Where the pixels go: when the painter paints on a 32-bit image that only it
// uses (the widget's backing store, a PNG export), into that image itself, so
// nothing has to be blitted or cleared afterwards; otherwise into the layer's
// own image, drawn with one QPainter::drawImage by drawTo (transparent pixels
// leave what is under them). Either way a layer can sit at any point of the
// painting order: what QPainter drew before is under it, what it draws after
// drawTo is over it.
//
// Only for raster painters without scaling and for opaque colours (the view
// checks both and otherwise paints with QPainter; exports to SVG always do).
// The own image keeps its storage between frames: drawing allocates nothing once warm.
#include <array>
#include <cstdint>

#include <QImage>
#include <QPoint>
#include <QRect>
#include <QRgb>

class QPainter;
class QRectF;

namespace waitscope::views {

class ColumnSpans;

class RasterLayer {
 public:
  // Starts a layer over `area` (the painter's logical coordinates) for `painter`.
  void begin(QPainter& painter, const QRect& area);
  // Fills [x, x + w) x [y, y + h), clipped to the area.
  void fillRect(int x, int y, int w, int h, QRgb opaque);
  // An axis-aligned line from (x0, y0) to (x1, y1) drawn with a square-capped
  // pen `width` wide: the pixels whose centres lie inside its rectangle, as
  // the aliased raster engine fills it. Where an edge passes through a pixel
  // centre the engine's choice depends on its arithmetic: then nothing is
  // written and it returns false (the caller draws that line with QPainter).
  bool wideLine(double x0, double y0, double x1, double y1, double width, QRgb opaque);
  // The pixels wideLine would fill, without filling them (false: left to QPainter).
  static bool penRect(double x0, double y0, double x1, double y1, double width, QRect& out);
  // The outline of `r` drawn with a square-capped, mitred pen `width` wide:
  // its four sides as wideLine fills them, the shared edges worked out once.
  // False (nothing written) where wideLine would refuse a side.
  bool outline(const QRectF& r, double width, QRgb opaque);
  // An 8x8 brush pattern (Qt::BDiagPattern...) as the raster engine tiles it:
  // bit x of rows[y] is a painted pixel at (x, y) from the brush origin. Read
  // from QPainter itself (once per style change, not per frame).
  struct Pattern {
    std::array<std::uint8_t, 8> rows{};
  };
  static Pattern patternOf(Qt::BrushStyle style);
  // Fills `r` with `pattern` in `opaque` aligned to `brushOrigin` (logical
  // coordinates), as the aliased raster engine fills a QRectF with a pattern
  // brush and no pen: the pixels whose centres lie inside. An edge through a
  // pixel centre: nothing written, false (the caller leaves it to QPainter).
  bool patternRect(const QRectF& r, const Pattern& pattern, QPoint brushOrigin, QRgb opaque);
  // The pixels a layer can write, in the painter's logical coordinates.
  QRect writable() const { return clip_.translated(origin_); }
  // Copies pixels [x0, x1) of row `from` into rows [y0, y1) (all clipped to
  // writable()): a band of rectangles of one height is written in its first
  // row and copied down, a memcpy per row instead of a fill per rectangle.
  void copyRow(int x0, int x1, int from, int y0, int y1);
  // Pixels (x, y0) to (x, y1), both included (y0 and y1 in either order).
  void verticalLine(int x, int y0, int y1, QRgb opaque);
  // A one-pixel line from (x0, y0) to (x1, y1), both ends included, placed as
  // the raster engine places an aliased cosmetic line with square caps (one
  // pixel per step along the longer axis, at the line's position in 16.16
  // fixed point). The engine first clips a line reaching beyond the device in
  // floating point, which can move its pixels: such a line is not written and
  // it returns false (the caller draws it with QPainter).
  // With `runs`, a line steeper than 45 degrees goes there as one vertical run
  // per column (written when the runs are flushed, merged with others of its colour).
  bool line(int x0, int y0, int x1, int y1, QRgb opaque, ColumnSpans* runs = nullptr);
  // Shows what was written (blits the own image; nothing to do when writing
  // into the painter's image) and leaves the layer empty.
  void drawTo(QPainter& painter);

  // Whether painting on `painter` can use layers (raster engine, no scaling or rotation).
  static bool usableOn(const QPainter& painter);

 private:
  void clearDirty();
  void markDirty(int x0, int y0, int x1, int y1);  // pixels [x0, x1) x [y0, y1), in layer coordinates
  QRgb* row(int y) { return reinterpret_cast<QRgb*>(bits_ + static_cast<qsizetype>(y) * stride_); }
  // Points the layer at the painter's image if it can be written directly.
  bool targetDevice(QPainter& painter, const QRect& area);
  QImage image_;
  uchar* bits_ = nullptr;
  qsizetype stride_ = 0;
  bool onDevice_ = false;  // bits_ is the painter's image
  QRect area_;             // logical coordinates
  QRect device_;           // the painter's device, logical coordinates
  QPoint origin_;          // layer pixel (0, 0) in logical coordinates
  QRect clip_;             // writable pixels, layer coordinates
  int dirtyTop_ = 0, dirtyBottom_ = -1;   // own image rows written since begin
  int dirtyLeft_ = 0, dirtyRight_ = -1;   // and columns
};

}  // namespace waitscope::views
