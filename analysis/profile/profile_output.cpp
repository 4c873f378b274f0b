#include "analysis/profile/profile_output.h"

#include <cmath>
#include <cstring>
#include <map>
#include <stdexcept>
#include <tuple>

#include "analysis/metrics/metric_table.h"
#include "analysis/metrics/mpi_category.h"

namespace waitscope::profile {
namespace {

// ---------------------------------------------------------------------------------------------
// Byte strings: u32/f64 in host order (all ranks of a run share it), strings with a length.
struct Writer {
  std::string out;
  template <class T>
  void raw(T v) {
    out.append(reinterpret_cast<const char*>(&v), sizeof v);
  }
  void str(const std::string& s) {
    raw(static_cast<std::uint32_t>(s.size()));
    out += s;
  }
};

struct Reader {
  const std::string& in;
  std::size_t at = 0;
  template <class T>
  T raw() {
    if (in.size() - at < sizeof(T)) throw std::runtime_error("truncated profile record");
    T v;
    std::memcpy(&v, in.data() + at, sizeof v);
    at += sizeof v;
    return v;
  }
  std::string str() {
    const auto n = raw<std::uint32_t>();
    if (in.size() - at < n) throw std::runtime_error("truncated profile record");
    std::string s = in.substr(at, n);
    at += n;
    return s;
  }
};

using metrics::Metric;

report::MetricUnit unitOf(metrics::Unit u) {
  return u == metrics::Unit::Seconds ? report::MetricUnit::Seconds
         : u == metrics::Unit::Bytes ? report::MetricUnit::Bytes
                                      : report::MetricUnit::Occurrences;
}

// The metrics a profile measures: the time tree's categories (the roll-ups whose
// exclusive value is time spent in a kind of code) and visits.
bool measuredByProfile(const metrics::MetricDefinition& def) {
  if (def.id == Metric::Visits) return true;
  if (def.partOfParent) return false;
  for (Metric m = def.id;; m = metrics::definition(m).parent) {
    if (m == Metric::Time) return true;
    if (metrics::definition(m).parent == metrics::kNoParent) return false;
  }
}

const metrics::MetricDefinition* findDefinition(std::string_view uniqueName) {
  for (const auto& def : metrics::metricTable())
    if (def.uniqueName == uniqueName) return &def;
  return nullptr;
}

Metric timeCategoryOf(const NodeOut& n) {
  if (n.paradigm == "mpi") return metrics::mpiTimeCategory(n.region);
  return Metric::Comp;
}

}  // namespace

std::string serialize(const RankOut& rank) {
  Writer w;
  w.str(rank.host);
  w.raw(static_cast<std::uint32_t>(rank.nodes.size()));
  for (const NodeOut& n : rank.nodes) {
    w.raw(n.parent);
    w.str(n.region);
    w.str(n.paradigm);
    w.str(n.file);
    w.raw(n.line);
    w.str(n.callSiteFile);
    w.raw(n.callSiteLine);
    w.raw(n.visits);
    w.raw(n.exclusiveSeconds);
    w.raw(n.estimate);
    w.raw(n.testedEstimate);
  }
  return w.out;
}

RankOut deserialize(const std::string& bytes) {
  Reader r{bytes};
  RankOut rank;
  rank.host = r.str();
  const auto count = r.raw<std::uint32_t>();
  for (std::uint32_t i = 0; i < count; ++i) {
    NodeOut n;
    n.parent = r.raw<std::uint32_t>();
    if (n.parent != kNone && n.parent >= i) throw std::runtime_error("profile record: parent after child");
    n.region = r.str();
    n.paradigm = r.str();
    n.file = r.str();
    n.line = r.raw<std::uint32_t>();
    n.callSiteFile = r.str();
    n.callSiteLine = r.raw<std::uint32_t>();
    n.visits = r.raw<double>();
    n.exclusiveSeconds = r.raw<double>();
    n.estimate = r.raw<double>();
    n.testedEstimate = r.raw<double>();
    rank.nodes.push_back(std::move(n));
  }
  if (r.at != bytes.size()) throw std::runtime_error("profile record: trailing bytes");
  return rank;
}

std::string estimateMetric(Pattern pattern) { return std::string(baseMetric(pattern)) + "_estimate"; }

report::Report buildProfileReport(const std::vector<RankOut>& ranks, const ReportSettings& settings) {
  report::Report out;
  const std::size_t nLoc = ranks.size();

  // Metrics: the measured part of the table (parents first, as in the table), then the
  // estimates under their pattern's parent.
  std::vector<bool> waited(metrics::kMetricCount, false);
  for (const NodeWait& w : settings.waits) waited[metrics::index(w.metric)] = true;
  std::vector<std::uint32_t> metricOf(metrics::kMetricCount, report::kNoId);
  for (const auto& def : metrics::metricTable()) {
    const bool measuredWait = waited[metrics::index(def.id)] && def.parent != metrics::kNoParent &&
                              metricOf[metrics::index(def.parent)] != report::kNoId;
    if (!measuredByProfile(def) && !measuredWait) continue;
    report::Metric m;
    m.uniqueName = std::string(def.uniqueName);
    m.displayName = std::string(def.displayName);
    m.description = std::string(def.description);
    m.unit = unitOf(def.unit);
    m.parent = def.parent == metrics::kNoParent ? report::kNoId : metricOf[metrics::index(def.parent)];
    metricOf[metrics::index(def.id)] = static_cast<std::uint32_t>(out.metrics.size());
    out.metrics.push_back(std::move(m));
  }
  std::vector<std::uint32_t> estimateOf(kPatternCount, report::kNoId);
  std::string estimates;
  for (int p = 1; settings.estimates && p < kPatternCount; ++p) {
    const auto pattern = static_cast<Pattern>(p);
    const metrics::MetricDefinition* base = findDefinition(baseMetric(pattern));
    if (!base) continue;
    report::Metric m;
    m.uniqueName = estimateMetric(pattern);
    m.displayName = std::string(base->displayName) + " (estimate)";
    m.description = "Estimated without a trace (Mao et al., EuroMPI/ASIA 2014): the time of each visit above "
                    "the minimum duration of the same MPI function and message-size class. " +
                    std::string(base->description);
    m.parent = metricOf[metrics::index(base->parent)];
    estimateOf[static_cast<std::size_t>(p)] = static_cast<std::uint32_t>(out.metrics.size());
    estimates += (estimates.empty() ? "" : ",") + m.uniqueName;
    out.metrics.push_back(std::move(m));
  }
  std::uint32_t testedMetric = report::kNoId;
  if (settings.testExclusion) {
    report::Metric m;
    m.uniqueName = kTestedLateSenderMetric;
    m.displayName = "Late Sender, test-based exclusion (estimate)";
    m.description =
        "Late Sender estimate of MPI_Wait and MPI_Waitall leaving out the visits whose requests an MPI_Test / "
        "MPI_Testall just before the wait found complete (Mao et al., EuroMPI/ASIA 2014, 4.1.1): such abbreviated "
        "waits make the minimum too small. An alternative to mpi_latesender_estimate for these call paths, not a "
        "part of it.";
    testedMetric = static_cast<std::uint32_t>(out.metrics.size());
    estimates += std::string(",") + kTestedLateSenderMetric;
    out.metrics.push_back(std::move(m));
  }

  // System tree and locations, as the recorder names them in a trace.
  out.systemNodes.push_back({"Linux", "machine", report::kNoId});
  std::map<std::string, std::uint32_t> hostNode;
  for (std::size_t r = 0; r < nLoc; ++r) {
    auto [it, added] = hostNode.emplace(ranks[r].host, static_cast<std::uint32_t>(out.systemNodes.size()));
    if (added) out.systemNodes.push_back({ranks[r].host, "node", 0});
    out.locations.push_back({"MPI Rank " + std::to_string(r), static_cast<std::uint32_t>(r), it->second});
  }

  // One call tree: every rank's paths interned by (parent, region, call site).
  std::map<std::tuple<std::string, std::string, std::uint32_t, std::string>, std::uint32_t> regionIds;
  std::map<std::tuple<std::uint32_t, std::uint32_t, std::string, std::uint32_t>, std::uint32_t> pathIds;
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<double>> rows;  // (metric, path) -> values
  auto add = [&](std::uint32_t metric, std::uint32_t path, std::size_t loc, double v) {
    if (metric == report::kNoId || v == 0.0 || !std::isfinite(v)) return;
    auto& row = rows[{metric, path}];
    row.resize(nLoc, 0.0);
    row[loc] += v;
  };
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<const NodeWait*>> waitsOf;  // (rank, node)
  for (const NodeWait& w : settings.waits) waitsOf[{w.rank, w.node}].push_back(&w);
  for (std::size_t r = 0; r < nLoc; ++r) {
    std::vector<std::uint32_t> global(ranks[r].nodes.size());
    for (std::size_t i = 0; i < ranks[r].nodes.size(); ++i) {
      const NodeOut& n = ranks[r].nodes[i];
      auto [rit, newRegion] = regionIds.emplace(std::make_tuple(n.region, n.file, n.line, n.paradigm),
                                                static_cast<std::uint32_t>(out.regions.size()));
      if (newRegion) out.regions.push_back({n.region, n.file, n.line, n.line, n.paradigm});
      const std::uint32_t parent = n.parent == kNone ? report::kNoId : global[n.parent];
      auto [pit, newPath] = pathIds.emplace(std::make_tuple(parent, rit->second, n.callSiteFile, n.callSiteLine),
                                            static_cast<std::uint32_t>(out.callPaths.size()));
      if (newPath) out.callPaths.push_back({parent, rit->second, n.callSiteFile, n.callSiteLine});
      const std::uint32_t path = pit->second;
      global[i] = path;

      // Severities are metric-exclusive: the estimate is part of its parent (the
      // call's time category), so the category keeps the rest.
      const Pattern pattern = n.paradigm == "mpi" ? estimateRule(n.region).pattern : Pattern::None;
      const std::uint32_t estimate = estimateOf[static_cast<std::size_t>(pattern)];
      const std::uint32_t category = metricOf[metrics::index(timeCategoryOf(n))];
      double rest = n.exclusiveSeconds;
      if (estimate != report::kNoId) {
        add(estimate, path, r, n.estimate);
        if (out.metrics[estimate].parent == category) rest -= n.estimate;
      }
      if (const auto w = waitsOf.find({static_cast<std::uint32_t>(r), static_cast<std::uint32_t>(i)}); w != waitsOf.end()) {
        for (const NodeWait* wait : w->second) {
          const std::uint32_t metric = metricOf[metrics::index(wait->metric)];
          if (metric == report::kNoId) continue;
          add(metric, path, r, wait->seconds);
          if (out.metrics[metric].parent == category) rest -= wait->seconds;
        }
      }
      add(category, path, r, rest);
      add(metricOf[metrics::index(Metric::Visits)], path, r, n.visits);
      if (testedMetric != report::kNoId && estimateRule(n.region).testExclusion && n.paradigm == "mpi")
        add(testedMetric, path, r, n.testedEstimate);
    }
  }
  for (auto& [key, values] : rows) {
    bool any = false;
    for (double& v : values) {
      if (std::abs(v) < 1e-12) v = 0.0;  // rounding left by the subtraction
      any = any || v != 0.0;
    }
    if (any) out.severities.push_back({key.first, key.second, std::move(values)});
  }

  out.meta.emplace_back("kind", settings.kind);
  if (settings.estimates) {
    out.meta.emplace_back("estimates", estimates);
    out.meta.emplace_back("estimate_method",
                          "minimum duration per MPI function and log2 message-size class (Mao et al., "
                          "EuroMPI/ASIA 2014); local minimum for point-to-point and RMA start/complete/wait, global "
                          "minimum for collectives and fences");
    out.meta.emplace_back("waitall_test_exclusion", settings.testExclusion ? "on" : "off");
  }
  out.meta.emplace_back("locations", std::to_string(nLoc));
  for (const auto& kv : settings.meta) out.meta.push_back(kv);
  return out;
}

}  // namespace waitscope::profile
