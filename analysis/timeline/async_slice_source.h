#pragma once
// A slice source whose answers take time (another machine, over SSH): query()
// never waits. It answers from a small cache of slices: the exact slice when it
// has it, else the cached slice that best covers the request (a view draws it,
// at its own resolution, until the exact one arrives), and asks for the exact
// one. At most one fetch runs at a time; while it runs only the latest request
// waits behind it, so a burst of zoom and pan steps costs at most two fetches.
// A failed request is not retried until another request comes (no loop), and
// problem() says why it failed.
//
// Subclasses start the fetch (startFetch) and report its end with
// fetchFinished or fetchFailed, on the thread that calls query(); then the
// change callback runs (a view repaints and queries again).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/timeline/timeline_query.h"

namespace waitscope::timeline {

class AsyncSliceSource : public SliceSource {
 public:
  // The trace's time range and location count (known before the first slice
  // is drawn), the group of each report call path, how many slices to keep.
  AsyncSliceSource(double begin, double end, std::uint32_t locations, std::vector<RegionGroup> callPathGroups,
                   std::size_t cacheSlices = 8);

  double begin() const override { return begin_; }
  double end() const override { return end_; }
  std::uint32_t locationCount() const override { return locations_; }
  RegionGroup groupOf(std::uint32_t callPath) const override;
  SliceStatus query(const SliceRequest& request, Slice& out) override;
  std::string problem() const override { return problem_; }

  // Keeps an answer that arrived another way (the slice that told the time range).
  void remember(const SliceRequest& request, Slice slice);
  // Fetches started so far, and whether one runs now (tests, status lines).
  std::size_t fetchesStarted() const { return fetchesStarted_; }
  bool fetching() const { return inFlight_.has_value(); }

 protected:
  // Starts fetching `request`; its end is reported with `ticket`.
  virtual void startFetch(std::uint64_t ticket, const SliceRequest& request) = 0;
  void fetchFinished(std::uint64_t ticket, Slice slice);
  void fetchFailed(std::uint64_t ticket, std::string problem);

 private:
  struct Entry {
    SliceRequest request;
    Slice slice;
    std::uint64_t used = 0;
  };
  struct Pending {
    std::uint64_t ticket;
    SliceRequest request;
  };
  void request(const SliceRequest& request);
  void startNext();
  const Entry* best(const SliceRequest& request) const;
  void finish(std::uint64_t ticket);

  double begin_, end_;
  std::uint32_t locations_;
  std::vector<RegionGroup> groups_;
  std::size_t capacity_;
  std::vector<Entry> cache_;
  std::uint64_t clock_ = 0;
  std::uint64_t nextTicket_ = 1;
  std::optional<Pending> inFlight_;
  std::optional<SliceRequest> waiting_;
  std::optional<SliceRequest> failed_;
  std::string problem_;
  std::size_t fetchesStarted_ = 0;
};

// Whether two requests ask for the same slice.
bool sameRequest(const SliceRequest& a, const SliceRequest& b);

}  // namespace waitscope::timeline
