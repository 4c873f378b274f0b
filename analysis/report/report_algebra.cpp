#include "analysis/report/report_algebra.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>
#include <unordered_map>

#include "analysis/report/report_queries.h"
#include "analysis/report/report_schema.h"

namespace waitscope::report {
namespace {

std::uint64_t rowKey(std::uint32_t metric, std::uint32_t callPath) { return std::uint64_t{metric} << 32 | callPath; }

// Where one input's metrics, call paths and locations are in the union.
struct Mapping {
  std::vector<std::uint32_t> metric, callPath, location;
};

// The union of several runs' metrics, regions, call paths and locations, built run by run. The
// first run gives the order; later runs add what it lacks after it, so parents stay first.
class UnionStructure {
 public:
  // allRanks: one location "All ranks" instead of the ranks (runs with different rank counts).
  UnionStructure(const Report& first, bool allRanks) : allRanks_(allRanks) {
    if (allRanks) {
      skeleton_.locations = {{"All ranks", 0, kNoId}};
    } else {
      skeleton_.systemNodes = first.systemNodes;
      skeleton_.locations = first.locations;
      for (std::uint32_t l = 0; l < first.locations.size(); ++l)
        locationIndex_.emplace(locationKey(first.locations[l]), l);
    }
  }

  const Report& skeleton() const { return skeleton_; }
  const std::vector<std::vector<bool>>& callPathIn() const { return callPathIn_; }

  Mapping add(const Report& run) {
    const std::size_t runIndex = runs_++;
    Mapping map;
    map.metric.resize(run.metrics.size());
    for (std::uint32_t m = 0; m < run.metrics.size(); ++m) map.metric[m] = addMetric(run, m, map.metric);
    std::vector<std::uint32_t> region(run.regions.size());
    for (std::uint32_t r = 0; r < run.regions.size(); ++r) region[r] = addRegion(run.regions[r]);
    addCallPaths(run, region, runIndex, map.callPath);
    map.location.resize(run.locations.size(), 0);
    if (!allRanks_)
      for (std::uint32_t l = 0; l < run.locations.size(); ++l) map.location[l] = addLocation(run.locations[l]);
    return map;
  }

 private:
  // A process is known by its rank; a thread or stream by its process and name, so that
  // "OMP thread 1" of rank 0 meets its namesake in the other run.
  static std::string locationKey(const Location& l) {
    if (l.kind == LocationKind::Process) return "p" + std::to_string(l.rank);
    return std::to_string(static_cast<int>(l.kind)) + "/" + std::to_string(l.rank) + "/" + l.name;
  }
  // Processes are the same in every run (haveSameRanks); a thread one run lacks is added after
  // the others, so the processes stay first.
  std::uint32_t addLocation(const Location& l) {
    const auto [it, added] =
        locationIndex_.emplace(locationKey(l), static_cast<std::uint32_t>(skeleton_.locations.size()));
    if (added) skeleton_.locations.push_back(l);
    return it->second;
  }

  std::uint32_t addMetric(const Report& run, std::uint32_t m, const std::vector<std::uint32_t>& mapped) {
    const Metric& metric = run.metrics[m];
    const auto [it, added] = metricIndex_.emplace(metric.uniqueName, skeleton_.metrics.size());
    if (added) {
      Metric copy = metric;
      if (metric.parent != kNoId) copy.parent = mapped[metric.parent];
      skeleton_.metrics.push_back(std::move(copy));
    }
    return static_cast<std::uint32_t>(it->second);
  }

  std::uint32_t addRegion(const Region& region) {
    const auto [it, added] = regionIndex_.emplace(region.name + '\0' + region.file, skeleton_.regions.size());
    if (added) skeleton_.regions.push_back(region);
    return static_cast<std::uint32_t>(it->second);
  }

  // The union's call paths below `parent` (kNoId: the roots).
  std::vector<std::uint32_t>& childrenOf(std::uint32_t parent) {
    return parent == kNoId ? roots_ : children_[parent];
  }

  const std::string& regionName(std::uint32_t callPath) const {
    return skeleton_.regions[skeleton_.callPaths[callPath].region].name;
  }

  // Pairs the run's children of one call path with the union's: the same region name and call
  // site first, then the rest of each name in order of appearance (code edits shift lines).
  // Returns the union call path of each run child, kNoId where there is none.
  std::vector<std::uint32_t> matchSiblings(const Report& run, const std::vector<std::uint32_t>& runKids,
                                           const std::vector<std::uint32_t>& unionKids) const {
    // Candidates in order of appearance, by region name and by name and call site; each list is
    // consumed from the front (taken ones skipped), so matching stays linear in the siblings.
    struct Queue {
      std::vector<std::uint32_t> kids;
      std::size_t next = 0;
    };
    const auto siteKey = [](const std::string& name, const CallPath& c) {
      return name + '\0' + c.callSiteFile + '\0' + std::to_string(c.callSiteLine);
    };
    std::unordered_map<std::string, Queue> byName, bySite;
    for (const std::uint32_t u : unionKids) {
      byName[regionName(u)].kids.push_back(u);
      bySite[siteKey(regionName(u), skeleton_.callPaths[u])].kids.push_back(u);
    }
    std::unordered_map<std::uint32_t, char> taken;
    const auto take = [&](std::unordered_map<std::string, Queue>& queues, const std::string& key) {
      const auto it = queues.find(key);
      if (it == queues.end()) return kNoId;
      Queue& q = it->second;
      while (q.next < q.kids.size() && taken[q.kids[q.next]]) ++q.next;
      if (q.next == q.kids.size()) return kNoId;
      taken[q.kids[q.next]] = 1;
      return q.kids[q.next++];
    };
    std::vector<std::uint32_t> match(runKids.size(), kNoId);
    for (std::size_t i = 0; i < runKids.size(); ++i) {
      const CallPath& c = run.callPaths[runKids[i]];
      match[i] = take(bySite, siteKey(run.regions[c.region].name, c));
    }
    for (std::size_t i = 0; i < runKids.size(); ++i)
      if (match[i] == kNoId) match[i] = take(byName, run.regions[run.callPaths[runKids[i]].region].name);
    return match;
  }

  std::uint32_t newCallPath(const CallPath& from, std::uint32_t parent, std::uint32_t region) {
    const auto index = static_cast<std::uint32_t>(skeleton_.callPaths.size());
    skeleton_.callPaths.push_back({parent, region, from.callSiteFile, from.callSiteLine});
    children_.emplace_back();
    childrenOf(parent).push_back(index);
    for (auto& in : callPathIn_) in.push_back(false);
    return index;
  }

  void addCallPaths(const Report& run, const std::vector<std::uint32_t>& region, std::size_t runIndex,
                    std::vector<std::uint32_t>& map) {
    const std::vector<std::vector<std::uint32_t>> runChildren = callPathChildren(run);
    std::vector<std::uint32_t> runRoots;
    for (std::uint32_t c = 0; c < run.callPaths.size(); ++c)
      if (run.callPaths[c].parent == kNoId) runRoots.push_back(c);
    callPathIn_.emplace_back(skeleton_.callPaths.size(), false);
    map.assign(run.callPaths.size(), kNoId);
    // Parents come first, so each group of siblings is matched once its parent has its place.
    const auto placeGroup = [&](std::uint32_t unionParent, const std::vector<std::uint32_t>& kids) {
      const std::vector<std::uint32_t> match = matchSiblings(run, kids, childrenOf(unionParent));
      for (std::size_t i = 0; i < kids.size(); ++i) {
        const CallPath& c = run.callPaths[kids[i]];
        map[kids[i]] = match[i] != kNoId ? match[i] : newCallPath(c, unionParent, region[c.region]);
        callPathIn_[runIndex][map[kids[i]]] = true;
      }
    };
    placeGroup(kNoId, runRoots);
    for (std::uint32_t c = 0; c < run.callPaths.size(); ++c)
      if (!runChildren[c].empty()) placeGroup(map[c], runChildren[c]);
  }

  bool allRanks_;
  std::size_t runs_ = 0;
  Report skeleton_;
  std::unordered_map<std::string, std::size_t> metricIndex_, regionIndex_;
  std::unordered_map<std::string, std::uint32_t> locationIndex_;
  std::vector<std::uint32_t> roots_;
  std::vector<std::vector<std::uint32_t>> children_;
  std::vector<std::vector<bool>> callPathIn_;  // [run][union call path]
};

}  // namespace

bool haveSameRanks(const Report& a, const Report& b) {
  if (a.processCount() != b.processCount()) return false;
  std::vector<std::uint32_t> ra, rb;
  for (std::size_t l = 0; l < a.processCount(); ++l) ra.push_back(a.locations[l].rank);
  for (std::size_t l = 0; l < b.processCount(); ++l) rb.push_back(b.locations[l].rank);
  std::sort(ra.begin(), ra.end());
  std::sort(rb.begin(), rb.end());
  return ra == rb && std::adjacent_find(ra.begin(), ra.end()) == ra.end();
}

namespace {

// The run's values over the union: rows re-keyed, values moved to their union location (or
// summed into "All ranks"); rows that end up all zero are left out, as in every report.
std::vector<SeverityRow> mapRows(const Report& run, const Mapping& map, std::size_t locations) {
  std::vector<SeverityRow> rows;
  rows.reserve(run.severities.size());
  for (const SeverityRow& row : run.severities) {
    SeverityRow out{map.metric[row.metric], map.callPath[row.callPath], std::vector<double>(locations, 0.0)};
    for (std::size_t l = 0; l < row.values.size(); ++l) out.values[map.location[l]] += row.values[l];
    if (std::any_of(out.values.begin(), out.values.end(), [](double v) { return v != 0.0; }))
      rows.push_back(std::move(out));
  }
  return rows;
}

// The run over the union structure. With allRanks a wait state keeps no causing location.
Report overUnion(const Report& run, const Report& skeleton, const Mapping& map, bool allRanks) {
  Report out = skeleton;
  out.meta = run.meta;
  out.severities = mapRows(run, map, skeleton.locations.size());
  for (const Instance& s : run.instances)
    out.instances.push_back({map.metric[s.metric], map.location[s.location], map.callPath[s.callPath], s.start,
                             s.end, s.cause == kNoId || allRanks ? kNoId : map.location[s.cause]});
  for (const PathSegment& s : run.criticalPath)
    out.criticalPath.push_back({map.location[s.location], map.callPath[s.callPath], s.start, s.end});
  return out;
}

// A run's name in the meta of a derived report: its trace, or what its own meta says it is.
std::string runName(const Report& run) {
  std::string name = run.metaValue("trace");
  if (name.empty()) name = run.metaValue("report");
  return name.empty() ? std::string("(unnamed run)") : name;
}

// op(a, b) value by value for every (metric, call path) of either report over the same structure
// (a missing row counts as zeros); a row is left out where op gives no value, or all zeros.
template <typename Op>
std::vector<SeverityRow> combineRows(const Report& a, const Report& b, Op op) {
  const std::size_t locations = a.locations.size();
  std::unordered_map<std::uint64_t, std::size_t> inB;
  inB.reserve(b.severities.size());
  for (std::size_t i = 0; i < b.severities.size(); ++i)
    inB.emplace(rowKey(b.severities[i].metric, b.severities[i].callPath), i);
  const std::vector<double> zeros(locations, 0.0);
  std::vector<char> usedB(b.severities.size(), 0);
  std::vector<SeverityRow> rows;
  const auto emit = [&](std::uint32_t metric, std::uint32_t callPath, const std::vector<double>& va,
                        const std::vector<double>& vb) {
    SeverityRow row{metric, callPath, std::vector<double>(locations)};
    bool nonZero = false;
    for (std::size_t l = 0; l < locations; ++l) {
      const std::optional<double> v = op(va[l], vb[l]);
      if (!v) return;  // a value the report cannot hold: the whole row is left out
      row.values[l] = *v;
      nonZero = nonZero || *v != 0.0;
    }
    if (nonZero) rows.push_back(std::move(row));
  };
  for (const SeverityRow& row : a.severities) {
    const auto it = inB.find(rowKey(row.metric, row.callPath));
    if (it != inB.end()) usedB[it->second] = 1;
    emit(row.metric, row.callPath, row.values, it == inB.end() ? zeros : b.severities[it->second].values);
  }
  for (std::size_t i = 0; i < b.severities.size(); ++i)
    if (!usedB[i]) emit(b.severities[i].metric, b.severities[i].callPath, zeros, b.severities[i].values);
  return rows;
}

Report derivedReport(const AlignedReports& aligned, std::vector<std::pair<std::string, std::string>> meta) {
  Report out = aligned.a;
  out.meta = std::move(meta);
  out.severities.clear();
  out.instances.clear();
  out.criticalPath.clear();
  return out;
}

// Per process, values per location: a hybrid run's threads and streams added to their process,
// so that per-rank summaries are about ranks. Reports of processes only pass unchanged.
std::vector<std::vector<double>> perProcess(const Report& run, std::vector<std::vector<double>> values) {
  const std::size_t processes = run.processCount();
  if (processes == run.locations.size()) return values;
  std::unordered_map<std::uint32_t, std::size_t> processOfRank;
  for (std::size_t p = 0; p < processes; ++p) processOfRank.emplace(run.locations[p].rank, p);
  for (std::vector<double>& v : values) {
    for (std::size_t l = processes; l < v.size() && l < run.locations.size(); ++l)
      if (const auto it = processOfRank.find(run.locations[l].rank); it != processOfRank.end()) v[it->second] += v[l];
    v.resize(std::min(v.size(), processes));
  }
  return values;
}

// Per location, the metric-inclusive value of every metric: one pass over the rows, then each
// metric added to its parent (children come after their parents).
std::vector<std::vector<double>> inclusiveByLocation(const Report& run) {
  std::vector<std::vector<double>> values(run.metrics.size(), std::vector<double>(run.locations.size(), 0.0));
  for (const SeverityRow& row : run.severities)
    for (std::size_t l = 0; l < row.values.size(); ++l) values[row.metric][l] += row.values[l];
  for (std::size_t m = run.metrics.size(); m-- > 0;) {
    const std::uint32_t parent = run.metrics[m].parent;
    if (parent == kNoId) continue;
    for (std::size_t l = 0; l < run.locations.size(); ++l) values[parent][l] += values[m][l];
  }
  return values;
}

struct Summary {
  double total = 0.0, mean = 0.0, min = 0.0, max = 0.0;
};

Summary summarize(const std::vector<double>& perRank) {
  Summary s;
  if (perRank.empty()) return s;
  s.min = s.max = perRank.front();
  for (const double v : perRank) {
    s.total += v;
    s.min = std::min(s.min, v);
    s.max = std::max(s.max, v);
  }
  s.mean = s.total / static_cast<double>(perRank.size());
  return s;
}

void requireSameRanks(const std::vector<const Report*>& runs, const char* what) {
  if (runs.empty()) throw std::runtime_error(std::string(what) + " needs at least one run");
  for (std::size_t i = 1; i < runs.size(); ++i)
    if (!haveSameRanks(*runs[0], *runs[i]))
      throw std::runtime_error("run " + std::to_string(i + 1) + " (" + runName(*runs[i]) + ") has " +
                               std::to_string(runs[i]->processCount()) + " ranks and run 1 (" + runName(*runs[0]) +
                               ") " + std::to_string(runs[0]->processCount()) + ": the " + what +
                               " needs runs with the same ranks");
}

// The union structure of runs with the same ranks, without values, its meta naming `kind` and
// the runs; maps gets where each run's metrics, call paths and locations went.
Report uniteSameRanks(const std::vector<const Report*>& runs, const char* kind, std::vector<Mapping>& maps) {
  requireSameRanks(runs, kind);
  UnionStructure structure(*runs[0], false);
  for (const Report* run : runs) maps.push_back(structure.add(*run));
  Report out = structure.skeleton();
  out.meta = {{"format_version", detail::kFormatVersion}, {"kind", kind}, {"runs", std::to_string(runs.size())}};
  for (std::size_t r = 0; r < runs.size(); ++r)
    out.meta.emplace_back("run_" + std::to_string(r + 1), runName(*runs[r]));
  return out;
}

}  // namespace

double MetricComparison::ratio() const {
  if (totalA == 0.0) {
    if (totalB == 0.0) return 0.0;
    return totalB > 0.0 ? std::numeric_limits<double>::infinity() : -std::numeric_limits<double>::infinity();
  }
  return totalB / totalA;
}

AlignedReports alignReports(const Report& a, const Report& b) {
  AlignedReports out;
  out.sameRanks = haveSameRanks(a, b);
  UnionStructure structure(a, !out.sameRanks);
  const Mapping mapA = structure.add(a);
  const Mapping mapB = structure.add(b);
  out.a = overUnion(a, structure.skeleton(), mapA, !out.sameRanks);
  out.b = overUnion(b, structure.skeleton(), mapB, !out.sameRanks);
  const std::vector<std::vector<bool>>& in = structure.callPathIn();
  out.callPathPresence.resize(structure.skeleton().callPaths.size());
  for (std::size_t c = 0; c < out.callPathPresence.size(); ++c) {
    const bool inA = c < in[0].size() && in[0][c], inB = in[1][c];
    out.callPathPresence[c] = inA && inB ? Presence::Both : inA ? Presence::OnlyA : Presence::OnlyB;
  }
  out.difference = derivedReport(out, {{"format_version", detail::kFormatVersion},
                                       {"kind", "difference"},
                                       {"minuend", runName(b)},
                                       {"subtrahend", runName(a)}});
  out.difference.severities =
      combineRows(out.a, out.b, [](double va, double vb) -> std::optional<double> { return vb - va; });
  return out;
}

Report differenceReport(const Report& a, const Report& b) { return alignReports(a, b).difference; }

Report ratioReport(const Report& a, const Report& b) {
  AlignedReports aligned = alignReports(a, b);
  Report out = derivedReport(aligned, {{"format_version", detail::kFormatVersion},
                                       {"kind", "ratio"},
                                       {"numerator", runName(b)},
                                       {"denominator", runName(a)}});
  out.severities = combineRows(aligned.a, aligned.b, [](double va, double vb) -> std::optional<double> {
    if (va == 0.0) return vb == 0.0 ? std::optional<double>(0.0) : std::nullopt;
    const double r = vb / va;
    return std::isfinite(r) ? std::optional<double>(r) : std::nullopt;
  });
  return out;
}

Report meanReport(const std::vector<const Report*>& runs) {
  std::vector<Mapping> maps;
  Report out = uniteSameRanks(runs, "mean", maps);
  std::unordered_map<std::uint64_t, std::size_t> rowIndex;
  std::vector<SeverityRow> sums;
  for (std::size_t r = 0; r < runs.size(); ++r)
    for (SeverityRow& row : mapRows(*runs[r], maps[r], out.locations.size())) {
      const auto [it, added] = rowIndex.emplace(rowKey(row.metric, row.callPath), sums.size());
      if (added) {
        sums.push_back(std::move(row));
      } else {
        for (std::size_t l = 0; l < row.values.size(); ++l) sums[it->second].values[l] += row.values[l];
      }
    }
  const auto n = static_cast<double>(runs.size());
  for (SeverityRow& row : sums) {
    for (double& v : row.values) v /= n;
    if (std::any_of(row.values.begin(), row.values.end(), [](double v) { return v != 0.0; }))
      out.severities.push_back(std::move(row));
  }
  return out;
}

Report mergeReports(const std::vector<const Report*>& runs) {
  std::vector<Mapping> maps;
  Report out = uniteSameRanks(runs, "merge", maps);
  // Each metric comes from the first run that has it.
  std::vector<std::size_t> source(out.metrics.size(), runs.size());
  for (std::size_t r = runs.size(); r-- > 0;)
    for (const std::uint32_t m : maps[r].metric) source[m] = r;
  for (std::size_t r = 0; r < runs.size(); ++r)
    for (SeverityRow& row : mapRows(*runs[r], maps[r], out.locations.size()))
      if (source[row.metric] == r) out.severities.push_back(std::move(row));
  return out;
}

std::vector<MetricComparison> compareMetrics(const Report& a, const Report& b) {
  // Only the metric tree is united: totals and per-rank values come from each run as it is.
  Report tree;
  std::unordered_map<std::string, std::uint32_t> index;
  std::vector<std::uint32_t> fromA(a.metrics.size()), fromB(b.metrics.size());
  for (const Report* run : {&a, &b}) {
    std::vector<std::uint32_t>& map = run == &a ? fromA : fromB;
    for (std::uint32_t m = 0; m < run->metrics.size(); ++m) {
      const auto [it, added] = index.emplace(run->metrics[m].uniqueName, tree.metrics.size());
      if (added) {
        Metric copy = run->metrics[m];
        if (copy.parent != kNoId) copy.parent = map[copy.parent];
        tree.metrics.push_back(std::move(copy));
      }
      map[m] = it->second;
    }
  }
  std::vector<Summary> inA(tree.metrics.size()), inB(tree.metrics.size());
  const std::vector<std::vector<double>> valuesA = perProcess(a, inclusiveByLocation(a)),
                                         valuesB = perProcess(b, inclusiveByLocation(b));
  for (std::size_t m = 0; m < a.metrics.size(); ++m) inA[fromA[m]] = summarize(valuesA[m]);
  for (std::size_t m = 0; m < b.metrics.size(); ++m) inB[fromB[m]] = summarize(valuesB[m]);
  std::vector<MetricComparison> out;
  for (const TreeEntry& e : metricsDepthFirst(tree)) {
    const Metric& m = tree.metrics[e.index];
    const Summary &sa = inA[e.index], &sb = inB[e.index];
    out.push_back({m.uniqueName, m.displayName, m.unit, e.depth, sa.total, sb.total, sa.mean, sa.min, sa.max, sb.mean,
                   sb.min, sb.max});
  }
  return out;
}

}  // namespace waitscope::report
