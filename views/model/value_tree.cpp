#include "views/model/value_tree.h"

namespace waitscope::views {

void ValueTree::link() {
  const std::size_t n = parent.size();
  children.assign(n, {});
  roots.clear();
  rowInParent.assign(n, 0);
  depth.assign(n, 0);
  rootOf.assign(n, 0);
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::uint32_t p = parent[i];
    if (p == kNoNode || p >= i) {
      parent[i] = kNoNode;  // a parent after its child would break the backward pass: treat as root
      rowInParent[i] = static_cast<std::uint32_t>(roots.size());
      roots.push_back(i);
      rootOf[i] = i;
    } else {
      rowInParent[i] = static_cast<std::uint32_t>(children[p].size());
      children[p].push_back(i);
      depth[i] = depth[p] + 1;
      rootOf[i] = rootOf[p];
    }
  }
  names.resize(n);
  toolTips.resize(n);
}

std::vector<double> ValueTree::inclusive(const std::vector<double>& exclusive) const {
  std::vector<double> out = exclusive;
  out.resize(parent.size(), 0.0);
  for (std::size_t i = parent.size(); i-- > 0;)
    if (parent[i] != kNoNode) out[parent[i]] += out[i];
  return out;
}

void ValueTree::markSubtree(std::uint32_t node, std::vector<char>& mask) const {
  if (node >= parent.size()) return;
  mask.resize(parent.size(), 0);
  std::vector<std::uint32_t> stack{node};
  while (!stack.empty()) {
    const std::uint32_t n = stack.back();
    stack.pop_back();
    mask[n] = 1;
    stack.insert(stack.end(), children[n].begin(), children[n].end());
  }
}

}  // namespace waitscope::views
