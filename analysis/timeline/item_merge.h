#pragma once
// How the timeline thins items that crowd one pixel (docs/timeline.md): an item
// joins an earlier one of the same key that starts in the same pixel column
// (looking back over the few items of that column), the joined item ending at
// the later end and counting both. Critical-path marks on one row join when the
// gap between them is under a pixel. Used by the slice query (pixel = window /
// width) and to build the index's coarser levels (pixel = the level's resolution).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "analysis/timeline/timeline_types.h"

namespace waitscope::timeline {

struct PixelGrid {
  double origin = 0.0;
  double pixel = 1.0;
  std::int64_t column(double t) const {
    const double c = std::floor((t - origin) / pixel);
    return static_cast<std::int64_t>(std::clamp(c, -4e18, 4e18));
  }
};

inline bool sameKey(const Message& a, const Message& b) { return a.sender == b.sender && a.receiver == b.receiver; }
inline bool sameKey(const Collective& a, const Collective& b) { return a.comm == b.comm && a.op == b.op; }
inline bool sameKey(const Epoch& a, const Epoch& b) {
  return a.kind == b.kind && a.window == b.window && a.peer == b.peer;
}
inline bool sameKey(const Transfer& a, const Transfer& b) {
  return a.origin == b.origin && a.target == b.target && a.kind == b.kind && a.window == b.window;
}
inline bool sameKey(const InstanceMark& a, const InstanceMark& b) {
  return a.metric == b.metric && a.callPath == b.callPath;
}

inline void absorb(Message& a, const Message& b) {
  a.end = std::max(a.end, b.end);
  a.count += b.count;
  a.bytes += b.bytes;
}
inline void absorb(Collective& a, const Collective& b) {
  a.end = std::max(a.end, b.end);
  a.count += b.count;
  a.bytes += b.bytes;
}
inline void absorb(Epoch& a, const Epoch& b) { a.end = std::max(a.end, b.end); }
inline void absorb(Transfer& a, const Transfer& b) {
  a.end = std::max(a.end, b.end);
  a.count += b.count;
  a.bytes += b.bytes;
}
inline void absorb(InstanceMark& a, const InstanceMark& b) {
  a.end = std::max(a.end, b.end);
  a.count += b.count;
}

// How many items of one pixel column an item is compared with.
inline constexpr int kMergeLookBack = 16;

// Spans that stand for time on one row (epochs, instances, collectives): one
// narrower than a pixel also joins the previous one of its key when the gap
// between them is under a pixel, so a run of them becomes one band.
template <class T>
constexpr bool kJoinsAcrossColumns = false;
template <>
inline constexpr bool kJoinsAcrossColumns<Epoch> = true;
template <>
inline constexpr bool kJoinsAcrossColumns<InstanceMark> = true;
template <>
inline constexpr bool kJoinsAcrossColumns<Collective> = true;

// Epochs of one key whose seam (gap or overlap, as consecutive fence epochs
// share their fence) is under a pixel join whatever their width: the seam
// cannot be seen anyway.
template <class T>
constexpr bool kJoinsWhenSeamHidden = false;
template <>
inline constexpr bool kJoinsWhenSeamHidden<Epoch> = true;

template <class T>
void appendMerged(std::vector<T>& out, const T& item, const PixelGrid& grid) {
  if constexpr (kJoinsAcrossColumns<T>) {
    int looked = 0;
    for (auto it = out.rbegin(); it != out.rend() && looked < kMergeLookBack; ++it, ++looked) {
      if (!sameKey(*it, item)) continue;
      const double gap = item.start - it->end;  // negative: they overlap (epochs sharing a fence)
      const bool narrow = item.end - item.start < grid.pixel || it->end - it->start < grid.pixel;
      if ((gap < grid.pixel && narrow) || (kJoinsWhenSeamHidden<T> && std::abs(gap) < grid.pixel)) {
        absorb(*it, item);
        return;
      }
      break;
    }
  }
  const std::int64_t column = grid.column(item.start);
  int looked = 0;
  for (auto it = out.rbegin(); it != out.rend() && looked < kMergeLookBack; ++it, ++looked) {
    if (grid.column(it->start) != column) break;
    if (sameKey(*it, item)) {
      absorb(*it, item);
      return;
    }
  }
  out.push_back(item);
}

inline void appendMerged(std::vector<PathMark>& out, const PathMark& item, const PixelGrid& grid) {
  if (!out.empty() && item.start - out.back().end < grid.pixel) {
    if (item.end >= out.back().end) out.back().callPath = item.callPath;  // a mark names the call path at its end
    out.back().end = std::max(out.back().end, item.end);
    return;
  }
  out.push_back(item);
}

}  // namespace waitscope::timeline
