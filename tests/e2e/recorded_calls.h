#pragma once
// The calls of one recorded location, as the end-to-end oracles (RecordedWaits,
// RecordedGatsWaits) read them: every enter/leave pair becomes a RecordedCall, and every other
// record is handed to the oracle together with the innermost call it sits in.
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "analysis/trace/trace.h"

namespace waitscope::test {

struct RecordedCall {
  std::string region;
  std::string path;  // region names from the root, joined by '/'
  std::uint32_t line = 0;
  double enter = 0.0, leave = 0.0;
  double duration() const { return leave - enter; }
};

// "main/MPI_Recv": the region names along the call path.
inline std::string callPathString(const trace::Trace& t, trace::CallPathId id) {
  std::vector<std::string> names;
  for (trace::CallPathId c = id; c != trace::kNone && names.size() <= t.callTree.size(); c = t.callTree[c].parent)
    names.push_back(t.defs->regions[t.callTree[c].region].name);
  std::string out;
  for (auto it = names.rbegin(); it != names.rend(); ++it) out += (out.empty() ? "" : "/") + *it;
  return out;
}

inline std::uint32_t callSiteLine(const trace::Trace& t, trace::CallPathId id) {
  const trace::SourceLocationId site = t.callTree[id].callSite;
  return site < t.defs->sourceLocations.size() ? t.defs->sourceLocations[site].line : 0;
}

// Appends the calls of `loc` to `calls` and calls onRecord(event, index of the innermost open
// call) for every record that is neither an enter nor a leave and lies inside a call.
template <class OnRecord>
void walkCalls(const trace::Trace& t, const trace::LocationEvents& loc, std::vector<RecordedCall>& calls,
               OnRecord&& onRecord) {
  std::vector<std::size_t> open;
  for (const trace::Event& e : loc.events) {
    if (e.kind == trace::EventKind::Enter) {
      RecordedCall c;
      c.region = t.defs->regions[t.callTree[e.ref].region].name;
      c.path = callPathString(t, e.ref);
      c.line = callSiteLine(t, e.ref);
      c.enter = e.time;
      open.push_back(calls.size());
      calls.push_back(std::move(c));
    } else if (e.kind == trace::EventKind::Leave) {
      if (!open.empty()) {
        calls[open.back()].leave = e.time;
        open.pop_back();
      }
    } else if (!open.empty()) {
      onRecord(e, open.back());
    }
  }
}

}  // namespace waitscope::test
