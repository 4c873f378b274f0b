#pragma once
// Call paths built from enter/leave nesting: a call path is (parent, region,
// call site). Interning keeps one id per distinct path; lookups on the reading
// hot path are a hash probe with no allocation once the path exists.
#include <cstdint>
#include <vector>

#include "analysis/trace/ids.h"

namespace waitscope::trace {

struct CallPath {
  CallPathId parent = kNone;
  RegionId region = kNone;
  SourceLocationId callSite = kNone;  // where the parent called this region, if recorded
};

class CallTree {
 public:
  CallPathId intern(CallPathId parent, RegionId region, SourceLocationId callSite = kNone) {
    // Inline: this runs for every ENTER record while reading.
    if (!slots_.empty()) {
      const std::size_t mask = slots_.size() - 1;
      for (std::size_t i = hash(parent, region, callSite) & mask;; i = (i + 1) & mask) {
        const CallPathId id = slots_[i];
        if (id == kNone) break;
        const CallPath& p = paths_[id];
        if (p.parent == parent && p.region == region && p.callSite == callSite) return id;
      }
    }
    return add(parent, region, callSite);
  }
  const CallPath& operator[](CallPathId id) const { return paths_[id]; }
  std::size_t size() const { return paths_.size(); }
  const std::vector<CallPath>& paths() const { return paths_; }
  std::uint32_t depth(CallPathId id) const;
  // depth() of every path, in one pass. A region's enter and leave both carry
  // its path, so a pass over the events can keep the open regions in an array
  // indexed by depth instead of a stack that grows and shrinks.
  std::vector<std::uint32_t> depths() const;

 private:
  // Open addressing with linear probing over a power-of-two table of path ids
  // (kNone = empty slot), kept at most half full: a lookup usually touches one
  // slot and one path, with no allocation and no division.
  static std::size_t hash(CallPathId parent, RegionId region, SourceLocationId callSite) {
    std::uint64_t k = ((static_cast<std::uint64_t>(parent) << 32) | region) ^
                      (static_cast<std::uint64_t>(callSite) * 0x9E3779B97F4A7C15ull);
    k ^= k >> 29;
    k *= 0xBF58476D1CE4E5B9ull;
    return static_cast<std::size_t>(k ^ (k >> 32));
  }
  CallPathId add(CallPathId parent, RegionId region, SourceLocationId callSite);  // a path not yet interned
  void grow();
  std::vector<CallPath> paths_;
  std::vector<CallPathId> slots_;
};

}  // namespace waitscope::trace
