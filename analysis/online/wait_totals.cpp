#include "analysis/online/wait_totals.h"

namespace waitscope::online {

void WaitTotals::add(metrics::Metric metric, std::uint32_t rank, std::uint32_t node, double seconds) {
  add(MetricValue{static_cast<std::uint32_t>(metric), rank, node, 0, seconds});
}

void WaitTotals::add(const MetricValue& v) {
  if (v.value == 0.0) return;
  auto [it, added] = values_.try_emplace(key(v.metric, v.rank, v.node), v);
  if (!added) it->second.value += v.value;
}

std::vector<MetricValue> WaitTotals::take() {
  std::vector<MetricValue> out = values();
  values_.clear();
  return out;
}

std::vector<MetricValue> WaitTotals::values() const {
  std::vector<MetricValue> out;
  out.reserve(values_.size());
  for (const auto& [k, v] : values_) out.push_back(v);
  return out;
}

double WaitTotals::total(metrics::Metric metric) const {
  double sum = 0.0;
  for (const auto& [k, v] : values_)
    if (v.metric == static_cast<std::uint32_t>(metric)) sum += v.value;
  return sum;
}

}  // namespace waitscope::online
