#pragma once
// A timeline slice: what to draw of a time window at a width in pixels, per
// requested location. A Slice is meant to be reused: querying into it again
// keeps its vectors' capacity, so a view's repaint allocates nothing once warm.
#include <cstdint>
#include <vector>

#include "analysis/timeline/timeline_types.h"

namespace waitscope::timeline {

// Which kinds of items a slice holds (SliceRequest::kinds).
enum SliceKind : std::uint32_t {
  kSliceRegions = 1u << 0,
  kSliceMessages = 1u << 1,
  kSliceCollectives = 1u << 2,
  kSliceEpochs = 1u << 3,
  kSliceTransfers = 1u << 4,
  kSliceInstances = 1u << 5,
  kSlicePath = 1u << 6,
  kSliceAll = (1u << 7) - 1,
};

struct SliceRequest {
  double from = 0.0;
  double to = 0.0;
  std::uint32_t width = 1;                // pixels across [from, to]
  std::vector<std::uint32_t> locations;   // report location ids; empty = all
  std::uint32_t kinds = kSliceAll;        // SliceKind bits: what to fill (the rest stays empty)
};

struct LocationSlice {
  std::uint32_t location = kNoId;
  std::vector<RegionSpan> regions;
  std::vector<Message> messages;          // sent by this location, or received from one not requested
  std::vector<Collective> collectives;
  std::vector<Epoch> epochs;
  std::vector<Transfer> transfers;        // from this location, or to it from one not requested
  std::vector<InstanceMark> instances;
  std::vector<PathMark> path;

  void clear() {
    regions.clear();
    messages.clear();
    collectives.clear();
    epochs.clear();
    transfers.clear();
    instances.clear();
    path.clear();
  }
  std::size_t itemCount() const {
    return regions.size() + messages.size() + collectives.size() + epochs.size() + transfers.size() +
           instances.size() + path.size();
  }
};

struct Slice {
  double from = 0.0;
  double to = 0.0;
  std::uint32_t width = 0;
  std::vector<LocationSlice> locations;   // in request order
  std::size_t itemCount() const {
    std::size_t n = 0;
    for (const LocationSlice& l : locations) n += l.itemCount();
    return n;
  }
};

}  // namespace waitscope::timeline
