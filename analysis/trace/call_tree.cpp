#include "analysis/trace/call_tree.h"

#include <utility>

namespace waitscope::trace {

CallPathId CallTree::add(CallPathId parent, RegionId region, SourceLocationId callSite) {
  if (2 * (paths_.size() + 1) > slots_.size()) grow();
  const std::size_t mask = slots_.size() - 1;
  std::size_t i = hash(parent, region, callSite) & mask;
  while (slots_[i] != kNone) i = (i + 1) & mask;
  const auto id = static_cast<CallPathId>(paths_.size());
  paths_.push_back({parent, region, callSite});
  slots_[i] = id;
  return id;
}

void CallTree::grow() {
  std::vector<CallPathId> slots(slots_.empty() ? 64 : 2 * slots_.size(), kNone);
  const std::size_t mask = slots.size() - 1;
  for (CallPathId id = 0; id < paths_.size(); ++id) {
    const CallPath& p = paths_[id];
    std::size_t i = hash(p.parent, p.region, p.callSite) & mask;
    while (slots[i] != kNone) i = (i + 1) & mask;
    slots[i] = id;
  }
  slots_ = std::move(slots);
}

std::vector<std::uint32_t> CallTree::depths() const {
  std::vector<std::uint32_t> out(paths_.size(), 0);
  for (CallPathId p = 0; p < paths_.size(); ++p) {
    const CallPathId parent = paths_[p].parent;
    // Interning makes a parent before its children; anything else is walked.
    out[p] = parent == kNone ? 0 : parent < p ? out[parent] + 1 : depth(p);
  }
  return out;
}

std::uint32_t CallTree::depth(CallPathId id) const {
  std::uint32_t d = 0;
  for (CallPathId p = paths_[id].parent; p != kNone; p = paths_[p].parent) ++d;
  return d;
}

}  // namespace waitscope::trace
