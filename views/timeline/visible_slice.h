#pragma once
// The slice the timeline shows: its visible rows at the plot's width in
// pixels, queried again only when the window, the width, the rows or the
// source's data changed. Asynchronous sources are never waited for: the slice
// is the best the source has, and status() says so. Its buffers are reused
// from one query to the next.
#include <cstdint>
#include <vector>

#include <QRect>
#include <QString>

#include "analysis/timeline/timeline_query.h"
#include "views/timeline/timeline_rows.h"
#include "views/timeline/zoom_history.h"

namespace waitscope::views {

class VisibleSlice {
 public:
  // Brings the slice up to date for `window` across `plot`, the rows scrolled
  // so that content y 0 is at widget y `contentTop`, with the items of `kinds` (SliceKind bits).
  void update(timeline::SliceSource* source, const TimelineRows& rows, TimeWindow window, const QRect& plot,
              int contentTop, std::uint32_t kinds);
  // The next update queries the source again (its data changed).
  void invalidate() { fresh_ = false; }

  const timeline::Slice& slice() const { return slice_; }
  // Per location: widget y of its region band's middle, or -1 (not shown).
  const std::vector<double>& rowCenter() const { return rowCenter_; }
  // The plot of the last update (invalid before the first).
  QRect plot() const { return plot_; }
  // What the source answered for the last query, and its problem when that failed.
  timeline::SliceStatus status() const { return status_; }
  const QString& problem() const { return problem_; }

 private:
  timeline::SliceRequest request_;
  timeline::Slice slice_;
  std::vector<std::uint32_t> visible_;  // locations of the visible rows, this update
  std::vector<double> rowCenter_;
  QRect plot_;
  bool fresh_ = false;  // slice_ answers request_ and the source has not changed since
  timeline::SliceStatus status_ = timeline::SliceStatus::Exact;
  QString problem_;
};

}  // namespace waitscope::views
