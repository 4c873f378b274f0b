#pragma once
// For every communication event of a location, the innermost region instance around it (usually
// the MPI call that wrote it): its call path, enter and leave time, built in one pass. Only the
// events other than enters and leaves are listed, with a coarse index per block of events, so a
// lookup searches a few cached entries and the pattern passes walk a tenth or less of a trace.
// A call is stored as its enter and leave events (8 bytes), its path and times read from those
// events when it is handed out: they follow the clock correction with nothing to update.
// The same pass lists the MPI environment calls (MPI_Init, MPI_Init_thread, MPI_Finalize), which
// synchronize every location, and sums the time per call path (RegionTimes): no other pass reads
// every event.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <ranges>
#include <vector>

#include "analysis/trace/call_tree.h"
#include "analysis/trace/definitions.h"
#include "analysis/trace/events.h"

namespace waitscope::replay {

// Per call path, summed over the location's enter and leave events.
struct RegionTimes {
  std::vector<double> visits;
  std::vector<double> exclusive;  // duration minus the children's
  // The time the path is the innermost active region, summed stretch by stretch
  // between consecutive enter/leave events: the exclusive time again, added in
  // the order the critical path's imbalance needs it.
  std::vector<double> stretches;
};

// A call as the passes read it: a value, with the times of its events.
struct Call {
  trace::CallPathId path = trace::kNone;
  double enter = 0.0;
  double leave = 0.0;
  std::uint32_t enterEvent = 0;   // index of its Enter event
  std::uint32_t leaveEvent = 0;   // index of its Leave event
  bool operator==(const Call&) const = default;
};

class CallIndex {
 private:
  // What it stores per call; first, so that the members below can use it. Its path is its enter
  // event's.
  struct Record {
    std::uint32_t enterEvent;
    std::uint32_t leaveEvent;  // == enterEvent until the call is left
  };
  static_assert(sizeof(Record) == 8, "one per call with a communication event: keep it compact");
  Call timed(const Record& r) const {
    const trace::Event* const ev = locationEvents_->data();
    return {ev[r.enterEvent].ref, ev[r.enterEvent].time, ev[r.leaveEvent].time, r.enterEvent, r.leaveEvent};
  }
  auto timedRange(const std::vector<Record>& records) const {
    return std::views::transform(records, [this](const Record& r) { return timed(r); });
  }

 public:
  CallIndex(const trace::LocationEvents& events, const trace::CallTree& tree, const trace::Definitions& defs);

  // After the times of `events` (the ones it was built over) changed but not their order: sums
  // the region times again, as building it again over them would, without allocating. The calls'
  // times need nothing: they are read from the events.
  void retime(const trace::LocationEvents& events, const trace::CallTree& tree);

  // Its index among the calls (callById), or kNone for enter/leave events and
  // events outside every region.
  std::uint32_t callIdOf(std::size_t eventIndex) const {
    const std::size_t block = eventIndex >> kBlockBits;
    if (block + 1 >= blockStart_.size()) return trace::kNone;
    const auto first = events_.begin() + blockStart_[block];
    const auto last = events_.begin() + blockStart_[block + 1];
    const auto it = std::lower_bound(first, last, static_cast<std::uint32_t>(eventIndex));
    if (it == last || *it != eventIndex) return trace::kNone;
    return callOfEntry_[static_cast<std::size_t>(it - events_.begin())];
  }
  // The call around event `eventIndex`, or none for enter/leave events and
  // events outside every region.
  std::optional<Call> callOf(std::size_t eventIndex) const { return callById(callIdOf(eventIndex)); }
  // Every event that is not a region enter or leave, in event order: their indices, and the event
  // of an entry. The passes walk them in order, so they read the location's events front to back
  // with gaps, which costs no more than a copy of these events would have (a fifth of the index).
  const std::vector<std::uint32_t>& nonRegionEvents() const { return events_; }
  const trace::Event& nonRegionEvent(std::size_t entry) const { return (*locationEvents_)[events_[entry]]; }
  // The call around nonRegionEvents()[entry], or none outside every region.
  std::optional<Call> callOfEntry(std::size_t entry) const { return callById(callOfEntry_[entry]); }
  // Its id (callById), or kNone: what a pass keeps to come back to a call
  // without searching for it again.
  std::uint32_t callIdOfEntry(std::size_t entry) const { return callOfEntry_[entry]; }
  std::optional<Call> callById(std::uint32_t id) const {
    if (id == trace::kNone) return std::nullopt;
    return timed(calls_[id]);
  }
  // Ids run from 0 to callCount() - 1.
  std::size_t callCount() const { return calls_.size(); }
  // MPI_Init / MPI_Init_thread calls and MPI_Finalize calls, each in event
  // order, as ranges of Call; a call the trace never leaves has leaveEvent == enterEvent.
  auto initCalls() const { return timedRange(initCalls_); }
  auto finalizeCalls() const { return timedRange(finalizeCalls_); }
  static bool left(const Call& call) { return call.leaveEvent != call.enterEvent; }
  // The time metrics' sums, from the same pass: it is the only one that reads
  // every enter and leave, so the time metrics need not read them again.
  const RegionTimes& regionTimes() const { return times_; }

 private:
  static constexpr unsigned kBlockBits = 10;
  std::vector<std::uint32_t> events_;       // the events that are not an enter or leave, in order
  const std::vector<trace::Event>* locationEvents_;  // the events it was built over
  std::vector<std::uint32_t> callOfEntry_;  // parallel to events_; kNone outside every region
  std::vector<std::uint32_t> blockStart_;   // per 1024 events, its first entry in events_; one more at the end
  std::vector<Record> calls_;
  std::vector<Record> initCalls_;
  std::vector<Record> finalizeCalls_;
  RegionTimes times_;
};

}  // namespace waitscope::replay
