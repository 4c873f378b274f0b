#pragma once
// What the analysis of one location produces: metric values per local call
// path, and the wait-state instances. Values are inclusive along the metric
// tree (a Late Sender value is also part of point-to-point time); the report
// stores them exclusive.
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "patterns/metric_table.h"
#include "trace/ids.h"

namespace waitscope::replay {

using patterns::Metric;

// One wait state on this location. `cause` is the world rank that caused it
// (trace::kNone when unknown).
struct WaitInstance {
  Metric metric;
  trace::CallPathId callPath;
  double start;
  double end;
  trace::Rank cause;
};

class Severities {
 public:
  // Adds `value` to `metric` on `path`; for a roll-up metric (partOfParent false)
  // also to its ancestors up to the first metric that already holds the value.
  void add(Metric metric, trace::CallPathId path, double value);
  // A time pattern: adds end - start to `metric` and keeps the instance.
  void addWait(Metric metric, trace::CallPathId path, double start, double end, trace::Rank cause);
  void addInstance(const WaitInstance& instance) { instances_.push_back(instance); }

  struct Entry {
    Metric metric;
    trace::CallPathId path;
    double value;
  };
  std::vector<Entry> entries() const;  // sorted by (path, metric)
  const std::vector<WaitInstance>& instances() const { return instances_; }

 private:
  static std::uint64_t key(Metric metric, trace::CallPathId path) {
    return (static_cast<std::uint64_t>(path) << 8) | static_cast<std::uint64_t>(metric);
  }
  std::unordered_map<std::uint64_t, double> values_;
  std::vector<WaitInstance> instances_;
};

}  // namespace waitscope::replay
