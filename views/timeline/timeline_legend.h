#pragma once
// The legend of everything the timeline draws: region groups, messages, RMA
// transfers, epoch kinds, one entry per wait-state pattern the report has
// instances of (in its own colour), and the critical path. Entries are made
// once per report and colour change (laid-out text, pens and brushes); the
// legend flows them into lines across the view's width, so it wraps instead
// of being clipped. Entries of a hidden layer are left out.
#include <cstdint>
#include <vector>

#include <QBrush>
#include <QFont>
#include <QPen>
#include <QStaticText>
#include <QString>

#include "analysis/report/report.h"
#include "views/timeline/timeline_colors.h"

namespace waitscope::views {

struct LegendEntry {
  // A filled (maybe outlined) square; a line (messages, transfers); none (a heading for the entries after it).
  enum class Swatch { Box, Line, None };
  Swatch swatch = Swatch::Box;
  QBrush brush;
  QPen pen{Qt::NoPen};
  QString label;
  QStaticText text;
  int textWidth = 0;
  std::uint32_t layer = 0;  // SliceKind bit it belongs to (0: always shown)
};

// The metrics `report` has wait-state instances of, in id order (the patterns drawn).
std::vector<std::uint32_t> patternsWithInstances(const report::Report& report);

class TimelineLegend {
 public:
  static constexpr int kSwatch = 12;     // swatch size
  static constexpr int kTextGap = 4;     // swatch to text
  static constexpr int kEntryGap = 12;   // text to the next swatch
  static constexpr int kMargin = 6;      // left and right

  // Entries for `report` (its patterns with instances) in `colors` and `font`.
  void rebuild(const report::Report* report, const TimelineColors& colors, const QFont& font);
  const std::vector<LegendEntry>& entries() const { return entries_; }
  // Lines the entries of the shown `layers` need across `width` (at least 1).
  int lines(int width, std::uint32_t layers) const;
  // Calls place(entry, x, line) for each shown entry, flowed across `width` (no allocation).
  template <typename Place>
  void flow(int width, std::uint32_t layers, Place&& place) const {
    int x = kMargin, line = 0;
    for (const LegendEntry& e : entries_) {
      if (e.layer != 0 && !(layers & e.layer)) continue;
      const int w = e.swatch == LegendEntry::Swatch::None ? e.textWidth : kSwatch + kTextGap + e.textWidth;
      if (x > kMargin && x + w > width - kMargin) {
        x = kMargin;
        ++line;
      }
      place(e, x, line);
      x += w + (e.swatch == LegendEntry::Swatch::None ? kTextGap : kEntryGap);
    }
  }

 private:
  std::vector<LegendEntry> entries_;
};

}  // namespace waitscope::views
