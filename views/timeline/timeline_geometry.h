#pragma once
// Where things are in the timeline widget: the label column, the ruler and the
// legend around the plot, the bands inside a location row, and the pixel
// grid that items are snapped to.
#include <algorithm>
#include <cmath>

namespace waitscope::views {

constexpr int kLabelWidth = 130;   // row labels, left of the plot
constexpr int kRulerHeight = 24;   // time ruler, above the plot
constexpr int kLegendHeight = 22;  // legend strip, below the plot
// Inside a location row (TimelineRows::kLocationHeight = 22 px):
constexpr int kBandTop = 2;  // region band
constexpr int kBandHeight = 12;
constexpr int kEpochTop = 15;  // epoch band under it
constexpr int kEpochHeight = 5;

// The pixel column of x, clamped so far-away items stay within int range.
inline int pixelOf(double x) { return static_cast<int>(std::floor(std::clamp(x, -1e6, 1e6))); }

// A quarter-pixel grid shifted by an eighth: hatch and outline edges (at
// +-0, 0.75 or 1.5 from it) then never pass near a pixel centre, where the
// layer would leave them to QPainter (raster_layer.h); invisible otherwise.
inline double offGrid(double x) { return std::floor(std::clamp(x, -1e6, 1e6) * 4.0) / 4.0 + 0.125; }

}  // namespace waitscope::views
