#pragma once
// The colour box beside each value, as in Cube: a share of the tree's largest
// value mapped from blue (small) over green and yellow to red (the maximum).
#include <QColor>

namespace waitscope::views {

// `share` in [0, 1]; values outside are clamped. Zero gives a neutral grey.
QColor severityColor(double share);

}  // namespace waitscope::views
