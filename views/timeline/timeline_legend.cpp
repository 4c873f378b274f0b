#include "views/timeline/timeline_legend.h"

#include <algorithm>
#include <iterator>

#include <QCoreApplication>
#include <QFontMetrics>
#include <QTransform>

#include "analysis/timeline/timeline_slice.h"

namespace waitscope::views {

std::vector<std::uint32_t> patternsWithInstances(const report::Report& report) {
  std::vector<char> has(report.metrics.size(), 0);
  for (const report::Instance& i : report.instances)
    if (i.metric < has.size()) has[i.metric] = 1;
  std::vector<std::uint32_t> metrics;
  for (std::uint32_t m = 0; m < has.size(); ++m)
    if (has[m]) metrics.push_back(m);
  return metrics;
}

void TimelineLegend::rebuild(const report::Report* report, const TimelineColors& colors, const QFont& font) {
  entries_.clear();
  const QFontMetrics fm(font);
  const auto add = [&](LegendEntry::Swatch swatch, const QBrush& brush, const QPen& pen, const QString& label,
                       std::uint32_t layer) {
    LegendEntry e;
    e.swatch = swatch;
    e.brush = brush;
    e.pen = pen;
    e.label = label;
    e.text = QStaticText(label);
    e.text.setTextFormat(Qt::PlainText);
    e.text.prepare(QTransform(), font);
    e.textWidth = fm.horizontalAdvance(label);
    e.layer = layer;
    entries_.push_back(std::move(e));
  };
  const auto tr = [](const char* text) { return QCoreApplication::translate("Timeline", text); };
  for (std::size_t g = 0; g < timeline::kRegionGroupCount; ++g)
    add(LegendEntry::Swatch::Box, QBrush(colors.groups[g]), QPen(Qt::NoPen), groupLabel(static_cast<timeline::RegionGroup>(g)), 0);
  add(LegendEntry::Swatch::Line, Qt::NoBrush, QPen(colors.message, 1.5), tr("message"), timeline::kSliceMessages);
  add(LegendEntry::Swatch::Line, Qt::NoBrush, QPen(colors.transfer, 2.0), tr("RMA transfer"), timeline::kSliceTransfers);
  // Epochs under one heading, by their short names (the tooltips say the rest).
  add(LegendEntry::Swatch::None, Qt::NoBrush, QPen(Qt::NoPen), tr("epochs:"), timeline::kSliceEpochs);
  const QString epochNames[] = {tr("fence"), tr("GATS access"), tr("GATS exposure"), tr("lock"), tr("lock-all")};
  for (std::size_t k = 0; k < colors.epochs.size() && k < std::size(epochNames); ++k)
    add(LegendEntry::Swatch::Box, QBrush(colors.epochs[k]), QPen(Qt::NoPen), epochNames[k], timeline::kSliceEpochs);
  // One entry per pattern that has instances: what a hatch's colour means.
  add(LegendEntry::Swatch::None, Qt::NoBrush, QPen(Qt::NoPen), tr("wait states:"), timeline::kSliceInstances);
  bool anyPattern = false;
  for (std::uint32_t m : report ? patternsWithInstances(*report) : std::vector<std::uint32_t>()) {
    const QColor c = colors.pattern(m);
    add(LegendEntry::Swatch::Box, QBrush(c, Qt::BDiagPattern), QPen(c, 1.5),
        QString::fromStdString(report->metrics[m].displayName), timeline::kSliceInstances);
    anyPattern = true;
  }
  if (!anyPattern)
    add(LegendEntry::Swatch::Box, QBrush(Qt::black, Qt::BDiagPattern), QPen(Qt::black), tr("none"),
        timeline::kSliceInstances);
  add(LegendEntry::Swatch::Box, QBrush(colors.criticalPath), QPen(Qt::NoPen), tr("critical path"), timeline::kSlicePath);
}

int TimelineLegend::lines(int width, std::uint32_t layers) const {
  int last = 0;
  flow(width, layers, [&](const LegendEntry&, int, int line) { last = line; });
  return last + 1;
}

}  // namespace waitscope::views
