#include "views/timeline/rank_ranges.h"

#include <algorithm>
#include <utility>

#include <QCoreApplication>
#include <QStringList>

namespace waitscope::views {

std::vector<char> hiddenOutsideRanks(const QString& ranges, const report::Report& report, QString* error) {
  std::vector<std::pair<unsigned, unsigned>> shown;
  const auto fail = [&](const QString& part) {
    if (error)
      *error = QCoreApplication::translate("Timeline", "\"%1\" is not a rank range: type ranks and ranges such as 0-3, 6").arg(part);
    return std::vector<char>();
  };
  for (const QString& raw : ranges.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
    const QString part = raw.trimmed();
    if (part.isEmpty()) continue;
    const QStringList ends = part.split(QLatin1Char('-'));
    if (ends.size() > 2) return fail(part);
    bool okFirst = false, okLast = true;
    const unsigned first = ends[0].trimmed().toUInt(&okFirst);
    const unsigned last = ends.size() == 2 ? ends[1].trimmed().toUInt(&okLast) : first;
    if (!okFirst || !okLast || last < first) return fail(part);
    shown.emplace_back(first, last);
  }
  if (shown.empty()) return fail(ranges.trimmed());
  std::vector<char> hidden(report.locations.size(), 1);
  for (std::size_t l = 0; l < report.locations.size(); ++l) {
    const unsigned rank = report.locations[l].rank;
    hidden[l] = std::none_of(shown.begin(), shown.end(), [&](const auto& r) { return rank >= r.first && rank <= r.second; });
  }
  if (error) error->clear();
  return hidden;
}

}  // namespace waitscope::views
