#pragma once
// The timeline's colours: region groups (editable, shown in the legend), RMA
// epoch kinds, wait-state patterns, messages, transfers and the critical path.
// The defaults are chosen so that every two drawn categories are at least
// kMinDistance apart in CIELAB (CIE76 ΔE; about 2.3 is just noticeable), with
// twelve pattern colours picked greedily to stay far from the others: a
// hatch is drawn over region bands and beside arrows, so its colour must not
// be taken for either. A report's patterns with instances take the pattern
// colours in metric order (setPatterns); beyond twelve they repeat.
#include <array>
#include <cstdint>
#include <vector>

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
      QColor(0xa5, 0xb4, 0x0f),  // GATS exposure: olive
      QColor(0xc2, 0x18, 0x5b),  // lock: magenta
      QColor(0xe8, 0x7a, 0xb0),  // lock_all: pink
  };
  QColor message = QColor(0x20, 0x20, 0x20);
  QColor transfer = QColor(0x00, 0x00, 0xff);      // blue: not a region's or a pattern's colour
  QColor criticalPath = QColor(0x8b, 0x00, 0x00);  // dark red: apart from point-to-point red
  QColor highlight = QColor(0xff, 0xd7, 0x00);
  QColor origin = QColor(0x00, 0x66, 0xcc);  // t = 0 of stacked runs (their alignment point)

  QColor group(timeline::RegionGroup g) const { return groups[static_cast<std::size_t>(g)]; }
  QColor epoch(timeline::EpochKind k) const { return epochs[static_cast<std::size_t>(k)]; }
  static constexpr double kMinDistance = 20.0;
  static constexpr std::size_t kPatternColors = 12;
  static const std::array<QColor, kPatternColors> kPatternPalette;

  // The metrics that are drawn (a report's patterns with instances), in the
  // order they take the pattern colours; others keep the slot of their id.
  void setPatterns(const std::vector<std::uint32_t>& drawnMetrics);
  // The colour of pattern `metric`.
  QColor pattern(std::uint32_t metric) const {
    const std::size_t slot = metric < patternSlot_.size() ? patternSlot_[metric] : metric;
    return kPatternPalette[slot % kPatternColors];
  }

 private:
  std::vector<std::uint32_t> patternSlot_;  // per metric id
};

// Perceptual distance (CIE76 ΔE in CIELAB, D65) of two colours.
double colorDistance(const QColor& a, const QColor& b);

QString groupLabel(timeline::RegionGroup g);
QString epochLabel(timeline::EpochKind k);

}  // namespace waitscope::views
