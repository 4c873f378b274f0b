#include "analysis/report/report.h"

namespace waitscope::report {

std::string Report::metaValue(const std::string& key, const std::string& fallback) const {
  for (const auto& [k, v] : meta)
    if (k == key) return v;
  return fallback;
}

std::uint32_t Report::findMetric(const std::string& uniqueName) const {
  for (std::uint32_t i = 0; i < metrics.size(); ++i)
    if (metrics[i].uniqueName == uniqueName) return i;
  return kNoId;
}

std::size_t Report::processCount() const {
  std::size_t n = 0;
  while (n < locations.size() && locations[n].kind == LocationKind::Process) ++n;
  return n;
}

}  // namespace waitscope::report
