#pragma once
// How every view writes a number: times with the unit that fits their magnitude
// (s, ms, us, ns; three significant digits), bytes in binary multiples (B, KiB, MiB, ...),
// counts as whole numbers with thousands separators. Trees, chart axes, tooltips and the source margin use it,
// so one value reads the same everywhere.
#include <QString>

#include "analysis/report/report.h"

namespace waitscope::views {

// "1.71 us", "4.77 ms", "1.23 s", "-2.50 s", "0". Rounding happens before the unit is
// chosen, so 999.6 us reads "1.00 ms"; a thousand seconds and more read "1,234 s".
QString formatSeconds(double seconds);
// "31,554"; a fraction keeps three significant digits ("2.50", "0.125").
QString formatCount(double count);
// "320 B", "1,000 B", "1.50 KiB", "12.3 MiB": whole bytes below 1 KiB, then three significant
// digits of the largest binary multiple the value reaches (KiB, MiB, GiB, TiB, PiB).
QString formatBytes(double bytes);
// A ratio or percentage with fixed decimals in the locale: "12.50", "1,234.5".
QString formatDecimal(double value, int decimals);
// Seconds and bytes as above, with their unit; occurrences as counts (the column or axis names them).
QString formatQuantity(double value, report::MetricUnit unit);

// A time unit for a whole axis: values are multiplied by `factor` and labelled `unit`.
struct TimeScale {
  double factor = 1.0;
  QString unit;  // "s", "ms", "us", "ns"
};
TimeScale timeScaleFor(double largestMagnitude);
// The same for bytes: the binary multiple the largest value reaches ("B", "KiB", "MiB", ...).
TimeScale byteScaleFor(double largestMagnitude);

}  // namespace waitscope::views
