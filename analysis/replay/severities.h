#pragma once
// What the analysis of one location produces: metric values per local call
// path, and the wait-state instances. Values are inclusive along the metric
// tree (a Late Sender value is also part of point-to-point time); the report
// stores them exclusive.
#include <cstdint>
#include <vector>

#include "analysis/metrics/metric_table.h"
#include "analysis/trace/chunked_vector.h"
#include "analysis/trace/ids.h"

namespace waitscope::replay {

using metrics::Metric;

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
  // In fixed chunks, not a doubling array: on message-heavy traces they are the largest thing
  // the forward replay adds, and a doubling array's slack and copy set its peak.
  using Instances = trace::ChunkedVector<WaitInstance>;
  const Instances& instances() const { return instances_; }

 private:
  static std::uint64_t key(Metric metric, trace::CallPathId path) {
    return (static_cast<std::uint64_t>(path) << 8) | static_cast<std::uint64_t>(metric);
  }
  double& slot(std::uint64_t key);
  void grow();
  // Open addressing with linear probing over a power-of-two table, at most half
  // full (kEmptyKey marks a free slot): add() runs for every visit, message and
  // wait state, and a node-based map allocated and chased pointers there.
  static constexpr std::uint64_t kEmptyKey = ~std::uint64_t{0};
  struct Slot {
    std::uint64_t key = kEmptyKey;
    double value = 0.0;
  };
  std::vector<Slot> slots_;
  std::size_t used_ = 0;
  Instances instances_;
};

}  // namespace waitscope::replay
