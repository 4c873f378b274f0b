#include "analysis/timeline/time_window_profile.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>

#include "analysis/metrics/metric_table.h"
#include "analysis/metrics/mpi_category.h"

namespace waitscope::timeline {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

std::uint64_t rowKey(std::uint32_t metric, std::uint32_t callPath) {
  return (static_cast<std::uint64_t>(metric) << 32) | callPath;
}

// The metric a region's time goes to, as the analyzer's time metrics decide it
// (analysis/patterns/time_metrics.cpp), from what the report keeps of the region.
std::string_view categoryName(const report::Region& region) {
  const bool mpiName = region.name.starts_with("MPI_");
  if (region.paradigm != "mpi" && !mpiName) return metrics::definition(metrics::Metric::Comp).uniqueName;
  if (!mpiName) return metrics::definition(metrics::Metric::Mpi).uniqueName;
  return metrics::definition(metrics::mpiTimeCategory(region.name)).uniqueName;
}

double overlap(double a, double b, double from, double to) {
  return std::max(0.0, std::min(b, to) - std::max(a, from));
}

}  // namespace

// Metric values per (metric, call path) before they are made metric-exclusive:
// a roll-up holds the sum of its children, a pattern its instances and its
// sub-patterns' (as the analyzer's Severities hold them).
struct TimeWindowProfiler::Rows {
  std::unordered_map<std::uint64_t, std::vector<double>> raw;
  std::size_t locations = 0;
  std::vector<double>& row(std::uint32_t metric, std::uint32_t callPath) {
    std::vector<double>& r = raw[rowKey(metric, callPath)];
    if (r.empty()) r.assign(locations, 0.0);
    return r;
  }
};

TimeWindowProfiler::TimeWindowProfiler(const report::Report& report, const TimelineIndex& index)
    : report_(report), index_(index) {
  const std::size_t nm = report.metrics.size();
  partOfParent_.assign(nm, 0);
  computed_.assign(nm, 0);
  std::vector<char> known(nm, 0);
  for (std::uint32_t m = 0; m < nm; ++m)
    for (const metrics::MetricDefinition& d : metrics::metricTable())
      if (d.uniqueName == report.metrics[m].uniqueName) {
        partOfParent_[m] = d.partOfParent;
        known[m] = 1;
      }
  // An instance counts in its pattern and in every pattern above it, up to the
  // time category (Late Sender / wrong order is Late Sender time, which is
  // point-to-point time already).
  patternChain_.assign(nm, 0);
  for (std::uint32_t m = 0; m < nm; ++m) {
    const std::uint32_t p = report.metrics[m].parent;
    patternChain_[m] = partOfParent_[m] && p != report::kNoId && partOfParent_[p];
  }
  const std::uint32_t timeMetric = report.findMetric("time");
  visits_ = report.findMetric("visits");
  criticalPath_ = report.findMetric("critical_path");
  for (std::uint32_t m = 0; m < nm; ++m) {
    if (!known[m]) continue;
    std::uint32_t root = m;
    while (report.metrics[root].parent != report::kNoId) root = report.metrics[root].parent;
    const bool seconds = report.metrics[m].unit == report::MetricUnit::Seconds;
    computed_[m] = (root == timeMetric && seconds) || m == visits_ || (root == criticalPath_ && seconds);
  }

  category_.assign(report.callPaths.size(), report::kNoId);
  depth_.assign(report.callPaths.size(), 0);
  for (std::uint32_t c = 0; c < report.callPaths.size(); ++c) {
    const report::CallPath& p = report.callPaths[c];
    if (p.parent != report::kNoId) depth_[c] = depth_[p.parent] + 1;
    if (p.region < report.regions.size())
      category_[c] = report.findMetric(std::string(categoryName(report.regions[p.region])));
  }

  // A sub-pattern's instance counts in its parent pattern, unless the parent has an instance of
  // its own for the same call, which already covers it (Wait at Fence holds the whole wait of a
  // fence, Early Fence the part of it spent on transfers). Decided once here, from the
  // instances sorted by (metric, location, call path, start), so that a window pays nothing.
  using InstanceKey = std::tuple<std::uint32_t, std::uint32_t, std::uint32_t, double>;
  std::vector<InstanceKey> own;
  own.reserve(report.instances.size());
  for (const report::Instance& in : report.instances) own.emplace_back(in.metric, in.location, in.callPath, in.start);
  std::sort(own.begin(), own.end());
  chainTop_.assign(report.instances.size(), report::kNoId);
  for (std::size_t k = 0; k < report.instances.size(); ++k) {
    const report::Instance& in = report.instances[k];
    if (in.metric >= nm) continue;
    std::uint32_t m = in.metric;
    while (patternChain_[m] &&
           !std::binary_search(own.begin(), own.end(),
                               InstanceKey{report.metrics[m].parent, in.location, in.callPath, in.start}))
      m = report.metrics[m].parent;
    chainTop_[k] = m;
  }

  // The whole-trace check: a metric is available when the window computation
  // over the whole trace gives the report's values.
  available_ = computed_;
  Rows whole = compute(-kInf, kInf);
  std::unordered_map<std::uint64_t, const report::SeverityRow*> stored;
  for (const report::SeverityRow& s : report.severities) stored[rowKey(s.metric, s.callPath)] = &s;
  std::vector<double> scale(nm, 0.0);
  for (const report::SeverityRow& s : report.severities)
    for (double v : s.values) scale[s.metric] += std::abs(v);
  const auto close = [&](std::uint32_t m, double a, double b) { return std::abs(a - b) <= 1e-9 * scale[m] + 1e-12; };
  // Every stored row against the computed one, then every computed row that the report lacks.
  for (const report::SeverityRow& s : report.severities) {
    if (!available_[s.metric]) continue;
    const auto it = whole.raw.find(rowKey(s.metric, s.callPath));
    for (std::size_t l = 0; l < s.values.size() && available_[s.metric]; ++l)
      if (!close(s.metric, s.values[l], it == whole.raw.end() ? 0.0 : it->second[l])) available_[s.metric] = 0;
  }
  for (const auto& [key, values] : whole.raw) {
    const auto m = static_cast<std::uint32_t>(key >> 32);
    if (!available_[m] || stored.count(key)) continue;
    for (double v : values)
      if (!close(m, 0.0, v)) available_[m] = 0;
  }
  // A metric's inclusive value needs every metric below it (children come after parents).
  for (std::uint32_t m = static_cast<std::uint32_t>(nm); m-- > 0;) {
    const std::uint32_t p = report.metrics[m].parent;
    if (!available_[m] && p != report::kNoId) available_[p] = 0;
  }
}

TimeWindowProfiler::Rows TimeWindowProfiler::compute(double from, double to) const {
  const report::Report& r = report_;
  Rows rows;
  rows.locations = r.locations.size();
  std::unordered_map<std::uint64_t, std::vector<double>>& raw = rows.raw;
  const std::size_t nc = r.callPaths.size();
  // As the analyzer's Severities::add: a roll-up also holds its children's values.
  const auto addUp = [&](std::uint32_t metric, std::uint32_t callPath, std::size_t loc, double v) {
    for (std::uint32_t m = metric; m != report::kNoId;) {
      if (computed_[m]) rows.row(m, callPath)[loc] += v;
      if (partOfParent_[m]) break;
      m = r.metrics[m].parent;
    }
  };
  const auto valid = [&](std::uint32_t c) { return c < nc; };

  std::vector<double> exclusiveTime(nc, 0.0);  // over locations, for the critical path's imbalance
  const std::size_t nl = std::min(index_.locations.size(), r.locations.size());
  for (std::size_t loc = 0; loc < nl; ++loc) {
    const LocationTimeline& lt = index_.locations[loc];
    if (lt.levels.empty()) continue;
    const std::span<const RegionPoint> pts = lt.levels.front().points();
    if (pts.size() < 2) continue;
    // The first interval that can reach `from`: the one holding it.
    auto it = std::upper_bound(pts.begin(), pts.end(), from,
                               [](double t, const RegionPoint& p) { return t < p.start; });
    std::size_t i = it == pts.begin() ? 0 : static_cast<std::size_t>(it - pts.begin()) - 1;
    for (; i + 1 < pts.size() && pts[i].start < to; ++i) {
      const std::uint32_t c = pts[i].callPath;
      if (!valid(c)) continue;
      const double t = overlap(pts[i].start, pts[i + 1].start, from, to);
      if (category_[c] != report::kNoId) addUp(category_[c], c, loc, t);
      exclusiveTime[c] += t;
      // Visits: the call paths entered here, those on c's branch that are not on the previous one's.
      if (visits_ != report::kNoId && pts[i].start >= from) {
        std::uint32_t x = c;
        std::uint32_t y = i > 0 && valid(pts[i - 1].callPath) ? pts[i - 1].callPath : report::kNoId;
        const auto parent = [&](std::uint32_t p) { return r.callPaths[p].parent; };
        while (x != report::kNoId && (y == report::kNoId || depth_[x] > depth_[y])) {
          addUp(visits_, x, loc, 1.0);
          x = parent(x);
        }
        while (y != report::kNoId && x != report::kNoId && depth_[y] > depth_[x]) y = parent(y);
        while (x != y && x != report::kNoId) {
          addUp(visits_, x, loc, 1.0);
          x = parent(x);
          y = parent(y);
        }
      }
    }
  }

  for (std::size_t k = 0; k < r.instances.size(); ++k) {
    const report::Instance& in = r.instances[k];
    if (in.location >= rows.locations || chainTop_[k] == report::kNoId || !valid(in.callPath)) continue;
    const double d = overlap(in.start, in.end, from, to);
    if (d <= 0.0) continue;
    for (std::uint32_t m = in.metric;; m = r.metrics[m].parent) {
      addUp(m, in.callPath, in.location, d);
      if (m == chainTop_[k]) break;
    }
  }

  if (criticalPath_ != report::kNoId) {
    // Time on the path per (call path, location): the segment's stretch of the
    // location's region sequence, each moment to the innermost call path.
    std::vector<double> onPath(nc, 0.0);
    for (const report::PathSegment& s : r.criticalPath) {
      if (s.location >= nl) continue;
      const double a = std::max(s.start, from), b = std::min(s.end, to);
      if (!(b > a)) continue;
      const std::span<const RegionPoint> pts = index_.locations[s.location].levels.front().points();
      auto it = std::upper_bound(pts.begin(), pts.end(), a, [](double t, const RegionPoint& p) { return t < p.start; });
      std::size_t i = it == pts.begin() ? 0 : static_cast<std::size_t>(it - pts.begin()) - 1;
      for (; i + 1 < pts.size() && pts[i].start < b; ++i) {
        const std::uint32_t c = pts[i].callPath;
        if (!valid(c)) continue;
        const double t = overlap(pts[i].start, pts[i + 1].start, a, b);
        if (t <= 0.0) continue;
        rows.row(criticalPath_, c)[s.location] += t;
        onPath[c] += t;
      }
    }
    // Imbalance (Böhme et al., IPDPS 2012, as the causes analysis computes it): the time on
    // the path beyond the call path's average time per location, shared by the locations'
    // times on the path.
    const std::uint32_t imbalance = r.findMetric("critical_path_imbalance");
    if (imbalance != report::kNoId && computed_[imbalance] && rows.locations > 0) {
      for (std::uint32_t c = 0; c < nc; ++c) {
        if (!(onPath[c] > 0.0)) continue;
        const double excess = std::max(0.0, onPath[c] - exclusiveTime[c] / static_cast<double>(rows.locations));
        if (excess <= 0.0) continue;
        const std::vector<double> share = rows.row(criticalPath_, c);
        std::vector<double>& out = rows.row(imbalance, c);
        for (std::size_t l = 0; l < out.size(); ++l) out[l] += excess * share[l] / onPath[c];
      }
    }
  }

  // Metric-exclusive, as stored in a report: each row minus its children's rows.
  std::vector<std::vector<std::uint32_t>> children(r.metrics.size());
  for (std::uint32_t m = 0; m < r.metrics.size(); ++m)
    if (r.metrics[m].parent != report::kNoId) children[r.metrics[m].parent].push_back(m);
  std::unordered_map<std::uint64_t, std::vector<double>> exclusive = raw;
  for (auto& [key, values] : exclusive) {
    const auto m = static_cast<std::uint32_t>(key >> 32);
    const auto c = static_cast<std::uint32_t>(key & 0xffffffffu);
    for (std::uint32_t child : children[m]) {
      const auto found = raw.find(rowKey(child, c));
      if (found == raw.end()) continue;
      for (std::size_t l = 0; l < values.size(); ++l) values[l] -= found->second[l];
    }
  }
  raw = std::move(exclusive);
  return rows;
}

TimeWindowProfile TimeWindowProfiler::restrict(double from, double to) const {
  TimeWindowProfile out;
  out.from = from;
  out.to = to;
  out.available = available_;
  report::Report& w = out.report;
  w.meta = report_.meta;
  w.metrics = report_.metrics;
  w.regions = report_.regions;
  w.callPaths = report_.callPaths;
  w.systemNodes = report_.systemNodes;
  w.locations = report_.locations;
  Rows rows = compute(from, to);
  for (const report::SeverityRow& s : report_.severities) {
    // In the report's row order first, so the restricted report lists rows as the report does.
    if (!available_[s.metric]) continue;
    const auto it = rows.raw.find(rowKey(s.metric, s.callPath));
    if (it == rows.raw.end()) continue;
    if (std::any_of(it->second.begin(), it->second.end(), [](double v) { return v != 0.0; }))
      w.severities.push_back({s.metric, s.callPath, it->second});
    rows.raw.erase(it);
  }
  std::vector<std::uint64_t> rest;
  for (const auto& [key, values] : rows.raw)
    if (available_[key >> 32] && std::any_of(values.begin(), values.end(), [](double v) { return v != 0.0; }))
      rest.push_back(key);
  std::sort(rest.begin(), rest.end());
  for (std::uint64_t key : rest)
    w.severities.push_back({static_cast<std::uint32_t>(key >> 32), static_cast<std::uint32_t>(key), rows.raw[key]});
  for (const report::Instance& in : report_.instances) {
    if (!(overlap(in.start, in.end, from, to) > 0.0)) continue;
    report::Instance cut = in;
    cut.start = std::max(in.start, from);
    cut.end = std::min(in.end, to);
    w.instances.push_back(cut);
  }
  for (const report::PathSegment& s : report_.criticalPath) {
    if (!(overlap(s.start, s.end, from, to) > 0.0)) continue;
    report::PathSegment cut = s;
    cut.start = std::max(s.start, from);
    cut.end = std::min(s.end, to);
    w.criticalPath.push_back(cut);
  }
  w.meta.emplace_back("time_window", std::to_string(from) + ":" + std::to_string(to));
  return out;
}

}  // namespace waitscope::timeline
