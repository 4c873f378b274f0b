#pragma once
// The same item in two versions of a tree (snapshots of a live run): items are
// matched by their name path from the root, and siblings of the same name by
// their order among those siblings. Node numbers may differ between versions
// (a call path that appeared in between shifts the ones after it).
#include <cstdint>
#include <vector>

#include "views/model/value_tree.h"

namespace waitscope::views {

// For every node of `from`, the node of `to` with the same name path (kNoNode when it is gone).
std::vector<std::uint32_t> matchNodes(const ValueTree& from, const ValueTree& to);

// True when both trees have the same nodes under the same parents with the same names, so
// that node numbers, rows and names of one are valid for the other.
bool sameShape(const ValueTree& a, const ValueTree& b);

}  // namespace waitscope::views
