#pragma once
// How every view writes a number: times with the unit that fits their magnitude
// (s, ms, us, ns; three significant digits), counts and bytes as whole numbers with
// thousands separators. Trees, chart axes, tooltips and the source margin use it,
// so one value reads the same everywhere.
#include <QString>

#include "analysis/report/report.h"

namespace waitscope::views {

// "1.71 us", "4.77 ms", "1.23 s", "-2.50 s", "0". Rounding happens before the unit is
// chosen, so 999.6 us reads "1.00 ms"; a thousand seconds and more read "1,234 s".
QString formatSeconds(double seconds);
// "31,554"; a fraction keeps three significant digits ("2.50", "0.125").
QString formatCount(double count);
// Seconds as above, occurrences and bytes as counts (their unit is named by the column or axis).
QString formatQuantity(double value, report::MetricUnit unit);

// A time unit for a whole axis: values are multiplied by `factor` and labelled `unit`.
struct TimeScale {
  double factor = 1.0;
  QString unit;  // "s", "ms", "us", "ns"
};
TimeScale timeScaleFor(double largestMagnitude);

}  // namespace waitscope::views
