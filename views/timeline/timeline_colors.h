#pragma once
// The timeline's colours: region groups (editable, shown in the legend), RMA
// epoch kinds, wait-state patterns (one stable colour per metric), messages,
// transfers and the critical path.
#include <array>

#include <QColor>
#include <QString>

#include "analysis/timeline/timeline_types.h"

namespace waitscope::views {

struct TimelineColors {
  std::array<QColor, timeline::kRegionGroupCount> groups = {
      QColor(0x8f, 0xbc, 0x8f),  // user code: sage green
      QColor(0xe0, 0x3c, 0x31),  // MPI point-to-point: red
      QColor(0xf2, 0x8e, 0x2b),  // MPI collective: orange
      QColor(0x4e, 0x79, 0xa7),  // RMA synchronization: blue
      QColor(0x9c, 0x6a, 0xde),  // RMA communication: violet
      QColor(0xb0, 0xb0, 0xb0),  // other MPI: grey
  };
  std::array<QColor, 5> epochs = {
      QColor(0x17, 0xa2, 0xb8),  // fence: teal
      QColor(0x1f, 0x4e, 0xc8),  // GATS access: dark blue
      QColor(0xd6, 0x8a, 0x00),  // GATS exposure: amber
      QColor(0xc2, 0x18, 0x5b),  // lock: magenta
      QColor(0xe8, 0x7a, 0xb0),  // lock_all: pink
  };
  QColor message = QColor(0x20, 0x20, 0x20);
  QColor transfer = QColor(0x00, 0x80, 0x40);
  QColor criticalPath = QColor(0xd0, 0x00, 0x00);
  QColor highlight = QColor(0xff, 0xd7, 0x00);
  QColor origin = QColor(0x00, 0x66, 0xcc);  // t = 0 of stacked runs (their alignment point)

  QColor group(timeline::RegionGroup g) const { return groups[static_cast<std::size_t>(g)]; }
  QColor epoch(timeline::EpochKind k) const { return epochs[static_cast<std::size_t>(k)]; }
  // A stable, well-separated colour per pattern (golden-angle hues).
  static QColor pattern(std::uint32_t metric) {
    return QColor::fromHsv(static_cast<int>((metric * 137u + 10u) % 360u), 230, 210);
  }
};

QString groupLabel(timeline::RegionGroup g);
QString epochLabel(timeline::EpochKind k);

}  // namespace waitscope::views
