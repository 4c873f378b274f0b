#pragma once
// What the timeline draws with, made once per report and colour change rather
// than per paint: the pens and brushes of every kind of item, and the names of
// call paths, locations and nodes laid out as static text
// (drawing them allocates nothing).
#include <cstddef>
#include <vector>

#include <QBrush>
#include <QFont>
#include <QPen>
#include <QStaticText>
#include <QString>

#include "analysis/report/report.h"
#include "views/timeline/raster_layer.h"
#include "views/timeline/timeline_colors.h"
#include "views/timeline/timeline_rows.h"

namespace waitscope::views {

struct TimelineStyle {
  // The names of `report`'s call paths (their region's), locations and row nodes.
  void setNames(const report::Report* report, const TimelineRows& rows);
  // Pens, brushes and laid-out texts for `colors` in `font`, for `metrics` patterns.
  void rebuild(const TimelineColors& colors, const QFont& font, std::size_t metrics);

  // Names (tooltips, exports) and their laid-out texts.
  std::vector<QString> callPathNames, locationNames, nodeNames;
  std::vector<QString> locationLabels;  // a child row's name without its parent's
  std::vector<QStaticText> callPathTexts;
  std::vector<int> callPathNameWidths;
  std::vector<QStaticText> locationTexts, nodeTexts;  // row labels
  double textHeight = 0.0;
  double textAscent = 0.0;

  // Regions and epochs.
  std::vector<QBrush> groupBrushes;
  std::vector<QBrush> epochBrushes;
  // Wait states: per metric, its pattern's outline (normal and highlighted) and hatch.
  std::vector<QPen> patternPens, patternStrongPens;
  std::vector<QBrush> patternBrushes;
  QPen paleInstancePen;  // instances outside the highlighted metric
  QBrush paleInstanceBrush;
  RasterLayer::Pattern hatch;  // the wait states' BDiagPattern, as QPainter tiles it
  // Lines, the critical path and the highlighted call path.
  QPen messagePen, transferPen, pathLinkPen, highlightPen;
  QPen originPen;  // the ruler's t = 0 when it is not the trace's
  QBrush pathBrush, highlightBrush;
  // Which layers have only opaque colours (what a raster layer may write).
  bool opaqueRegions = true, opaqueMarks = true, opaqueLines = true, opaquePath = true;
};

}  // namespace waitscope::views
