#pragma once
// How the browser shows a value, as in Cube: the value itself, or a share of a
// reference. Every tree uses the same mode (one source of truth: Selection).
#include <QString>

#include "analysis/report/report.h"

namespace waitscope::views {

enum class ValueMode {
  Absolute,            // seconds, occurrences or bytes
  PercentOfTotal,      // of the metric root's total ("time", "visits", ...) over the whole run
  PercentOfSelection,  // of what is selected in the tree to the left
  PeerPercent,         // of the largest value at the same depth of the same tree
};

QString modeName(ValueMode mode);                 // "Absolute", "Percent of total", ...
QString modeKey(ValueMode mode);                  // "absolute", "percent", "selection", "peer" (command line)
bool modeFromKey(const QString& key, ValueMode* mode);

// A value for display: "1.23 s", "4.77 ms", "12.50 %", "1,024" (formatQuantity when absolute).
QString formatValue(double value, ValueMode mode, report::MetricUnit unit);
QString unitName(report::MetricUnit unit);        // "s", "occ.", "bytes"

}  // namespace waitscope::views
