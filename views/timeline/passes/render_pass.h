#pragma once
// The timeline is painted as a list of render passes, each drawing one kind of
// item (as in Qt Creator's tracing library): the view runs them in order,
// those of the plot clipped to it, then those of the margins (labels, ruler,
// legend). A pass sees the frame only through TimelineFrame and keeps the
// buffers it collects items into from one frame to the next, so that painting
// allocates nothing once warm.
//
// On raster devices passes write their dense items straight into pixel memory
// through the frame's RasterLayer (raster_layer.h), pixel for pixel what
// QPainter would draw; the layer is scratch shared by all passes, begun and
// drawn within one pass.
#include <cstdint>
#include <optional>
#include <vector>

#include <QFont>
#include <QPalette>
#include <QRect>
#include <QSize>
#include <QString>

#include "analysis/timeline/timeline_query.h"
#include "views/timeline/raster_layer.h"
#include "views/timeline/timeline_scene.h"
#include "views/timeline/timeline_style.h"

class QPainter;

namespace waitscope::views {

class TimelineLegend;

// Everything a pass may read while painting one frame.
struct TimelineFrame {
  TimelineScene scene;  // what is shown and where
  QSize size;           // the whole picture (the widget, or an export)
  const TimelineStyle* style = nullptr;
  const QPalette* palette = nullptr;
  const QFont* font = nullptr;
  RasterLayer* layer = nullptr;
  bool directRaster = true;  // off: everything through QPainter (tests compare both)
  // Coupling with the trees: the highlighted metric (with, per metric, whether
  // it or an ancestor is the one) and call path; kNoId: none.
  std::uint32_t highlightedMetric = timeline::kNoId;
  const std::vector<char>* metricHighlighted = nullptr;
  std::uint32_t highlightedCallPath = timeline::kNoId;
  std::optional<QRect> rubberBand;  // the time range being dragged out
  timeline::SliceStatus status = timeline::SliceStatus::Exact;
  QString statusText;  // "" when the slice is exact
  bool legendVisible = true;
  const TimelineLegend* legend = nullptr;
};

class RenderPass {
 public:
  enum class Area { Plot, Margins };  // clipped to the plot; or around it

  virtual ~RenderPass() = default;
  virtual Area area() const { return Area::Plot; }
  virtual void paint(QPainter& p, const TimelineFrame& frame) = 0;
};

}  // namespace waitscope::views
