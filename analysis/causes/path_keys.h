#pragma once
// Call paths named across ranks: each rank's call tree numbers its paths its own way, so a waiter
// names a path by a key (a hash of its regions and call sites from the root) and the cause maps
// the key to its own path.
#include <cstdint>
#include <vector>

#include "analysis/trace/call_tree.h"
#include "analysis/trace/ids.h"

namespace waitscope::causes::delay {

class PathKeys {
 public:
  explicit PathKeys(const trace::CallTree& tree);

  // The key of every call path of this rank, by path id.
  const std::vector<std::uint64_t>& keys() const { return keys_; }

  // The local call path with this key; kNone for a path this rank never ran,
  // which takes no part in its delay.
  trace::CallPathId localPathOfKey(std::uint64_t key) const;

 private:
  std::uint64_t pathKey(trace::CallPathId p);

  const trace::CallTree& tree_;
  std::vector<std::uint64_t> keys_;
  std::vector<char> keySet_;
  std::vector<trace::CallPathId> keySlots_;  // open addressing over the keys
};

}  // namespace waitscope::causes::delay
