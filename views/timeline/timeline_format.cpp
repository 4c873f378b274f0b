#include "views/timeline/timeline_format.h"

#include <cmath>

namespace waitscope::views {

QString formatTime(double seconds) {
  const double a = std::fabs(seconds);
  if (a >= 1.0 || a == 0.0) return QStringLiteral("%1 s").arg(seconds, 0, 'g', 7);
  if (a >= 1e-3) return QStringLiteral("%1 ms").arg(seconds * 1e3, 0, 'g', 7);
  if (a >= 1e-6) return QStringLiteral("%1 µs").arg(seconds * 1e6, 0, 'g', 7);
  return QStringLiteral("%1 ns").arg(seconds * 1e9, 0, 'g', 7);
}

QString formatBytes(std::uint64_t bytes) { return QStringLiteral("%1 bytes").arg(bytes); }

}  // namespace waitscope::views
