#include "views/timeline/timeline_colors.h"

#include <algorithm>
#include <cmath>

#include <QCoreApplication>

namespace waitscope::views {

// Picked greedily from an sRGB grid (lightness 30-75, chroma at least 30), each
// the farthest from the region, epoch, message, transfer and critical-path
// colours and the patterns before it (every pair at least 34 apart).
const std::array<QColor, TimelineColors::kPatternColors> TimelineColors::kPatternPalette = {
    QColor(0xff, 0x00, 0xff), QColor(0x00, 0xd2, 0x00), QColor(0x00, 0x5a, 0x00), QColor(0x78, 0x5a, 0x1e),
    QColor(0x1e, 0xd2, 0x78), QColor(0xff, 0x1e, 0xb4), QColor(0x78, 0x00, 0xc3), QColor(0xff, 0x96, 0x87),
    QColor(0x78, 0x3c, 0x5a), QColor(0x87, 0x00, 0x78), QColor(0xd2, 0xb4, 0x69), QColor(0x00, 0x96, 0xff),
};

void TimelineColors::setPatterns(const std::vector<std::uint32_t>& drawnMetrics) {
  std::uint32_t n = 0;
  for (std::uint32_t m : drawnMetrics) n = std::max(n, m + 1);
  patternSlot_.resize(n);
  for (std::uint32_t m = 0; m < n; ++m) patternSlot_[m] = m;
  for (std::size_t i = 0; i < drawnMetrics.size(); ++i) patternSlot_[drawnMetrics[i]] = static_cast<std::uint32_t>(i);
}

double colorDistance(const QColor& a, const QColor& b) {
  const auto lab = [](const QColor& c, double out[3]) {
    const auto linear = [](double u) { return u > 0.04045 ? std::pow((u + 0.055) / 1.055, 2.4) : u / 12.92; };
    const double r = linear(c.redF()), g = linear(c.greenF()), bl = linear(c.blueF());
    const double x = (0.4124 * r + 0.3576 * g + 0.1805 * bl) / 0.95047;
    const double y = 0.2126 * r + 0.7152 * g + 0.0722 * bl;
    const double z = (0.0193 * r + 0.1192 * g + 0.9505 * bl) / 1.08883;
    const auto f = [](double t) { return t > 0.008856 ? std::cbrt(t) : 7.787 * t + 16.0 / 116.0; };
    out[0] = 116.0 * f(y) - 16.0;
    out[1] = 500.0 * (f(x) - f(y));
    out[2] = 200.0 * (f(y) - f(z));
  };
  double la[3], lb[3];
  lab(a, la);
  lab(b, lb);
  return std::sqrt((la[0] - lb[0]) * (la[0] - lb[0]) + (la[1] - lb[1]) * (la[1] - lb[1]) + (la[2] - lb[2]) * (la[2] - lb[2]));
}

QString groupLabel(timeline::RegionGroup g) {
  switch (g) {
    case timeline::RegionGroup::UserCode: return QCoreApplication::translate("Timeline", "User code");
    case timeline::RegionGroup::MpiPointToPoint: return QCoreApplication::translate("Timeline", "MPI point-to-point");
    case timeline::RegionGroup::MpiCollective: return QCoreApplication::translate("Timeline", "MPI collective");
    case timeline::RegionGroup::RmaSynchronization: return QCoreApplication::translate("Timeline", "RMA synchronization");
    case timeline::RegionGroup::RmaCommunication: return QCoreApplication::translate("Timeline", "RMA communication");
    case timeline::RegionGroup::MpiOther: return QCoreApplication::translate("Timeline", "Other MPI");
  }
  return {};
}

QString epochLabel(timeline::EpochKind k) {
  switch (k) {
    case timeline::EpochKind::Fence: return QCoreApplication::translate("Timeline", "fence epoch");
    case timeline::EpochKind::Access: return QCoreApplication::translate("Timeline", "access epoch (GATS)");
    case timeline::EpochKind::Exposure: return QCoreApplication::translate("Timeline", "exposure epoch (GATS)");
    case timeline::EpochKind::Lock: return QCoreApplication::translate("Timeline", "lock epoch");
    case timeline::EpochKind::LockAll: return QCoreApplication::translate("Timeline", "lock-all epoch");
  }
  return {};
}

}  // namespace waitscope::views
