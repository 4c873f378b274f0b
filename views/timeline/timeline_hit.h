#pragma once
// What is under a point of the timeline: an item of the slice shown (by its
// place in the slice), or in the label column a node header or the label of a
// location with child rows (a process with threads or streams).
#include <cstddef>
#include <cstdint>

#include <QPoint>

#include "views/timeline/timeline_scene.h"

namespace waitscope::views {

struct TimelineHit {
  enum class Kind { None, Region, Message, Transfer, Epoch, Instance, Path, NodeHeader, ParentLabel };
  Kind kind = Kind::None;
  std::size_t slot = 0;   // index into the slice's locations
  std::size_t index = 0;  // index into that location's list of `kind`
  std::uint32_t node = 0;  // NodeHeader: the row group (TimelineRows::nodes()); ParentLabel: the location
};

// The item at widget position `pos` of `scene`; marks win over lines, lines
// over regions, with a few pixels of slop.
TimelineHit hitTest(const TimelineScene& scene, const QPoint& pos);

}  // namespace waitscope::views
