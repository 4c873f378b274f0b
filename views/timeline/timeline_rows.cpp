#include "views/timeline/timeline_rows.h"

#include <algorithm>

namespace waitscope::views {

RowBands RowBands::forHeight(int height) {
  RowBands b;
  const int margin = height >= 16 ? 2 : 1;
  b.epochHeight = std::clamp((height * 5 + 11) / 22, 2, 8);
  b.epochTop = height - b.epochHeight - margin;
  b.bandTop = margin;
  b.bandHeight = std::max(1, b.epochTop - 1 - b.bandTop);
  return b;
}

std::vector<std::uint32_t> processParents(const report::Report& report) {
  std::vector<std::uint32_t> processOfRank;
  for (std::uint32_t l = 0; l < report.locations.size(); ++l) {
    const report::Location& loc = report.locations[l];
    if (loc.kind != report::LocationKind::Process) continue;
    if (loc.rank >= processOfRank.size()) processOfRank.resize(loc.rank + 1, report::kNoId);
    processOfRank[loc.rank] = l;
  }
  std::vector<std::uint32_t> parents(report.locations.size(), report::kNoId);
  for (std::uint32_t l = 0; l < report.locations.size(); ++l) {
    const report::Location& loc = report.locations[l];
    if (loc.kind != report::LocationKind::Process && loc.rank < processOfRank.size()) parents[l] = processOfRank[loc.rank];
  }
  return parents;
}

void TimelineRows::setReport(const report::Report* report) {
  nodes_.clear();
  members_.clear();
  groupOfLocation_.clear();
  if (report) {
    groupOfLocation_.resize(report->locations.size(), 0);
    for (std::uint32_t l = 0; l < report->locations.size(); ++l) {
      const std::uint32_t node = report->locations[l].systemNode;
      auto it = std::find(nodes_.begin(), nodes_.end(), node);
      if (it == nodes_.end()) {
        nodes_.push_back(node);
        members_.emplace_back();
        it = nodes_.end() - 1;
      }
      const auto g = static_cast<std::size_t>(it - nodes_.begin());
      members_[g].push_back(l);
      groupOfLocation_[l] = static_cast<std::uint32_t>(g);
    }
  }
  hidden_.clear();
  collapsed_.assign(nodes_.size(), 0);
  setParents(report ? processParents(*report) : std::vector<std::uint32_t>());
}

void TimelineRows::setCollapsed(std::uint32_t node, bool collapsed) {
  if (node >= collapsed_.size()) return;
  collapsed_[node] = collapsed ? 1 : 0;
  layout();
}

void TimelineRows::setLocationHeight(int height) {
  locationHeight_ = std::clamp(height, kMinLocationHeight, kMaxLocationHeight);
  bands_ = RowBands::forHeight(locationHeight_);
  layout();
}

void TimelineRows::setGroupedByNode(bool grouped) {
  grouped_ = grouped;
  layout();
}

void TimelineRows::setHidden(std::vector<char> hidden) {
  hidden_ = std::move(hidden);
  layout();
}

void TimelineRows::setParents(std::vector<std::uint32_t> parentOfLocation) {
  const std::size_t n = groupOfLocation_.size();
  parent_.assign(n, report::kNoId);
  children_.assign(n, {});
  for (std::uint32_t l = 0; l < n && l < parentOfLocation.size(); ++l) {
    const std::uint32_t p = parentOfLocation[l];
    if (p >= n || p == l || (p < parentOfLocation.size() && parentOfLocation[p] != report::kNoId)) continue;  // one level
    parent_[l] = p;
    children_[p].push_back(l);
  }
  childrenCollapsed_.assign(n, 0);
  anyChildren_ = std::any_of(children_.begin(), children_.end(), [](const auto& c) { return !c.empty(); });
  layout();
}

void TimelineRows::setChildrenCollapsed(std::uint32_t location, bool collapsed) {
  if (!hasChildren(location)) return;
  childrenCollapsed_[location] = collapsed ? 1 : 0;
  layout();
}

void TimelineRows::setAllChildrenCollapsed(bool collapsed) {
  for (std::uint32_t l = 0; l < childrenCollapsed_.size(); ++l) childrenCollapsed_[l] = collapsed && hasChildren(l);
  layout();
}

void TimelineRows::addLocation(std::uint32_t location, std::uint32_t group, int depth, int& y) {
  if (hidden(location)) return;
  rowOfLocation_[location] = static_cast<int>(rows_.size());
  rows_.push_back({false, group, location, y, locationHeight_, depth});
  y += locationHeight_;
  ++locationRows_;
  if (childrenCollapsed(location)) return;
  for (std::uint32_t child : children_[location]) addLocation(child, group, depth + 1, y);
}

void TimelineRows::layout() {
  rows_.clear();
  rowOfLocation_.assign(groupOfLocation_.size(), -1);
  nodeRows_ = locationRows_ = 0;
  int y = 0;
  for (std::uint32_t g = 0; g < nodes_.size(); ++g) {
    const auto shown = [&](std::uint32_t l) { return !hidden(l) && parent_[l] == report::kNoId; };
    if (!std::any_of(members_[g].begin(), members_[g].end(), shown)) continue;
    if (grouped_) {
      rows_.push_back({true, g, 0, y, kNodeHeight, 0});
      y += kNodeHeight;
      ++nodeRows_;
      if (collapsed_[g]) continue;
    }
    for (std::uint32_t l : members_[g])
      if (parent_[l] == report::kNoId) addLocation(l, g, 0, y);
  }
  height_ = y;
}

int TimelineRows::rowAt(int y) const {
  auto it = std::upper_bound(rows_.begin(), rows_.end(), y, [](int v, const TimelineRow& r) { return v < r.top; });
  if (it == rows_.begin()) return -1;
  --it;
  return y < it->top + it->height ? static_cast<int>(it - rows_.begin()) : -1;
}

int TimelineRows::rowOfLocation(std::uint32_t location) const {
  return location < rowOfLocation_.size() ? rowOfLocation_[location] : -1;
}

std::uint32_t TimelineRows::nodeOfLocation(std::uint32_t location) const {
  return location < groupOfLocation_.size() ? groupOfLocation_[location] : report::kNoId;
}

}  // namespace waitscope::views
