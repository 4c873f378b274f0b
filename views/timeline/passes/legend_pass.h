#pragma once
// The legend strip below the plot (when shown): the region groups, the epoch
// kinds, the wait states and the critical path, each a swatch and its name.
#include <QBrush>
#include <QPen>

#include "views/timeline/passes/render_pass.h"

namespace waitscope::views {

class LegendPass final : public RenderPass {
 public:
  Area area() const override { return Area::Margins; }
  void paint(QPainter& p, const TimelineFrame& frame) override;

 private:
  const QPen noPen_{Qt::NoPen};
  const QBrush waitStateBrush_{Qt::black, Qt::BDiagPattern};
  const QPen waitStatePen_{Qt::black};
};

}  // namespace waitscope::views
