#pragma once
// The shape of one of the three browser trees (metrics, call paths, system),
// independent of the values shown in it. Nodes are numbered so that a parent
// always comes before its children: a backward pass sums exclusive values into
// inclusive ones without recursion.
#include <cstdint>
#include <limits>
#include <vector>

#include <QString>

namespace waitscope::views {

inline constexpr std::uint32_t kNoNode = std::numeric_limits<std::uint32_t>::max();

struct ValueTree {
  std::vector<std::uint32_t> parent;                  // kNoNode for a root
  std::vector<std::vector<std::uint32_t>> children;   // in display order
  std::vector<std::uint32_t> roots;
  std::vector<std::uint32_t> rowInParent;             // row of the node below its parent (or among the roots)
  std::vector<std::uint32_t> depth;
  std::vector<std::uint32_t> rootOf;                  // the root above the node (itself for a root)
  std::vector<QString> names;
  std::vector<QString> toolTips;                      // may be empty strings

  std::size_t size() const { return parent.size(); }

  // Fills children, roots, rowInParent, depth and rootOf from `parent` (parents before children).
  void link();

  // Inclusive values from exclusive ones (one backward pass).
  std::vector<double> inclusive(const std::vector<double>& exclusive) const;

  // Marks `node` and every node below it.
  void markSubtree(std::uint32_t node, std::vector<char>& mask) const;
};

}  // namespace waitscope::views
