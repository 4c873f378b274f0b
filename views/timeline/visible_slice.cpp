#include "views/timeline/visible_slice.h"

#include "views/timeline/timeline_geometry.h"

namespace waitscope::views {

void VisibleSlice::update(timeline::SliceSource* source, const TimelineRows& rows, TimeWindow window,
                          const QRect& plot, int contentTop, std::uint32_t kinds) {
  plot_ = plot;
  const std::uint32_t n = source ? source->locationCount() : 0;
  rowCenter_.assign(n, -1.0);
  visible_.clear();
  const int top = contentTop;
  const RowBands& bands = rows.bands();
  for (const TimelineRow& r : rows.rows()) {
    if (r.isNode || r.location >= n) continue;
    rowCenter_[r.location] = top + r.top + bands.bandMiddle();
    if (top + r.top + r.height > plot.top() && top + r.top < plot.bottom()) visible_.push_back(r.location);
  }
  const auto width = static_cast<std::uint32_t>(plot.width());
  kinds &= timeline::kSliceAll & ~timeline::kSliceCollectives;  // collectives show as regions
  // The same window, width, rows and kinds as the slice we have: a repaint needs no query.
  if (fresh_ && request_.from == window.from && request_.to == window.to && request_.width == width &&
      request_.kinds == kinds && request_.locations == visible_)
    return;
  request_.locations = visible_;  // keeps its capacity
  request_.from = window.from;
  request_.to = window.to;
  request_.width = width;
  request_.kinds = kinds;
  status_ = timeline::SliceStatus::Exact;
  if (source && !request_.locations.empty()) {
    status_ = source->query(request_, slice_);
    if (status_ == timeline::SliceStatus::Failed) problem_ = QString::fromStdString(source->problem());
  } else {
    slice_.from = window.from;
    slice_.to = window.to;
    slice_.locations.clear();
  }
  fresh_ = true;  // until the window, width or rows change, or the source says its data did
}

}  // namespace waitscope::views
