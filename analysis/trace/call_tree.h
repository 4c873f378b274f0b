#pragma once
// Call paths built from enter/leave nesting: a call path is (parent, region,
// call site). Interning keeps one id per distinct path; lookups on the reading
// hot path are a hash probe with no allocation once the path exists.
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "ids.h"

namespace waitscope::trace {

struct CallPath {
  CallPathId parent = kNone;
  RegionId region = kNone;
  SourceLocationId callSite = kNone;  // where the parent called this region, if recorded
};

class CallTree {
 public:
  CallPathId intern(CallPathId parent, RegionId region, SourceLocationId callSite = kNone);
  const CallPath& operator[](CallPathId id) const { return paths_[id]; }
  std::size_t size() const { return paths_.size(); }
  const std::vector<CallPath>& paths() const { return paths_; }
  std::uint32_t depth(CallPathId id) const;

 private:
  static std::uint64_t key(CallPathId parent, RegionId region, SourceLocationId callSite) {
    // Regions and call sites each fit 24 bits in any real trace; parent takes 32 (+1 for kNone).
    return (static_cast<std::uint64_t>(parent + 1) << 32) ^ (static_cast<std::uint64_t>(region) << 8) ^
           (static_cast<std::uint64_t>(callSite + 1) * 0x9E3779B97F4A7C15ull);
  }
  std::vector<CallPath> paths_;
  std::unordered_multimap<std::uint64_t, CallPathId> index_;
};

}  // namespace waitscope::trace
