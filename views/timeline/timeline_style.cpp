#include "views/timeline/timeline_style.h"

#include <algorithm>

#include <QCoreApplication>
#include <QFontMetrics>
#include <QTransform>

namespace waitscope::views {

void TimelineStyle::setNames(const report::Report* report, const TimelineRows& rows) {
  callPathNames.clear();
  locationNames.clear();
  locationLabels.clear();
  nodeNames.clear();
  if (!report) return;
  for (const report::CallPath& c : report->callPaths)
    callPathNames.push_back(c.region < report->regions.size() ? QString::fromStdString(report->regions[c.region].name)
                                                              : QStringLiteral("?"));
  for (const report::Location& l : report->locations) locationNames.push_back(QString::fromStdString(l.name));
  // A child row sits under its process: "OMP thread 1" says it, not "MPI Rank 0 / OMP thread 1".
  locationLabels = locationNames;
  for (std::uint32_t l = 0; l < locationLabels.size(); ++l) {
    const std::uint32_t parent = rows.parentOf(l);
    if (parent >= locationNames.size()) continue;
    const QString prefix = locationNames[parent] + QStringLiteral(" / ");
    if (locationLabels[l].startsWith(prefix) && locationLabels[l].size() > prefix.size())
      locationLabels[l] = locationLabels[l].mid(prefix.size());
  }
  for (std::uint32_t node : rows.nodes())
    nodeNames.push_back(node < report->systemNodes.size() ? QString::fromStdString(report->systemNodes[node].name)
                                                           : QCoreApplication::translate("Timeline", "(no node)"));
}

void TimelineStyle::rebuild(const TimelineColors& colors, const QFont& font, std::size_t metrics) {
  const QFontMetrics fm(font);
  callPathNameWidths.resize(callPathNames.size());
  callPathTexts.clear();
  for (std::size_t i = 0; i < callPathNames.size(); ++i) {
    callPathNameWidths[i] = fm.horizontalAdvance(callPathNames[i]);
    callPathTexts.emplace_back(callPathNames[i]);
    callPathTexts.back().setTextFormat(Qt::PlainText);
    callPathTexts.back().prepare(QTransform(), font);
  }
  textHeight = fm.height();
  textAscent = fm.ascent();
  // Labels are the same every frame: laid out here, not per paint.
  const auto prepared = [&](const QString& text) {
    QStaticText t(text);
    t.setTextFormat(Qt::PlainText);
    t.prepare(QTransform(), font);
    return t;
  };
  locationTexts.clear();
  for (const QString& n : locationLabels) locationTexts.push_back(prepared(n));
  nodeTexts.clear();
  for (const QString& n : nodeNames) nodeTexts.push_back(prepared(n));
  groupBrushes.clear();
  for (const QColor& c : colors.groups) groupBrushes.emplace_back(c);
  epochBrushes.clear();
  for (QColor c : colors.epochs) {
    c.setAlpha(170);  // overlapping epochs (a fence shared by two) stay visible
    epochBrushes.emplace_back(c);
  }
  patternPens.clear();
  patternStrongPens.clear();
  patternBrushes.clear();
  for (std::uint32_t m = 0; m < metrics; ++m) {
    const QColor c = colors.pattern(m);
    // Mitred corners: an outline is then exactly four square-capped lines,
    // which the raster engine fills without its general stroker (WaitStatePass).
    patternPens.emplace_back(c, 1.5, Qt::SolidLine, Qt::SquareCap, Qt::MiterJoin);
    patternStrongPens.emplace_back(c, 3.0, Qt::SolidLine, Qt::SquareCap, Qt::MiterJoin);
    patternBrushes.emplace_back(c, Qt::BDiagPattern);
  }
  hatch = RasterLayer::patternOf(Qt::BDiagPattern);
  messagePen = QPen(colors.message, 1.0);
  transferPen = QPen(colors.transfer, 1.5);
  pathBrush = QBrush(colors.criticalPath);
  highlightBrush = QBrush(colors.highlight);
  pathLinkPen = QPen(colors.criticalPath.lighter(140), 1.0);
  highlightPen = QPen(colors.highlight, 2.5, Qt::SolidLine, Qt::SquareCap, Qt::MiterJoin);
  originPen = QPen(colors.origin, 1, Qt::DashLine);
  const auto opaque = [](const QColor& c) { return c.alpha() == 255; };
  opaqueRegions = std::all_of(colors.groups.begin(), colors.groups.end(), opaque);
  opaqueMarks = std::all_of(patternPens.begin(), patternPens.end(), [&](const QPen& pen) { return opaque(pen.color()); });
  opaqueLines = opaque(colors.message);
  opaquePath = opaque(colors.criticalPath) && opaque(colors.highlight) && opaque(pathLinkPen.color());
  const QColor pale(0x80, 0x80, 0x80, 110);
  paleInstancePen = QPen(pale, 1.0);
  paleInstanceBrush = QBrush(pale, Qt::BDiagPattern);
}

}  // namespace waitscope::views
