#include "analysis/report/report_queries.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace waitscope::report {
namespace {

template <typename Node>
std::vector<std::vector<std::uint32_t>> children(const std::vector<Node>& nodes) {
  std::vector<std::vector<std::uint32_t>> out(nodes.size());
  for (std::uint32_t i = 0; i < nodes.size(); ++i)
    if (nodes[i].parent != kNoId && nodes[i].parent < nodes.size()) out[nodes[i].parent].push_back(i);
  return out;
}

// inMetric[m] is true for `metric` and every metric below it.
std::vector<char> metricSubtree(const Report& report, std::uint32_t metric) {
  std::vector<char> in(report.metrics.size(), 0);
  if (metric >= report.metrics.size()) return in;
  in[metric] = 1;
  // Parents come before children, so one forward pass suffices.
  for (std::uint32_t i = metric + 1; i < report.metrics.size(); ++i) {
    const std::uint32_t p = report.metrics[i].parent;
    if (p != kNoId && p < i && in[p]) in[i] = 1;
  }
  return in;
}

template <typename Node>
std::vector<TreeEntry> depthFirst(const std::vector<Node>& nodes) {
  const std::vector<std::vector<std::uint32_t>> below = children(nodes);
  std::vector<TreeEntry> out, stack;
  out.reserve(nodes.size());
  for (std::uint32_t i = static_cast<std::uint32_t>(nodes.size()); i-- > 0;)
    if (nodes[i].parent == kNoId || nodes[i].parent >= nodes.size()) stack.push_back({i, 0});
  while (!stack.empty()) {
    const TreeEntry e = stack.back();
    stack.pop_back();
    out.push_back(e);
    for (auto c = below[e.index].rbegin(); c != below[e.index].rend(); ++c) stack.push_back({*c, e.depth + 1});
  }
  return out;
}

}  // namespace

std::vector<TreeEntry> metricsDepthFirst(const Report& report) { return depthFirst(report.metrics); }
std::vector<TreeEntry> callPathsDepthFirst(const Report& report) { return depthFirst(report.callPaths); }

std::vector<std::vector<std::uint32_t>> metricChildren(const Report& report) { return children(report.metrics); }
std::vector<std::vector<std::uint32_t>> callPathChildren(const Report& report) { return children(report.callPaths); }

std::vector<double> metricTotals(const Report& report) {
  std::vector<double> exclusive(report.metrics.size(), 0.0);
  for (const SeverityRow& row : report.severities) {
    if (row.metric >= exclusive.size()) continue;
    for (const double v : row.values) exclusive[row.metric] += v;
  }
  std::vector<double> inclusive = exclusive;
  for (std::size_t i = report.metrics.size(); i-- > 0;) {
    const std::uint32_t p = report.metrics[i].parent;
    if (p != kNoId && p < i) inclusive[p] += inclusive[i];
  }
  return inclusive;
}

std::vector<double> valuesByCallPath(const Report& report, std::uint32_t metric) {
  const std::vector<char> in = metricSubtree(report, metric);
  std::vector<double> out(report.callPaths.size(), 0.0);
  for (const SeverityRow& row : report.severities) {
    if (row.metric >= in.size() || !in[row.metric] || row.callPath >= out.size()) continue;
    for (const double v : row.values) out[row.callPath] += v;
  }
  return out;
}

std::vector<double> valuesByLocation(const Report& report, std::uint32_t metric) {
  const std::vector<char> in = metricSubtree(report, metric);
  std::vector<double> out(report.locations.size(), 0.0);
  for (const SeverityRow& row : report.severities) {
    if (row.metric >= in.size() || !in[row.metric]) continue;
    for (std::size_t l = 0; l < row.values.size() && l < out.size(); ++l) out[l] += row.values[l];
  }
  return out;
}

std::vector<double> valuesByLocation(const Report& report, std::uint32_t metric, std::uint32_t callPath) {
  const std::vector<char> in = metricSubtree(report, metric);
  std::vector<double> out(report.locations.size(), 0.0);
  for (const SeverityRow& row : report.severities) {
    if (row.callPath != callPath || row.metric >= in.size() || !in[row.metric]) continue;
    for (std::size_t l = 0; l < row.values.size() && l < out.size(); ++l) out[l] += row.values[l];
  }
  return out;
}

std::vector<std::vector<double>> valuesByCallPathAndLocation(const Report& report, std::uint32_t metric) {
  const std::vector<char> in = metricSubtree(report, metric);
  std::vector<std::vector<double>> out(report.callPaths.size());
  for (const SeverityRow& row : report.severities) {
    if (row.metric >= in.size() || !in[row.metric] || row.callPath >= out.size()) continue;
    std::vector<double>& values = out[row.callPath];
    values.resize(report.locations.size(), 0.0);
    for (std::size_t l = 0; l < row.values.size() && l < values.size(); ++l) values[l] += row.values[l];
  }
  return out;
}

std::string callPathString(const Report& report, std::uint32_t callPath) {
  std::vector<std::uint32_t> chain;
  for (std::uint32_t c = callPath; c != kNoId && c < report.callPaths.size() && chain.size() <= report.callPaths.size();
       c = report.callPaths[c].parent)
    chain.push_back(c);
  std::string out;
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    if (!out.empty()) out += '/';
    const std::uint32_t region = report.callPaths[*it].region;
    out += region < report.regions.size() ? report.regions[region].name : std::string("?");
  }
  return out;
}

namespace {

// Indices must name an element; parents must come first, which also rules out cycles.
template <typename Node>
std::string parentProblem(const std::vector<Node>& nodes, const char* what) {
  for (std::size_t i = 0; i < nodes.size(); ++i)
    if (nodes[i].parent != kNoId && nodes[i].parent >= i)
      return std::string(what) + " " + std::to_string(i) + ": parent " + std::to_string(nodes[i].parent) +
             " is not before it";
  return {};
}

std::string outOfRange(const char* what, std::size_t i, const char* field, std::uint32_t value) {
  return std::string(what) + " " + std::to_string(i) + ": " + field + " " + std::to_string(value) + " out of range";
}

}  // namespace

std::string instanceProblem(const Report& report, const Instance& s, std::size_t i) {
  const std::size_t locations = report.locations.size();
  if (s.metric >= report.metrics.size()) return outOfRange("instance", i, "metric", s.metric);
  if (s.location >= locations) return outOfRange("instance", i, "location", s.location);
  if (s.callPath >= report.callPaths.size()) return outOfRange("instance", i, "call path", s.callPath);
  if (s.cause != kNoId && s.cause >= locations) return outOfRange("instance", i, "cause", s.cause);
  if (!std::isfinite(s.start) || !std::isfinite(s.end)) return "instance " + std::to_string(i) + ": time not finite";
  return {};
}

std::string firstProblem(const Report& report) {
  const std::size_t metrics = report.metrics.size(), callPaths = report.callPaths.size(),
                    locations = report.locations.size();
  std::string problem = parentProblem(report.metrics, "metric");
  if (problem.empty()) problem = parentProblem(report.callPaths, "call path");
  if (problem.empty()) problem = parentProblem(report.systemNodes, "system node");
  if (!problem.empty()) return problem;
  std::unordered_map<std::string, std::size_t> names;
  for (std::size_t i = 0; i < report.meta.size(); ++i)
    if (!names.emplace(report.meta[i].first, i).second)
      return "meta entries " + std::to_string(names[report.meta[i].first]) + " and " + std::to_string(i) +
             " have the same key";
  names.clear();
  for (std::size_t i = 0; i < metrics; ++i) {
    if (report.metrics[i].uniqueName.empty()) return "metric " + std::to_string(i) + ": empty unique name";
    if (!names.emplace(report.metrics[i].uniqueName, i).second)
      return "metrics " + std::to_string(names[report.metrics[i].uniqueName]) + " and " + std::to_string(i) +
             " have the same unique name";
  }
  for (std::size_t i = 0; i < callPaths; ++i)
    if (report.callPaths[i].region >= report.regions.size())
      return outOfRange("call path", i, "region", report.callPaths[i].region);
  for (std::size_t i = 0; i < locations; ++i) {
    const std::uint32_t node = report.locations[i].systemNode;
    if (node != kNoId && node >= report.systemNodes.size()) return outOfRange("location", i, "system node", node);
  }
  std::vector<std::uint64_t> keys;
  keys.reserve(report.severities.size());
  for (std::size_t i = 0; i < report.severities.size(); ++i) {
    const SeverityRow& row = report.severities[i];
    if (row.metric >= metrics) return outOfRange("severity row", i, "metric", row.metric);
    if (row.callPath >= callPaths) return outOfRange("severity row", i, "call path", row.callPath);
    if (row.values.size() != locations)
      return "severity row " + std::to_string(i) + ": " + std::to_string(row.values.size()) + " values for " +
             std::to_string(locations) + " locations";
    if (!std::all_of(row.values.begin(), row.values.end(), [](double v) { return std::isfinite(v); }))
      return "severity row " + std::to_string(i) + ": a value is not finite";
    keys.push_back(std::uint64_t{row.metric} << 32 | row.callPath);
  }
  std::sort(keys.begin(), keys.end());
  if (const auto twin = std::adjacent_find(keys.begin(), keys.end()); twin != keys.end())
    return "two severity rows for metric " + std::to_string(*twin >> 32) + " and call path " +
           std::to_string(*twin & 0xffffffffU);
  for (std::size_t i = 0; i < report.instances.size(); ++i)
    if (std::string bad = instanceProblem(report, report.instances[i], i); !bad.empty()) return bad;
  for (std::size_t i = 0; i < report.criticalPath.size(); ++i) {
    const PathSegment& s = report.criticalPath[i];
    if (s.location >= locations) return outOfRange("critical-path segment", i, "location", s.location);
    if (s.callPath >= callPaths) return outOfRange("critical-path segment", i, "call path", s.callPath);
    if (!std::isfinite(s.start) || !std::isfinite(s.end))
      return "critical-path segment " + std::to_string(i) + ": time not finite";
  }
  return {};
}

}  // namespace waitscope::report
