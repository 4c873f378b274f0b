#pragma once
// Wait-state seconds per (metric, application rank, call-path node): what places accumulate and
// send towards the root, and what the root turns into the report.
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "analysis/metrics/metric_table.h"
#include "analysis/online/online_event.h"

namespace waitscope::online {

class WaitTotals {
 public:
  void add(metrics::Metric metric, std::uint32_t rank, std::uint32_t node, double seconds);
  void add(const MetricValue& v);
  // Everything gathered, and empties the table (the next call returns only what came after).
  std::vector<MetricValue> take();
  std::vector<MetricValue> values() const;
  double total(metrics::Metric metric) const;
  bool empty() const { return values_.empty(); }

 private:
  static std::uint64_t key(std::uint32_t metric, std::uint32_t rank, std::uint32_t node) {
    return (static_cast<std::uint64_t>(metric) << 56) ^ (static_cast<std::uint64_t>(rank) << 32) ^ node;
  }
  std::unordered_map<std::uint64_t, MetricValue> values_;
};

}  // namespace waitscope::online
