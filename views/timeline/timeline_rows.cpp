#include "views/timeline/timeline_rows.h"

#include <algorithm>

namespace waitscope::views {

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
  collapsed_.assign(nodes_.size(), 0);
  layout();
}

void TimelineRows::setCollapsed(std::uint32_t node, bool collapsed) {
  if (node >= collapsed_.size()) return;
  collapsed_[node] = collapsed ? 1 : 0;
  layout();
}

void TimelineRows::layout() {
  rows_.clear();
  rowOfLocation_.assign(groupOfLocation_.size(), -1);
  int y = 0;
  for (std::uint32_t g = 0; g < nodes_.size(); ++g) {
    rows_.push_back({true, g, 0, y, kNodeHeight});
    y += kNodeHeight;
    if (collapsed_[g]) continue;
    for (std::uint32_t l : members_[g]) {
      rowOfLocation_[l] = static_cast<int>(rows_.size());
      rows_.push_back({false, g, l, y, kLocationHeight});
      y += kLocationHeight;
    }
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
