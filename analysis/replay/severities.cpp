#include "severities.h"

#include <algorithm>

namespace waitscope::replay {

void Severities::add(Metric metric, trace::CallPathId path, double value) {
  if (value == 0.0) return;
  for (Metric m = metric;;) {
    values_[key(m, path)] += value;
    const auto& def = patterns::definition(m);
    if (def.partOfParent || def.parent == patterns::kNoParent) break;
    m = def.parent;
  }
}

void Severities::addWait(Metric metric, trace::CallPathId path, double start, double end, trace::Rank cause) {
  if (!(end > start)) return;
  add(metric, path, end - start);
  instances_.push_back({metric, path, start, end, cause});
}

std::vector<Severities::Entry> Severities::entries() const {
  std::vector<Entry> out;
  out.reserve(values_.size());
  for (const auto& [k, v] : values_)
    out.push_back({static_cast<Metric>(k & 0xff), static_cast<trace::CallPathId>(k >> 8), v});
  std::sort(out.begin(), out.end(), [](const Entry& a, const Entry& b) {
    return a.path != b.path ? a.path < b.path : a.metric < b.metric;
  });
  return out;
}

}  // namespace waitscope::replay
