#include "analysis/causes/path_keys.h"

namespace waitscope::causes::delay {
namespace {

std::uint64_t mix(std::uint64_t h, std::uint64_t v) {
  h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
  h ^= h >> 31;
  h *= 0xBF58476D1CE4E5B9ull;
  return h ^ (h >> 29);
}

}  // namespace

using trace::CallPathId;
using trace::kNone;

// This rank's call paths by key: open addressing over the keys, which are
// well-mixed hashes already (a lookup per path of each waiter).
PathKeys::PathKeys(const trace::CallTree& tree) : tree_(tree) {
  const std::size_t paths = tree_.size();
  std::size_t slots = 16;
  while (slots < 2 * paths) slots *= 2;
  keySlots_.assign(slots, kNone);
  for (CallPathId p = 0; p < paths; ++p) {
    std::size_t i = pathKey(p) & (slots - 1);
    while (keySlots_[i] != kNone) i = (i + 1) & (slots - 1);
    keySlots_[i] = p;
  }
}

CallPathId PathKeys::localPathOfKey(std::uint64_t key) const {
  const std::size_t mask = keySlots_.size() - 1;
  for (std::size_t i = key & mask;; i = (i + 1) & mask) {
    const CallPathId p = keySlots_[i];
    if (p == kNone || keys_[p] == key) return p;
  }
}

std::uint64_t PathKeys::pathKey(CallPathId p) {
  if (p == kNone) return 0;
  if (p < keys_.size() && keySet_[p]) return keys_[p];
  const trace::CallPath& cp = tree_[p];
  const std::uint64_t k = mix(mix(pathKey(cp.parent), cp.region), cp.callSite);
  if (p >= keys_.size()) keys_.resize(static_cast<std::size_t>(p) + 1, 0), keySet_.resize(keys_.size(), 0);
  keys_[p] = k;
  keySet_[p] = 1;
  return k;
}

}  // namespace waitscope::causes::delay
