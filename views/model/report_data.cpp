#include "views/model/report_data.h"

#include <algorithm>
#include <map>
#include <set>

#include <QFileInfo>

#include "analysis/metrics/pattern_advice.h"

namespace waitscope::views {
namespace {

QString fromStd(const std::string& s) { return QString::fromStdString(s); }

QString sourceText(const std::string& file, std::uint32_t line) {
  if (file.empty()) return {};
  return line ? QStringLiteral("%1:%2").arg(fromStd(file)).arg(line) : fromStd(file);
}

}  // namespace

QString callSiteLabel(const report::CallPath& callPath) {
  const QString file = QFileInfo(fromStd(callPath.callSiteFile)).fileName();
  return callPath.callSiteLine ? QStringLiteral("%1:%2").arg(file).arg(callPath.callSiteLine) : file;
}

ReportData::ReportData(report::Report report, QString path, TimeWindowRestriction window)
    : ReportData(std::move(report), std::move(path)) {
  window_ = std::move(window);
}

ReportData::ReportData(report::Report report, QString path) : report_(std::move(report)), path_(std::move(path)) {
  const report::Report& r = report_;

  metricTree_.parent.reserve(r.metrics.size());
  for (const report::Metric& m : r.metrics) metricTree_.parent.push_back(m.parent);
  metricTree_.link();
  for (std::size_t i = 0; i < r.metrics.size(); ++i) {
    const report::Metric& m = r.metrics[i];
    metricTree_.names[i] = fromStd(m.displayName.empty() ? m.uniqueName : m.displayName);
    QString tip = QStringLiteral("<b>%1</b> (%2)<br>%3")
                      .arg(metricTree_.names[i].toHtmlEscaped(), fromStd(m.uniqueName).toHtmlEscaped(),
                           fromStd(m.description).toHtmlEscaped());
    const std::string_view advice = metrics::patternAdvice(m.uniqueName);
    if (!advice.empty())
      tip += QStringLiteral("<p><i>What to change:</i> %1</p>")
                 .arg(QString::fromUtf8(advice.data(), static_cast<qsizetype>(advice.size())).toHtmlEscaped());
    metricTree_.toolTips[i] = tip;
  }

  callTree_.parent.reserve(r.callPaths.size());
  for (const report::CallPath& c : r.callPaths) callTree_.parent.push_back(c.parent);
  callTree_.link();
  for (std::size_t i = 0; i < r.callPaths.size(); ++i) {
    const report::CallPath& c = r.callPaths[i];
    const report::Region* region = c.region < r.regions.size() ? &r.regions[c.region] : nullptr;
    callTree_.names[i] = region ? fromStd(region->name) : QStringLiteral("(unknown region)");
    QString tip = sourceText(c.callSiteFile, c.callSiteLine);
    if (tip.isEmpty() && region) tip = sourceText(region->file, region->beginLine);
    callTree_.toolTips[i] = tip;
  }
  // Siblings of one name (main calling MPI_Win_fence on two lines) are told apart by their call
  // site, "MPI_Win_fence (fence.c:42)"; names that are unique among their siblings stay bare.
  const auto labelSites = [&](const std::vector<std::uint32_t>& siblings) {
    std::map<QString, int> count;
    for (const std::uint32_t s : siblings) ++count[callTree_.names[s]];
    for (const std::uint32_t s : siblings) {
      const report::CallPath& c = r.callPaths[s];
      if (count[callTree_.names[s]] > 1 && !c.callSiteFile.empty())
        callTree_.names[s] += QStringLiteral(" (%1)").arg(callSiteLabel(c));
    }
  };
  labelSites(callTree_.roots);
  for (const std::vector<std::uint32_t>& kids : callTree_.children) labelSites(kids);

  regionTree_.parent.assign(r.regions.size(), kNoNode);
  regionTree_.link();
  for (std::size_t i = 0; i < r.regions.size(); ++i) {
    regionTree_.names[i] = fromStd(r.regions[i].name);
    regionTree_.toolTips[i] = sourceText(r.regions[i].file, r.regions[i].beginLine);
  }

  // System tree: machines and nodes first (parents before children), then the locations.
  const std::size_t nodes = r.systemNodes.size();
  systemTree_.parent.reserve(nodes + r.locations.size());
  for (const report::SystemNode& n : r.systemNodes) systemTree_.parent.push_back(n.parent);
  // A thread or accelerator stream hangs below its process (which comes before it).
  const std::size_t processes = r.processCount();
  for (const report::Location& l : r.locations)
    systemTree_.parent.push_back(l.kind != report::LocationKind::Process && l.rank < processes
                                     ? static_cast<std::uint32_t>(nodes + l.rank)
                                     : l.systemNode);
  systemTree_.link();
  for (std::size_t i = 0; i < nodes; ++i) {
    systemTree_.names[i] = fromStd(r.systemNodes[i].name);
    systemTree_.toolTips[i] = fromStd(r.systemNodes[i].className);
  }
  for (std::size_t i = 0; i < r.locations.size(); ++i) {
    systemTree_.names[nodes + i] = fromStd(r.locations[i].name);
    const report::LocationKind kind = r.locations[i].kind;
    systemTree_.toolTips[nodes + i] = kind == report::LocationKind::Process
                                          ? QStringLiteral("MPI rank %1").arg(r.locations[i].rank)
                                      : kind == report::LocationKind::Accelerator
                                          ? QStringLiteral("accelerator stream of MPI rank %1").arg(r.locations[i].rank)
                                      : kind == report::LocationKind::Metric
                                          ? QStringLiteral("metric location of MPI rank %1").arg(r.locations[i].rank)
                                          : QStringLiteral("thread of MPI rank %1").arg(r.locations[i].rank);
  }

  rowsByMetric_.assign(r.metrics.size(), {});
  rowsByCallPath_.assign(r.callPaths.size(), {});
  const std::size_t locations = r.locations.size();
  metricLocationTotals_.assign(r.metrics.size() * locations, 0.0);
  rowTotals_.assign(r.severities.size(), 0.0);
  metricExclusive_.assign(r.metrics.size(), 0.0);
  for (std::uint32_t i = 0; i < r.severities.size(); ++i) {
    const report::SeverityRow& row = r.severities[i];
    double sum = 0.0;
    for (const double v : row.values) sum += v;
    rowTotals_[i] = sum;
    rowsByMetric_[row.metric].push_back(i);
    rowsByCallPath_[row.callPath].push_back(i);
    double* totals = metricLocationTotals_.data() + row.metric * locations;
    for (std::size_t l = 0; l < locations; ++l) totals[l] += row.values[l];
    metricExclusive_[row.metric] += sum;
  }
  metricInclusive_ = metricTree_.inclusive(metricExclusive_);
}

std::uint32_t ReportData::systemNodeOfLocation(std::uint32_t location) const {
  return location < report_.locations.size() ? static_cast<std::uint32_t>(report_.systemNodes.size() + location)
                                             : kNoNode;
}

std::uint32_t ReportData::locationOfSystemNode(std::uint32_t node) const {
  const std::size_t nodes = report_.systemNodes.size();
  return node >= nodes && node < nodes + report_.locations.size() ? static_cast<std::uint32_t>(node - nodes) : kNoNode;
}

namespace {
std::vector<char> maskOf(const ValueTree& tree, const TreePicks& picks) {
  std::vector<char> mask(tree.size(), 0);
  for (const TreePick& p : picks) {
    if (p.node >= tree.size()) continue;
    if (p.inclusive)
      tree.markSubtree(p.node, mask);
    else
      mask[p.node] = 1;
  }
  return mask;
}
}  // namespace

std::vector<char> ReportData::metricMask(const TreePicks& picks) const { return maskOf(metricTree_, picks); }
std::vector<char> ReportData::callPathMask(const TreePicks& picks) const { return maskOf(callTree_, picks); }

std::vector<char> ReportData::callPathMaskOfRegions(const TreePicks& regionPicks) const {
  const std::vector<char> regions = maskOf(regionTree_, regionPicks);
  std::vector<char> mask(report_.callPaths.size(), 0);
  for (std::size_t i = 0; i < mask.size(); ++i) {
    const std::uint32_t region = report_.callPaths[i].region;
    mask[i] = region < regions.size() && regions[region];
  }
  return mask;
}

std::vector<double> ReportData::callPathValues(const std::vector<char>& metrics) const {
  std::vector<double> out(report_.callPaths.size(), 0.0);
  for (std::size_t m = 0; m < metrics.size() && m < rowsByMetric_.size(); ++m) {
    if (!metrics[m]) continue;
    for (const std::uint32_t row : rowsByMetric_[m]) out[report_.severities[row].callPath] += rowTotals_[row];
  }
  return out;
}

std::vector<double> ReportData::regionValues(const std::vector<char>& metrics) const {
  const std::vector<double> byCallPath = callPathValues(metrics);
  std::vector<double> out(report_.regions.size(), 0.0);
  for (std::size_t c = 0; c < byCallPath.size(); ++c) out[report_.callPaths[c].region] += byCallPath[c];
  return out;
}

std::vector<double> ReportData::locationValues(const std::vector<char>& metrics,
                                               const std::vector<char>& callPaths) const {
  const std::size_t locations = report_.locations.size();
  std::vector<double> out(locations, 0.0);
  auto add = [&](const double* values) {
    for (std::size_t l = 0; l < locations; ++l) out[l] += values[l];
  };
  // Three ways to the same sums; take the one that touches the fewest rows.
  std::size_t selectedCallPaths = 0, rowsOfCallPaths = 0, rowsOfMetrics = 0;
  for (std::size_t c = 0; c < callPaths.size() && c < rowsByCallPath_.size(); ++c)
    if (callPaths[c]) ++selectedCallPaths, rowsOfCallPaths += rowsByCallPath_[c].size();
  for (std::size_t m = 0; m < metrics.size() && m < rowsByMetric_.size(); ++m)
    if (metrics[m]) rowsOfMetrics += rowsByMetric_[m].size();
  if (selectedCallPaths == report_.callPaths.size()) {  // the whole program (the call-tree root, collapsed)
    for (std::size_t m = 0; m < metrics.size() && m < rowsByMetric_.size(); ++m)
      if (metrics[m]) add(metricLocationTotals_.data() + m * locations);
  } else if (rowsOfCallPaths < rowsOfMetrics) {
    for (std::size_t c = 0; c < callPaths.size() && c < rowsByCallPath_.size(); ++c) {
      if (!callPaths[c]) continue;
      for (const std::uint32_t row : rowsByCallPath_[c]) {
        const report::SeverityRow& s = report_.severities[row];
        if (s.metric < metrics.size() && metrics[s.metric]) add(s.values.data());
      }
    }
  } else {
    for (std::size_t m = 0; m < metrics.size() && m < rowsByMetric_.size(); ++m) {
      if (!metrics[m]) continue;
      for (const std::uint32_t row : rowsByMetric_[m]) {
        const report::SeverityRow& s = report_.severities[row];
        if (s.callPath < callPaths.size() && callPaths[s.callPath]) add(s.values.data());
      }
    }
  }
  return out;
}

std::vector<double> ReportData::systemValues(const std::vector<double>& byLocation) const {
  std::vector<double> out(systemTree_.size(), 0.0);
  std::copy(byLocation.begin(), byLocation.end(), out.begin() + static_cast<std::ptrdiff_t>(report_.systemNodes.size()));
  return out;
}

double ReportData::rootTotal(const TreePicks& metricPicks) const {
  std::set<std::uint32_t> roots;
  for (const TreePick& p : metricPicks) {
    std::uint32_t m = p.node;
    if (m >= metricTree_.size()) continue;
    while (metricTree_.parent[m] != kNoNode) m = metricTree_.parent[m];
    roots.insert(m);
  }
  double total = 0.0;
  for (const std::uint32_t r : roots) total += metricInclusive_[r];
  return total;
}

report::MetricUnit ReportData::unit(const TreePicks& metricPicks, bool* mixed) const {
  std::set<report::MetricUnit> units;
  for (const TreePick& p : metricPicks)
    if (p.node < report_.metrics.size()) units.insert(report_.metrics[p.node].unit);
  if (mixed) *mixed = units.size() > 1;
  return units.size() == 1 ? *units.begin() : report::MetricUnit::Seconds;
}

}  // namespace waitscope::views
