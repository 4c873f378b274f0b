#include "call_tree.h"

namespace waitscope::trace {

CallPathId CallTree::intern(CallPathId parent, RegionId region, SourceLocationId callSite) {
  const std::uint64_t k = key(parent, region, callSite);
  auto [first, last] = index_.equal_range(k);
  for (auto it = first; it != last; ++it) {
    const CallPath& p = paths_[it->second];
    if (p.parent == parent && p.region == region && p.callSite == callSite) return it->second;
  }
  const auto id = static_cast<CallPathId>(paths_.size());
  paths_.push_back({parent, region, callSite});
  index_.emplace(k, id);
  return id;
}

std::uint32_t CallTree::depth(CallPathId id) const {
  std::uint32_t d = 0;
  for (CallPathId p = paths_[id].parent; p != kNone; p = paths_[p].parent) ++d;
  return d;
}

}  // namespace waitscope::trace
