#include "views/model/tree_matching.h"

#include <map>
#include <utility>

#include <QString>

namespace waitscope::views {
namespace {

// The children of every parent (kNoNode: the roots) grouped by name, in display order.
using ChildrenByName = std::map<std::pair<std::uint32_t, QString>, std::vector<std::uint32_t>>;

ChildrenByName childrenByName(const ValueTree& tree) {
  ChildrenByName out;
  auto add = [&](std::uint32_t parent, const std::vector<std::uint32_t>& kids) {
    for (const std::uint32_t kid : kids) out[{parent, tree.names[kid]}].push_back(kid);
  };
  add(kNoNode, tree.roots);
  for (std::uint32_t n = 0; n < tree.size(); ++n) add(n, tree.children[n]);
  return out;
}

}  // namespace

std::vector<std::uint32_t> matchNodes(const ValueTree& from, const ValueTree& to) {
  std::vector<std::uint32_t> out(from.size(), kNoNode);
  const ChildrenByName targets = childrenByName(to);
  std::map<std::pair<std::uint32_t, QString>, std::size_t> seen;  // same-named siblings so far
  // Parents come before their children (and siblings are in display order), so a
  // node's parent is matched before the node.
  for (std::uint32_t n = 0; n < from.size(); ++n) {
    const std::uint32_t parent = from.parent[n];
    const std::uint32_t target = parent == kNoNode ? kNoNode : out[parent];
    if (parent != kNoNode && target == kNoNode) continue;  // the parent is gone: so is its subtree
    const std::size_t k = seen[{parent, from.names[n]}]++;
    const auto found = targets.find({target, from.names[n]});
    if (found != targets.end() && k < found->second.size()) out[n] = found->second[k];
  }
  return out;
}

bool sameShape(const ValueTree& a, const ValueTree& b) { return a.parent == b.parent && a.names == b.names; }

}  // namespace waitscope::views
