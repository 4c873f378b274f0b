#include "analysis/timeline/region_merge.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace waitscope::timeline {

void RegionMerger::begin(std::vector<RegionSpan>* out, double origin, double pixel) {
  out_ = out;
  origin_ = origin;
  pixel_ = pixel;
  pending_ = false;
  weights_.clear();
}

std::int64_t RegionMerger::column(double t) const {
  if (!(pixel_ > 0.0)) return 0;
  const double c = std::floor((t - origin_) / pixel_);
  constexpr double kLimit = 4e18;
  return static_cast<std::int64_t>(std::clamp(c, -kLimit, kLimit));
}

void RegionMerger::add(double start, double end, std::uint32_t callPath, std::uint32_t merged) {
  if (!(end > start)) return;
  if (callPath == kNoId) {
    flushColumn();
    return;
  }
  if (end - start >= pixel_) {
    flushColumn();
    emit(start, end, callPath, merged);
    return;
  }
  const std::int64_t c = column(start);
  if (pending_ && (c != pendingColumn_ || start != columnEnd_)) flushColumn();
  if (!pending_) {
    pending_ = true;
    pendingColumn_ = c;
    columnStart_ = start;
    columnMerged_ = 0;
  }
  columnEnd_ = end;
  columnMerged_ += merged;
  for (auto& w : weights_) {
    if (w.first == callPath) {
      w.second += end - start;
      return;
    }
  }
  weights_.emplace_back(callPath, end - start);
}

void RegionMerger::flushColumn() {
  if (!pending_) return;
  pending_ = false;
  std::uint32_t dominant = weights_.front().first;
  double best = weights_.front().second;
  for (const auto& w : weights_)
    if (w.second > best) {
      best = w.second;
      dominant = w.first;
    }
  weights_.clear();
  emit(columnStart_, columnEnd_, dominant, columnMerged_);
}

void RegionMerger::emit(double start, double end, std::uint32_t callPath, std::uint32_t merged) {
  if (!out_->empty()) {
    RegionSpan& last = out_->back();
    if (last.callPath == callPath && last.end == start) {
      last.end = end;
      last.merged += merged;
      return;
    }
  }
  RegionSpan s;
  s.start = start;
  s.end = end;
  s.callPath = callPath;
  s.merged = merged;
  out_->push_back(s);
}

}  // namespace waitscope::timeline
