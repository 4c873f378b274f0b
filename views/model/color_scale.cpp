#include "views/model/color_scale.h"

#include <algorithm>
#include <cmath>

namespace waitscope::views {

QColor severityColor(double share) {
  if (!(share > 0.0)) return QColor(0xc8, 0xc8, 0xc8);
  share = std::min(share, 1.0);
  // Hue 240 (blue) for the smallest values down to 0 (red) for the maximum; full
  // saturation so the box reads the same on light and dark palettes.
  const int hue = static_cast<int>(std::lround(240.0 * (1.0 - share)));
  return QColor::fromHsv(hue, 200, 235);
}

QColor differenceColor(double signedShare) {
  if (signedShare == 0.0 || std::isnan(signedShare)) return QColor(0xc8, 0xc8, 0xc8);
  const double strength = std::min(std::fabs(signedShare), 1.0);
  // Saturation grows with the share; a small change stays pale, near the grey of zero.
  const int saturation = static_cast<int>(std::lround(40.0 + 200.0 * strength));
  return QColor::fromHsv(signedShare < 0.0 ? 215 : 0, saturation, 225);
}

}  // namespace waitscope::views
