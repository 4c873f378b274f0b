#include "views/model/value_mode.h"

#include <cmath>

#include <QLocale>

namespace waitscope::views {

QString modeName(ValueMode mode) {
  switch (mode) {
    case ValueMode::Absolute: return QStringLiteral("Absolute");
    case ValueMode::PercentOfTotal: return QStringLiteral("Percent of total");
    case ValueMode::PercentOfSelection: return QStringLiteral("Percent of selection");
    case ValueMode::PeerPercent: return QStringLiteral("Peer percent");
  }
  return {};
}

QString modeKey(ValueMode mode) {
  switch (mode) {
    case ValueMode::Absolute: return QStringLiteral("absolute");
    case ValueMode::PercentOfTotal: return QStringLiteral("percent");
    case ValueMode::PercentOfSelection: return QStringLiteral("selection");
    case ValueMode::PeerPercent: return QStringLiteral("peer");
  }
  return {};
}

bool modeFromKey(const QString& key, ValueMode* mode) {
  for (const ValueMode m : {ValueMode::Absolute, ValueMode::PercentOfTotal, ValueMode::PercentOfSelection,
                            ValueMode::PeerPercent}) {
    if (modeKey(m) == key) {
      *mode = m;
      return true;
    }
  }
  return false;
}

QString unitName(report::MetricUnit unit) {
  switch (unit) {
    case report::MetricUnit::Seconds: return QStringLiteral("s");
    case report::MetricUnit::Occurrences: return QStringLiteral("occ.");
    case report::MetricUnit::Bytes: return QStringLiteral("bytes");
  }
  return {};
}

QString formatValue(double value, ValueMode mode, report::MetricUnit unit) {
  const QLocale locale;
  if (mode != ValueMode::Absolute) return locale.toString(value, 'f', 2) + QStringLiteral(" %");
  if (unit != report::MetricUnit::Seconds && value == std::floor(value) && std::fabs(value) < 1e15)
    return locale.toString(static_cast<qlonglong>(value));
  const double magnitude = std::fabs(value);
  if (magnitude == 0.0) return QStringLiteral("0");
  // Seconds: millisecond resolution for long times, three significant digits for short ones.
  const QString number = magnitude >= 1.0 ? locale.toString(value, 'f', 3) : locale.toString(value, 'g', 3);
  return unit == report::MetricUnit::Seconds ? number + QStringLiteral(" s") : number;
}

}  // namespace waitscope::views
