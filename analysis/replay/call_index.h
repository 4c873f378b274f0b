#pragma once
// For every communication event of a location, the innermost region instance
// around it (usually the MPI call that wrote it): its call path, enter and leave
// time. Built in one pass; region enter/leave events themselves map to none.
#include <cstdint>
#include <vector>

#include "trace/events.h"

namespace waitscope::replay {

struct Call {
  trace::CallPathId path = trace::kNone;
  double enter = 0.0;
  double leave = 0.0;
  std::uint32_t enterEvent = 0;   // index of its Enter event
  std::uint32_t leaveEvent = 0;   // index of its Leave event
};

class CallIndex {
 public:
  explicit CallIndex(const trace::LocationEvents& events);

  // The call around event `eventIndex`, or nullptr for enter/leave events and
  // events outside every region.
  const Call* callOf(std::size_t eventIndex) const {
    const std::uint32_t id = callOfEvent_[eventIndex];
    return id == trace::kNone ? nullptr : &calls_[id];
  }
  const std::vector<Call>& calls() const { return calls_; }

 private:
  std::vector<std::uint32_t> callOfEvent_;
  std::vector<Call> calls_;
};

}  // namespace waitscope::replay
