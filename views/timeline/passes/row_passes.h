#pragma once
// Items stacked on each row's region band (the highlighted call path's
// outline, region names, wait states) are drawn row by row, each row's items
// in pass order: a list of row passes run as one render pass. A row pass may
// also draw before the first row and after the last (batches of the whole frame).
#include <memory>
#include <vector>

#include "views/timeline/passes/render_pass.h"

namespace waitscope::views {

class RowPass {
 public:
  virtual ~RowPass() = default;
  virtual void begin(QPainter&, const TimelineFrame&) {}
  virtual void paintRow(QPainter& p, const TimelineFrame& frame, const timeline::LocationSlice& row) = 0;
  virtual void end(QPainter&, const TimelineFrame&) {}
};

class RowPasses final : public RenderPass {
 public:
  void add(std::unique_ptr<RowPass> pass) { passes_.push_back(std::move(pass)); }
  void paint(QPainter& p, const TimelineFrame& frame) override;

 private:
  std::vector<std::unique_ptr<RowPass>> passes_;
};

}  // namespace waitscope::views
