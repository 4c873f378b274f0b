#pragma once
// Where things are in the timeline widget: the label column, the ruler and the
// legend around the plot, and the pixel grid that items are snapped to (the
// bands inside a location row scale with its height: RowBands in timeline_rows.h).
#include <algorithm>
#include <cmath>

namespace waitscope::views {

constexpr int kLabelWidth = 130;   // row labels, left of the plot
constexpr int kRulerHeight = 24;   // time ruler, above the plot
constexpr int kLegendHeight = 22;  // one line of the legend, below the plot (it wraps to more)

// The pixel column of x, clamped so far-away items stay within int range.
inline int pixelOf(double x) { return static_cast<int>(std::floor(std::clamp(x, -1e6, 1e6))); }

// A quarter-pixel grid shifted by an eighth: hatch and outline edges (at
// +-0, 0.75 or 1.5 from it) then never pass near a pixel centre, where the
// layer would leave them to QPainter (raster_layer.h); invisible otherwise.
inline double offGrid(double x) { return std::floor(std::clamp(x, -1e6, 1e6) * 4.0) / 4.0 + 0.125; }

}  // namespace waitscope::views
