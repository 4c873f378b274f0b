#include "analysis/timeline/async_slice_source.h"

#include <algorithm>

namespace waitscope::timeline {

namespace {

void copySlice(const Slice& from, Slice& to) {
  to.from = from.from;
  to.to = from.to;
  to.width = from.width;
  to.locations.resize(from.locations.size());
  for (std::size_t i = 0; i < from.locations.size(); ++i) to.locations[i] = from.locations[i];  // keeps capacity
}

bool holds(const SliceRequest& r, std::uint32_t location) {
  return r.locations.empty() || std::find(r.locations.begin(), r.locations.end(), location) != r.locations.end();
}

}  // namespace

bool sameRequest(const SliceRequest& a, const SliceRequest& b) {
  return a.from == b.from && a.to == b.to && a.width == b.width && a.kinds == b.kinds && a.locations == b.locations;
}

AsyncSliceSource::AsyncSliceSource(double begin, double end, std::uint32_t locations,
                                   std::vector<RegionGroup> callPathGroups, std::size_t cacheSlices)
    : begin_(begin), end_(end), locations_(locations), groups_(std::move(callPathGroups)),
      capacity_(std::max<std::size_t>(cacheSlices, 1)) {}

RegionGroup AsyncSliceSource::groupOf(std::uint32_t callPath) const {
  return callPath < groups_.size() ? groups_[callPath] : RegionGroup::MpiOther;
}

SliceStatus AsyncSliceSource::query(const SliceRequest& r, Slice& out) {
  const bool failedBefore = failed_ && sameRequest(*failed_, r);
  if (!failedBefore) request(r);  // a subclass may answer at once: look in the cache after
  for (Entry& e : cache_)
    if (sameRequest(e.request, r)) {
      e.used = ++clock_;
      copySlice(e.slice, out);
      return SliceStatus::Exact;
    }
  const Entry* b = best(r);
  if (b) {
    copySlice(b->slice, out);
  } else {
    out.from = r.from;
    out.to = r.to;
    out.width = r.width;
    out.locations.clear();
  }
  if (failed_ && sameRequest(*failed_, r)) return SliceStatus::Failed;
  return b ? SliceStatus::Nearest : SliceStatus::Loading;
}

void AsyncSliceSource::request(const SliceRequest& r) {
  for (const Entry& e : cache_)
    if (sameRequest(e.request, r)) return;
  if (inFlight_ && sameRequest(inFlight_->request, r)) return;
  if (inFlight_) {
    waiting_ = r;  // replaces an older waiting request: only the latest matters
    return;
  }
  waiting_ = r;
  startNext();
}

void AsyncSliceSource::startNext() {
  if (inFlight_ || !waiting_) return;
  SliceRequest next = std::move(*waiting_);
  waiting_.reset();
  for (const Entry& e : cache_)
    if (sameRequest(e.request, next)) return;
  const std::uint64_t ticket = nextTicket_++;
  inFlight_ = Pending{ticket, std::move(next)};
  ++fetchesStarted_;
  startFetch(ticket, inFlight_->request);
}

const AsyncSliceSource::Entry* AsyncSliceSource::best(const SliceRequest& r) const {
  const double span = r.to - r.from;
  if (!(span > 0) || r.width == 0) return nullptr;
  const double pixel = span / r.width;
  const Entry* best = nullptr;
  double bestScore = 0;
  for (const Entry& e : cache_) {
    const double overlap = std::min(r.to, e.request.to) - std::max(r.from, e.request.from);
    if (!(overlap > 0) || e.request.width == 0) continue;
    std::size_t wanted = 0, present = 0;
    if (r.locations.empty()) {
      wanted = locations_;
      present = e.request.locations.empty() ? locations_ : e.request.locations.size();
    } else {
      wanted = r.locations.size();
      for (std::uint32_t l : r.locations) present += holds(e.request, l) ? 1 : 0;
    }
    if (present == 0) continue;
    const double coarser = ((e.request.to - e.request.from) / e.request.width) / pixel;
    const double score = overlap / span * double(present) / double(std::max<std::size_t>(wanted, 1)) /
                         std::max(1.0, coarser);
    if (score > bestScore || (score == bestScore && best && e.used > best->used)) {
      bestScore = score;
      best = &e;
    }
  }
  return best;
}

void AsyncSliceSource::remember(const SliceRequest& r, Slice slice) {
  for (Entry& e : cache_)
    if (sameRequest(e.request, r)) {
      e.slice = std::move(slice);
      e.used = ++clock_;
      return;
    }
  if (cache_.size() >= capacity_) {
    auto oldest = std::min_element(cache_.begin(), cache_.end(),
                                   [](const Entry& a, const Entry& b) { return a.used < b.used; });
    cache_.erase(oldest);
  }
  cache_.push_back({r, std::move(slice), ++clock_});
}

void AsyncSliceSource::fetchFinished(std::uint64_t ticket, Slice slice) {
  if (!inFlight_ || inFlight_->ticket != ticket) return;  // not ours (a source that was reset)
  remember(inFlight_->request, std::move(slice));
  failed_.reset();
  problem_.clear();
  finish(ticket);
}

void AsyncSliceSource::fetchFailed(std::uint64_t ticket, std::string problem) {
  if (!inFlight_ || inFlight_->ticket != ticket) return;
  failed_ = inFlight_->request;
  problem_ = std::move(problem);
  if (waiting_ && sameRequest(*waiting_, *failed_)) waiting_.reset();
  finish(ticket);
}

void AsyncSliceSource::finish(std::uint64_t) {
  inFlight_.reset();
  startNext();
  notifyChanged();
}

}  // namespace waitscope::timeline
