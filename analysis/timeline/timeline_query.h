#pragma once
// The slice query: for a time window, a set of locations and a width in
// pixels, what each location draws (docs/timeline.md has the merge rules).
#include "timeline_index.h"
#include "timeline_slice.h"

namespace waitscope::timeline {

// Fills `out` (reusing its storage). Requested locations outside the index are
// skipped; a window with to <= from or width 0 gives empty location slices.
void querySlice(const TimelineIndex& index, const SliceRequest& request, Slice& out);

// What a view or the command line queries: the index in this process, or a
// remote `waitscope-report timeline` behind the same interface.
class SliceSource {
 public:
  virtual ~SliceSource() = default;
  virtual double begin() const = 0;
  virtual double end() const = 0;
  virtual std::uint32_t locationCount() const = 0;
  virtual RegionGroup groupOf(std::uint32_t callPath) const = 0;
  virtual void query(const SliceRequest& request, Slice& out) = 0;
};

class LocalSliceSource final : public SliceSource {
 public:
  explicit LocalSliceSource(TimelineIndex index) : index_(std::move(index)) {}
  double begin() const override { return index_.begin; }
  double end() const override { return index_.end; }
  std::uint32_t locationCount() const override { return static_cast<std::uint32_t>(index_.locations.size()); }
  RegionGroup groupOf(std::uint32_t callPath) const override { return index_.groupOf(callPath); }
  void query(const SliceRequest& request, Slice& out) override { querySlice(index_, request, out); }
  const TimelineIndex& index() const { return index_; }

 private:
  TimelineIndex index_;
};

}  // namespace waitscope::timeline
