#include "analysis/trace/trace.h"

namespace waitscope::trace {

std::array<std::uint64_t, kEventKindCount> Trace::countByKind() const {
  std::array<std::uint64_t, kEventKindCount> counts{};
  for (const LocationEvents& loc : locations)
    for (const Event& e : loc.events) ++counts[index(e.kind)];
  return counts;
}

std::uint64_t Trace::eventCount() const {
  std::uint64_t n = 0;
  for (const LocationEvents& loc : locations) n += loc.events.size() + loc.releasedEvents;
  return n;
}

std::size_t Trace::memoryBytes() const {
  std::size_t n = callTree.size() * sizeof(CallPath);
  for (const LocationEvents& loc : locations) n += loc.memoryBytes();
  for (const LocationEvents& loc : threadLocations) n += loc.memoryBytes();
  for (const LocationEvents& loc : otherParadigmRecords) n += loc.memoryBytes();
  return n;
}

}  // namespace waitscope::trace
