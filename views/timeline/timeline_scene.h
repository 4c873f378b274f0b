#pragma once
// What one frame of the timeline shows and where: the slice of the visible
// rows, the time window across the plot, and each location's row position.
// Render passes draw it; hit testing searches it.
#include <cstdint>
#include <vector>

#include <QRect>

#include "analysis/timeline/timeline_query.h"
#include "views/timeline/timeline_rows.h"
#include "views/timeline/zoom_history.h"

namespace waitscope::views {

struct TimelineScene {
  QRect plot;         // widget coordinates of the plot (right of the labels, between ruler and legend)
  TimeWindow window;  // the time shown across the plot
  double timeOrigin = 0.0;  // the ruler's t = 0 (trace time)
  int contentTop = 0;  // widget y of content y 0 (the rows scroll)
  const TimelineRows* rows = nullptr;
  const timeline::Slice* slice = nullptr;
  const std::vector<double>* rowCenter = nullptr;  // per location: widget y of its region band's middle, or -1
  std::uint32_t layers = timeline::kSliceAll;  // SliceKind bits of the layers shown

  // The widget x of `time`.
  double xOf(double time) const {
    return plot.left() + (time - window.from) / (window.to - window.from) * plot.width();
  }
};

}  // namespace waitscope::views
