#pragma once
// The slice query: for a time window, a set of locations and a width in
// pixels, what each location draws (docs/timeline.md has the merge rules).
#include <functional>
#include <string>

#include "analysis/timeline/timeline_index.h"
#include "analysis/timeline/timeline_slice.h"

namespace waitscope::timeline {

// Fills `out` (reusing its storage). Requested locations outside the index are
// skipped; a window with to <= from or width 0 gives empty location slices.
void querySlice(const TimelineIndex& index, const SliceRequest& request, Slice& out);

// What a query answered (SliceSource::query).
enum class SliceStatus : std::uint8_t {
  Exact,    // `out` is the slice of the request
  Nearest,  // an asynchronous source's best slice so far (another window, width or rows); the exact one is on its way
  Loading,  // nothing to show yet (`out` has no locations); the answer is on its way
  Failed,   // the request failed: `out` is the best slice so far (maybe empty), problem() says why
};

// What a view or the command line queries: the index in this process, or a
// remote `waitscope-report timeline` behind the same interface.
//
// query() never waits for anything slow: a local source answers at once
// (Exact); an asynchronous one (another machine) answers from what it has and
// asks for the rest, then calls the change callback (on the thread that
// queries) when an answer arrived, so a view repaints and queries again.
class SliceSource {
 public:
  virtual ~SliceSource() = default;
  virtual double begin() const = 0;
  virtual double end() const = 0;
  virtual std::uint32_t locationCount() const = 0;
  virtual RegionGroup groupOf(std::uint32_t callPath) const = 0;
  virtual SliceStatus query(const SliceRequest& request, Slice& out) = 0;
  // Why the last request failed (one line naming the host and what to do), or "".
  virtual std::string problem() const { return {}; }
  // Called when an answer arrived or a request failed (asynchronous sources only).
  void setChangeCallback(std::function<void()> callback) { changed_ = std::move(callback); }

 protected:
  void notifyChanged() {
    if (changed_) changed_();
  }

 private:
  std::function<void()> changed_;
};

class LocalSliceSource final : public SliceSource {
 public:
  explicit LocalSliceSource(TimelineIndex index) : index_(std::move(index)) {}
  double begin() const override { return index_.begin; }
  double end() const override { return index_.end; }
  std::uint32_t locationCount() const override { return static_cast<std::uint32_t>(index_.locations.size()); }
  RegionGroup groupOf(std::uint32_t callPath) const override { return index_.groupOf(callPath); }
  SliceStatus query(const SliceRequest& request, Slice& out) override {
    querySlice(index_, request, out);
    return SliceStatus::Exact;
  }
  const TimelineIndex& index() const { return index_; }

 private:
  TimelineIndex index_;
};

}  // namespace waitscope::timeline
