#include "views/model/value_mode.h"

#include "views/model/number_format.h"

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
  if (mode != ValueMode::Absolute) return formatDecimal(value, 2) + QStringLiteral(" %");
  return formatQuantity(value, unit);
}

}  // namespace waitscope::views
