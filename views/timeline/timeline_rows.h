#pragma once
// The rows of the timeline: when grouped by node, one header per node
// (collapsible) followed by the rows of that node's locations, in report
// order; else the locations alone. A location with a parent (a thread or a
// stream of a process: by default from the report's location kinds) follows its
// parent, indented, and folds with it (setChildrenCollapsed). Hidden locations
// (and the children of hidden ones) have no row; a node without shown rows has
// no header.
// Location rows share one height, and the bands inside them scale with it.
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
  int depth = 0;                // 1 for a child location (thread, stream) under its parent
};

// Where the bands are inside a location row of a given height (content y from the row's top).
struct RowBands {
  int bandTop = 2;  // region band
  int bandHeight = 12;
  int epochTop = 15;  // epoch band under it
  int epochHeight = 5;
  double bandMiddle() const { return bandTop + bandHeight / 2.0; }
  // 22 px gives the bands above; smaller rows keep a one-pixel margin, taller ones grow the region band.
  static RowBands forHeight(int height);
};

// The parent of each location of `report`: for a thread, accelerator stream or metric
// location, the process of its rank; kNoId for a process (or a rank without one).
std::vector<std::uint32_t> processParents(const report::Report& report);

class TimelineRows {
 public:
  static constexpr int kNodeHeight = 16;
  static constexpr int kLocationHeight = 22;  // the default row height
  static constexpr int kMinLocationHeight = 8;
  static constexpr int kMaxLocationHeight = 200;

  void setReport(const report::Report* report);
  void setCollapsed(std::uint32_t node, bool collapsed);
  bool collapsed(std::uint32_t node) const { return node < collapsed_.size() && collapsed_[node]; }
  void toggle(std::uint32_t node) { setCollapsed(node, !collapsed(node)); }
  // Height of every location row (clamped to [kMinLocationHeight, kMaxLocationHeight]).
  void setLocationHeight(int height);
  int locationHeight() const { return locationHeight_; }
  const RowBands& bands() const { return bands_; }
  // With node headers (the default) or one flat list.
  void setGroupedByNode(bool grouped);
  bool groupedByNode() const { return grouped_; }
  // Locations without a row; empty or shorter than the locations: the rest are shown.
  void setHidden(std::vector<char> hidden);
  bool hidden(std::uint32_t location) const { return location < hidden_.size() && hidden_[location]; }
  // The parent location of each location (report::kNoId: none), e.g. a thread's process.
  // setReport sets processParents(report); this replaces them (and unfolds every parent).
  void setParents(std::vector<std::uint32_t> parentOfLocation);
  std::uint32_t parentOf(std::uint32_t location) const {
    return location < parent_.size() ? parent_[location] : report::kNoId;
  }
  bool hasChildren(std::uint32_t location) const { return location < children_.size() && !children_[location].empty(); }
  bool anyChildren() const { return anyChildren_; }
  // A parent's child rows folded away (its own row stays).
  void setChildrenCollapsed(std::uint32_t location, bool collapsed);
  void setAllChildrenCollapsed(bool collapsed);
  bool childrenCollapsed(std::uint32_t location) const {
    return location < childrenCollapsed_.size() && childrenCollapsed_[location];
  }
  std::uint32_t locationCount() const { return static_cast<std::uint32_t>(groupOfLocation_.size()); }

  const std::vector<TimelineRow>& rows() const { return rows_; }
  int contentHeight() const { return height_; }
  // Rows of each kind in rows() (what fitting all rows in a height divides).
  int nodeRowCount() const { return nodeRows_; }
  int locationRowCount() const { return locationRows_; }
  // Index into rows() at content y, or -1.
  int rowAt(int y) const;
  // The visible row of `location`, or -1 (collapsed, hidden or unknown).
  int rowOfLocation(std::uint32_t location) const;
  std::uint32_t nodeOfLocation(std::uint32_t location) const;
  // The report system node each row group stands for (kNoId: locations without a node).
  const std::vector<std::uint32_t>& nodes() const { return nodes_; }

 private:
  void layout();
  void addLocation(std::uint32_t location, std::uint32_t group, int depth, int& y);
  std::vector<std::uint32_t> nodes_;                     // report system node per group
  std::vector<std::vector<std::uint32_t>> members_;      // top-level locations per group
  std::vector<std::vector<std::uint32_t>> children_;     // child locations per location
  std::vector<std::uint32_t> parent_;
  std::vector<std::uint32_t> groupOfLocation_;
  std::vector<char> collapsed_;
  std::vector<char> childrenCollapsed_;  // per location
  bool anyChildren_ = false;
  std::vector<char> hidden_;
  std::vector<TimelineRow> rows_;
  std::vector<int> rowOfLocation_;
  int height_ = 0;
  int nodeRows_ = 0, locationRows_ = 0;
  int locationHeight_ = kLocationHeight;
  RowBands bands_;
  bool grouped_ = true;
};

}  // namespace waitscope::views
