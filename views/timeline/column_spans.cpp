#include "views/timeline/column_spans.h"

#include <algorithm>

#include "views/timeline/raster_layer.h"

namespace waitscope::views {

void ColumnSpans::begin(int left, int width) {
  for (int c : touched_) columns_[static_cast<std::size_t>(c)].count = 0;
  touched_.clear();
  overflowX_.clear();
  overflowTop_.clear();
  overflowBottom_.clear();
  left_ = left;
  if (columns_.size() < static_cast<std::size_t>(std::max(width, 0))) columns_.resize(static_cast<std::size_t>(width));
}

void ColumnSpans::add(int x, int y0, int y1) {
  const int c = x - left_;
  if (c < 0 || static_cast<std::size_t>(c) >= columns_.size()) return;
  Column& col = columns_[static_cast<std::size_t>(c)];
  if (col.count == 0) touched_.push_back(c);
  // Merge with every run it overlaps or touches (a run may join two).
  int k = 0;
  while (k < col.count) {
    if (y0 <= col.bottom[k] + 1 && y1 + 1 >= col.top[k]) {
      y0 = std::min(y0, col.top[k]);
      y1 = std::max(y1, col.bottom[k]);
      --col.count;
      col.top[k] = col.top[col.count];
      col.bottom[k] = col.bottom[col.count];
    } else {
      ++k;
    }
  }
  if (col.count < kSlots) {
    col.top[col.count] = y0;
    col.bottom[col.count] = y1;
    ++col.count;
    return;
  }
  overflowX_.push_back(x);
  overflowTop_.push_back(y0);
  overflowBottom_.push_back(y1);
}

void ColumnSpans::flushTo(RasterLayer& layer, QRgb opaque) {
  // Left to right, not in first-use order: neighbouring columns share cache
  // lines, so a column's runs find most of their rows' lines still cached.
  int first = static_cast<int>(columns_.size()), last = -1;
  for (int c : touched_) {
    first = std::min(first, c);
    last = std::max(last, c);
  }
  for (int c = first; c <= last; ++c) {
    Column& col = columns_[static_cast<std::size_t>(c)];
    for (int k = 0; k < col.count; ++k) layer.fillRect(left_ + c, col.top[k], 1, col.bottom[k] - col.top[k] + 1, opaque);
    col.count = 0;
  }
  touched_.clear();
  for (std::size_t i = 0; i < overflowX_.size(); ++i)
    layer.fillRect(overflowX_[i], overflowTop_[i], 1, overflowBottom_[i] - overflowTop_[i] + 1, opaque);
  overflowX_.clear();
  overflowTop_.clear();
  overflowBottom_.clear();
}

}  // namespace waitscope::views
