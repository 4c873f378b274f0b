#pragma once
// The merge rule of the timeline (docs/timeline.md): a region interval at
// least one pixel wide is kept as it is; consecutive shorter ones are collected
// per pixel column (the column of their start) and become one span from the
// first one's start to the last one's end, coloured by the call path that holds
// most of their time (ties: the first seen). Adjacent spans of the same call
// path are joined. Used by the slice query (pixel = window / width) and to
// build the index's coarser levels (pixel = the level's resolution).
#include <cstdint>
#include <utility>
#include <vector>

#include "analysis/timeline/timeline_types.h"

namespace waitscope::timeline {

class RegionMerger {
 public:
  // Starts a new sequence into `out` (appended to); columns are counted from `origin`.
  void begin(std::vector<RegionSpan>* out, double origin, double pixel);
  // The next interval in time order; callPath kNoId is a gap (nothing drawn).
  void add(double start, double end, std::uint32_t callPath, std::uint32_t merged);
  void finish() { flushColumn(); }

 private:
  void flushColumn();
  void emit(double start, double end, std::uint32_t callPath, std::uint32_t merged);
  std::int64_t column(double t) const;

  std::vector<RegionSpan>* out_ = nullptr;
  double origin_ = 0.0;
  double pixel_ = 0.0;
  bool pending_ = false;
  std::int64_t pendingColumn_ = 0;
  double columnStart_ = 0.0;
  double columnEnd_ = 0.0;
  std::uint32_t columnMerged_ = 0;
  std::vector<std::pair<std::uint32_t, double>> weights_;  // call path -> time in the column (reused)
};

}  // namespace waitscope::timeline
