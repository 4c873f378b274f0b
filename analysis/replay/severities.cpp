#include "analysis/replay/severities.h"

#include <algorithm>

namespace waitscope::replay {

namespace {

std::size_t hashKey(std::uint64_t k) {
  k ^= k >> 31;
  k *= 0x9E3779B97F4A7C15ull;
  return static_cast<std::size_t>(k ^ (k >> 29));
}

}  // namespace

double& Severities::slot(std::uint64_t k) {
  if (2 * (used_ + 1) > slots_.size()) grow();
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t i = hashKey(k) & mask;; i = (i + 1) & mask) {
    Slot& s = slots_[i];
    if (s.key == k) return s.value;
    if (s.key == kEmptyKey) {
      s.key = k;
      ++used_;
      return s.value;
    }
  }
}

void Severities::grow() {
  std::vector<Slot> old(slots_.empty() ? 256 : 2 * slots_.size());
  old.swap(slots_);
  const std::size_t mask = slots_.size() - 1;
  for (const Slot& s : old) {
    if (s.key == kEmptyKey) continue;
    std::size_t i = hashKey(s.key) & mask;
    while (slots_[i].key != kEmptyKey) i = (i + 1) & mask;
    slots_[i] = s;
  }
}

void Severities::add(Metric metric, trace::CallPathId path, double value) {
  if (value == 0.0) return;
  for (Metric m = metric;;) {
    slot(key(m, path)) += value;
    const auto& def = metrics::definition(m);
    if (def.partOfParent || def.parent == metrics::kNoParent) break;
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
  out.reserve(used_);
  for (const Slot& s : slots_)
    if (s.key != kEmptyKey)
      out.push_back({static_cast<Metric>(s.key & 0xff), static_cast<trace::CallPathId>(s.key >> 8), s.value});
  std::sort(out.begin(), out.end(), [](const Entry& a, const Entry& b) {
    return a.path != b.path ? a.path < b.path : a.metric < b.metric;
  });
  return out;
}

}  // namespace waitscope::replay
