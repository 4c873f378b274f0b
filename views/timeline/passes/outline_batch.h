#pragma once
// Rectangle outlines drawn with a wide pen as their four sides. A pen wider
// than a pixel goes through QPainter's general stroker, several microseconds
// per rectangle; axis-aligned square-capped lines are rectangles, which on
// raster devices go into a layer (the pixels whose centres they cover, as the
// raster engine fills them), and otherwise into one drawLines call: the same
// pixels as the mitred rectangles. The sides are kept between frames.
#include <vector>

#include <QLineF>

class QPainter;
class QPen;
class QRectF;

namespace waitscope::views {

struct TimelineFrame;

class OutlineBatch {
 public:
  void clear() { sides_.clear(); }
  // Adds the four sides of `r`.
  void add(const QRectF& r);
  // Draws the sides with `pen` (square-capped, mitred), through the frame's layer where it can.
  void draw(QPainter& p, const TimelineFrame& frame, const QPen& pen);

 private:
  std::vector<QLineF> sides_;
};

}  // namespace waitscope::views
