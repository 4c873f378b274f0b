#pragma once
// Vertical runs of one colour collected per pixel column and merged before
// they are written: zoomed out, thousands of message lines and transfer
// shafts stand in the same columns, and writing each pixel once instead of
// once per line saves most of their cost (a vertical run touches one cache
// line per pixel). The union of the runs is exactly the pixels the lines would
// have written one by one, so only runs of one colour may share a batch.
//
// Storage is kept between frames: collecting allocates nothing once warm.
#include <QRgb>
#include <vector>

namespace waitscope::views {

class RasterLayer;

class ColumnSpans {
 public:
  // Starts a batch for columns [left, left + width).
  void begin(int left, int width);
  // Pixels (x, y0) to (x, y1), both included, y0 <= y1. Outside the columns: ignored.
  void add(int x, int y0, int y1);
  // Writes the merged runs into `layer` and empties the batch.
  void flushTo(RasterLayer& layer, QRgb opaque);

 private:
  static constexpr int kSlots = 3;  // disjoint runs kept per column; more are written at once
  struct Column {
    int count = 0;
    int top[kSlots], bottom[kSlots];
  };
  std::vector<Column> columns_;
  std::vector<int> touched_;             // columns with runs, in first-use order
  std::vector<int> overflowX_, overflowTop_, overflowBottom_;  // runs that did not fit
  int left_ = 0;
};

}  // namespace waitscope::views
