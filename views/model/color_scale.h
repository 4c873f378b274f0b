#pragma once
// The colour box beside each value, as in Cube: a share of the tree's largest
// value mapped from blue (small) over green and yellow to red (the maximum).
#include <QColor>

namespace waitscope::views {

// `share` in [0, 1]; values outside are clamped. Zero gives a neutral grey.
QColor severityColor(double share);

// The colour box of a difference B − A, diverging from a neutral grey at zero: blue where B
// is smaller (less time: better), red where B is larger (worse), stronger with the size of
// `signedShare` in [-1, 1] (a share of the largest difference; values outside are clamped).
QColor differenceColor(double signedShare);

}  // namespace waitscope::views
