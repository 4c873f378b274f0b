#pragma once
// The controlled logical clock of one location (Becker, Rabenseifner, Wolf, Linford, Parallel
// Computing 35(12), 2009), without communication: given lower bounds for the events where this
// location learns about another one (a receive completes, a collective or a synchronizing RMA
// call returns), it computes the corrected times of the events other locations learn about (a
// send's enter, a collective's enter, ...), and at the end the location's whole correction.
//
// Forward: an event is never earlier than recorded nor earlier than its bound; after a jump the
// clock runs at kClockRate until it meets the recorded clock again (trace/clock_correction.h).
// Backward amortization: the events between a jump and the last event before it that another
// location saw (or the previous jump) are stretched linearly into the jump. Those events saw no
// other location, so moving them later cannot break a happened-before relation, and the events
// others saw keep the times the forward clock gave them.
#include <cstdint>
#include <vector>

#include "analysis/trace/clock_correction.h"
#include "analysis/trace/events.h"

namespace waitscope::analyzer {

class ControlledLogicalClock {
 public:
  // `exported[k]`: event whose time other locations need (export slot k); `bounded[k]`: event
  // that gets bound slot k. Any order, repeats allowed; fewer than 2^31 of each.
  ControlledLogicalClock(const std::vector<trace::Event>& events, const std::vector<std::uint32_t>& exported,
                         const std::vector<std::uint32_t>& bounded);

  std::size_t exportCount() const { return exportCount_; }
  std::size_t boundCount() const { return boundCount_; }

  // The forward clock's time of every export slot, with `bounds` per bound slot (-inf: none).
  // Touches only the events in the lists: cheap enough to run once per exchange round.
  void forward(const std::vector<double>& bounds, std::vector<double>& exportedTimes) const;

  // The location's correction (anchors at the jumps, a ramp per jump) under `bounds`.
  trace::LocationClockCorrection correction(const std::vector<double>& bounds) const;

 private:
  // The recorded time is kept with the point, so that the passes read one array front to back
  // instead of reaching into the location's events.
  struct Point {
    double time;  // the event's recorded time
    std::uint32_t event;
    std::uint32_t slot;  // kBound set: a bound slot, else an export slot
  };
  static constexpr std::uint32_t kBound = 1u << 31;
  static void sortByEvent(std::vector<Point>& points);

  std::vector<Point> points_;  // by event; at one event the bounds first
  std::size_t exportCount_;
  std::size_t boundCount_;
};

}  // namespace waitscope::analyzer
