#pragma once
// The rows of the timeline: one header per node (collapsible) followed by one
// row per location of that node, in report order.
#include <cstdint>
#include <vector>

#include "analysis/report/report.h"

namespace waitscope::views {

struct TimelineRow {
  bool isNode = false;
  std::uint32_t node = 0;       // index into TimelineRows::nodes()
  std::uint32_t location = 0;   // report location (location rows)
  int top = 0;                  // y of the row's top, in content coordinates
  int height = 0;
};

class TimelineRows {
 public:
  static constexpr int kNodeHeight = 16;
  static constexpr int kLocationHeight = 22;

  void setReport(const report::Report* report);
  void setCollapsed(std::uint32_t node, bool collapsed);
  bool collapsed(std::uint32_t node) const { return node < collapsed_.size() && collapsed_[node]; }
  void toggle(std::uint32_t node) { setCollapsed(node, !collapsed(node)); }

  const std::vector<TimelineRow>& rows() const { return rows_; }
  int contentHeight() const { return height_; }
  // Index into rows() at content y, or -1.
  int rowAt(int y) const;
  // The visible row of `location`, or -1 (collapsed or unknown).
  int rowOfLocation(std::uint32_t location) const;
  std::uint32_t nodeOfLocation(std::uint32_t location) const;
  // The report system node each row group stands for (kNoId: locations without a node).
  const std::vector<std::uint32_t>& nodes() const { return nodes_; }

 private:
  void layout();
  std::vector<std::uint32_t> nodes_;                     // report system node per group
  std::vector<std::vector<std::uint32_t>> members_;      // locations per group
  std::vector<std::uint32_t> groupOfLocation_;
  std::vector<char> collapsed_;
  std::vector<TimelineRow> rows_;
  std::vector<int> rowOfLocation_;
  int height_ = 0;
};

}  // namespace waitscope::views
