#include "views/model/number_format.h"

#include <algorithm>
#include <array>
#include <cmath>

#include <QLocale>

namespace waitscope::views {
namespace {

constexpr int kSignificantDigits = 3;

struct TimeUnit {
  double factor;
  const char* name;
};
// Largest first: the first unit in which the value reaches 1 is the one shown.
constexpr std::array<TimeUnit, 4> kTimeUnits{{{1.0, "s"}, {1e3, "ms"}, {1e6, "us"}, {1e9, "ns"}}};
// Binary multiples, largest first (IEC 80000-13 names).
constexpr std::array<TimeUnit, 5> kByteUnits{{{1125899906842624.0, "PiB"},
                                              {1099511627776.0, "TiB"},
                                              {1073741824.0, "GiB"},
                                              {1048576.0, "MiB"},
                                              {1024.0, "KiB"}}};

// Decimals that leave three significant digits of a number of this magnitude.
int decimalsFor(double magnitude) {
  if (magnitude == 0.0) return kSignificantDigits - 1;
  const int exponent = static_cast<int>(std::floor(std::log10(magnitude)));
  return std::max(0, kSignificantDigits - 1 - exponent);
}

// Rounds to three significant digits (std::round is away from zero: 999.5 -> 1000).
double roundSignificant(double value) {
  const double magnitude = std::fabs(value);
  if (magnitude == 0.0 || !std::isfinite(value)) return value;
  const double scale = std::pow(10.0, kSignificantDigits - 1 - static_cast<int>(std::floor(std::log10(magnitude))));
  return std::round(value * scale) / scale;
}

}  // namespace

QString formatSeconds(double seconds) {
  const QLocale locale;
  if (!std::isfinite(seconds)) return locale.toString(seconds) + QStringLiteral(" s");
  if (seconds == 0.0) return QStringLiteral("0");  // nothing to measure: no unit, as for counts
  if (std::fabs(seconds) >= 999.5)  // whole seconds: more digits than three, none lost to rounding
    return locale.toString(static_cast<qlonglong>(std::llround(seconds))) + QStringLiteral(" s");
  for (const TimeUnit& unit : kTimeUnits) {
    const double scaled = roundSignificant(seconds * unit.factor);
    if (std::fabs(scaled) >= 1.0 || unit.factor == kTimeUnits.back().factor)
      return locale.toString(scaled, 'f', decimalsFor(std::fabs(scaled))) + QLatin1Char(' ') +
             QLatin1String(unit.name);
  }
  return {};
}

QString formatCount(double count) {
  const QLocale locale;
  if (std::isfinite(count) && count == std::floor(count) && std::fabs(count) < 1e15)
    return locale.toString(static_cast<qlonglong>(count));
  if (std::fabs(count) >= 99.5) return locale.toString(static_cast<qlonglong>(std::llround(count)));
  const double rounded = roundSignificant(count);
  return locale.toString(rounded, 'f', decimalsFor(std::fabs(rounded)));
}

QString formatBytes(double bytes) {
  const QLocale locale;
  if (!std::isfinite(bytes)) return locale.toString(bytes) + QStringLiteral(" B");
  if (bytes == 0.0) return QStringLiteral("0");  // as for times and counts
  for (const TimeUnit& unit : kByteUnits) {
    if (std::fabs(bytes) < unit.factor) continue;
    const double scaled = roundSignificant(bytes / unit.factor);
    return locale.toString(scaled, 'f', decimalsFor(std::fabs(scaled))) + QLatin1Char(' ') + QLatin1String(unit.name);
  }
  return formatCount(bytes) + QStringLiteral(" B");
}

QString formatDecimal(double value, int decimals) { return QLocale().toString(value, 'f', decimals); }

QString formatQuantity(double value, report::MetricUnit unit) {
  switch (unit) {
    case report::MetricUnit::Seconds: return formatSeconds(value);
    case report::MetricUnit::Bytes: return formatBytes(value);
    case report::MetricUnit::Occurrences: break;
  }
  return formatCount(value);
}

TimeScale timeScaleFor(double largestMagnitude) {
  for (const TimeUnit& unit : kTimeUnits)
    if (largestMagnitude * unit.factor >= 1.0) return {unit.factor, QLatin1String(unit.name)};
  return largestMagnitude == 0.0 ? TimeScale{1.0, QStringLiteral("s")}
                                 : TimeScale{kTimeUnits.back().factor, QLatin1String(kTimeUnits.back().name)};
}

TimeScale byteScaleFor(double largestMagnitude) {
  for (const TimeUnit& unit : kByteUnits)
    if (largestMagnitude >= unit.factor) return {1.0 / unit.factor, QLatin1String(unit.name)};
  return {1.0, QStringLiteral("B")};
}

}  // namespace waitscope::views
