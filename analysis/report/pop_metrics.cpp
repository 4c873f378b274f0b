#include "analysis/report/pop_metrics.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <string_view>
#include <unordered_set>

#include "analysis/metrics/metric_table.h"
#include "analysis/report/report_queries.h"
#include "analysis/report/text_output.h"

namespace waitscope::report {
namespace {

// A ratio whose denominator is 0 (no process, no computation) is 0, never NaN or infinity.
double ratio(double numerator, double denominator) { return denominator != 0.0 ? numerator / denominator : 0.0; }

// The unique names of the wait-state patterns: time metrics whose value is part of their
// parent's below "time" (Late Sender, Wait at Barrier, Barrier Completion, the RMA patterns, ...).
// Delay costs, the critical path and the direct/indirect split are other roots and so excluded.
const std::unordered_set<std::string_view>& waitStateNames() {
  static const std::unordered_set<std::string_view> names = [] {
    using metrics::Metric;
    std::unordered_set<std::string_view> out;
    for (const metrics::MetricDefinition& d : metrics::metricTable()) {
      if (!d.partOfParent || d.unit != metrics::Unit::Seconds) continue;
      Metric root = d.id;
      while (metrics::definition(root).parent != metrics::kNoParent) root = metrics::definition(root).parent;
      if (root == Metric::Time) out.insert(d.uniqueName);
    }
    return out;
  }();
  return names;
}

// waiting[m]: m is a wait-state pattern or lies below one. Summing the exclusive rows of these
// metrics gives the inclusive values of the outermost patterns, each sub-pattern counted once.
std::vector<char> waitingMetrics(const Report& run) {
  const auto& names = waitStateNames();
  std::vector<char> waiting(run.metrics.size(), 0);
  for (std::size_t m = 0; m < run.metrics.size(); ++m) {
    const std::uint32_t parent = run.metrics[m].parent;
    waiting[m] = names.count(run.metrics[m].uniqueName) != 0 || (parent != kNoId && parent < m && waiting[parent]);
  }
  return waiting;
}

std::uint32_t requireMetric(const Report& run, const char* name, const char* what) {
  const std::uint32_t m = run.findMetric(name);
  if (m == kNoId)
    throw std::runtime_error(std::string("the report has no \"") + name + "\" metric (" + what +
                             "), which the POP metrics need; use a report of waitscope-analyze");
  return m;
}

std::string fixed(double value, const char* format) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

// An efficiency to three places, marked when it is below POP's threshold.
std::string efficiency(double value) { return fixed(value, "%.3f") + (value < kPopThreshold ? "*" : " "); }
std::string efficiency(const std::optional<double>& value) { return value ? efficiency(*value) : std::string("-"); }

struct Column {
  const char* key;
  const char* heading;
};

constexpr Column kColumns[] = {
    {"label", "run"},
    {"processes", "processes"},
    {"runtime", "runtime [s]"},
    {"useful_mean", "mean comp [s]"},
    {"useful_max", "max comp [s]"},
    {"useful_sum", "sum comp [s]"},
    {"waiting_time", "waiting [s]"},
    {"ideal_runtime", "ideal runtime [s]"},
    {"load_balance", "LB"},
    {"communication_efficiency", "CommE"},
    {"serialisation_efficiency", "SerE"},
    {"transfer_efficiency", "TrE"},
    {"parallel_efficiency", "PE"},
    {"speedup", "speedup"},
    {"scaling_efficiency", "ScalE"},
    {"computation_scaling", "CompS"},
    {"global_efficiency", "GE"},
};
constexpr std::size_t kColumnCount = sizeof kColumns / sizeof kColumns[0];

// The values of one run in kColumns' order: exact numbers (CSV, JSON) or the table's text.
std::vector<std::string> exactCells(const PopMetrics& m, const std::string& absent) {
  const auto optional = [&](const std::optional<double>& v) { return v ? jsonNumber(*v) : absent; };
  return {m.label,
          std::to_string(m.processes),
          jsonNumber(m.runtime),
          jsonNumber(m.usefulMean),
          jsonNumber(m.usefulMax),
          jsonNumber(m.usefulSum),
          jsonNumber(m.waitingTime),
          jsonNumber(m.idealRuntime),
          jsonNumber(m.loadBalance),
          jsonNumber(m.communicationEfficiency),
          jsonNumber(m.serialisationEfficiency),
          jsonNumber(m.transferEfficiency),
          jsonNumber(m.parallelEfficiency),
          optional(m.speedup),
          optional(m.scalingEfficiency),
          optional(m.computationScaling),
          optional(m.globalEfficiency)};
}

}  // namespace

PopMetrics popMetrics(const Report& run, const std::string& label) {
  // A difference or ratio of runs has time and comp too, but no runtime of any run.
  if (const std::string kind = run.metaValue("kind"); kind == "difference" || kind == "ratio")
    throw std::runtime_error("the report is the " + kind +
                             " of two runs; the POP metrics need the report of a run (or a mean of runs)");
  const std::uint32_t time = requireMetric(run, "time", "the time of every process");
  const std::uint32_t comp = requireMetric(run, "comp", "the computation time");
  const std::vector<double> totalTime = valuesByLocation(run, time);
  const std::vector<double> useful = valuesByLocation(run, comp);
  const std::vector<char> waiting = waitingMetrics(run);
  std::vector<double> waited(run.locations.size(), 0.0);
  for (const SeverityRow& row : run.severities) {
    if (!waiting[row.metric]) continue;
    for (std::size_t l = 0; l < row.values.size() && l < waited.size(); ++l) waited[l] += row.values[l];
  }

  PopMetrics m;
  m.label = label;
  // Per process: the threads and streams of a hybrid run are not processes of their own.
  m.processes = static_cast<std::uint32_t>(run.processCount());
  for (std::size_t p = 0; p < m.processes; ++p) {
    m.runtime = std::max(m.runtime, totalTime[p]);
    m.usefulMax = std::max(m.usefulMax, useful[p]);
    m.usefulSum += useful[p];
    m.waitingTime += waited[p];
    m.idealRuntime = std::max(m.idealRuntime, totalTime[p] - waited[p]);
  }
  m.usefulMean = ratio(m.usefulSum, m.processes);
  m.loadBalance = ratio(m.usefulMean, m.usefulMax);
  m.communicationEfficiency = ratio(m.usefulMax, m.runtime);
  m.serialisationEfficiency = ratio(m.usefulMax, m.idealRuntime);
  m.transferEfficiency = ratio(m.idealRuntime, m.runtime);
  m.parallelEfficiency = m.loadBalance * m.communicationEfficiency;
  return m;
}

std::vector<PopMetrics> popSeries(const std::vector<const Report*>& runs, const std::vector<std::string>& labels) {
  if (labels.size() != runs.size()) throw std::invalid_argument("popSeries: one label per run");
  std::vector<PopMetrics> series;
  series.reserve(runs.size());
  for (std::size_t i = 0; i < runs.size(); ++i) {
    PopMetrics m = popMetrics(*runs[i], labels[i]);
    if (i > 0) {
      const PopMetrics& ref = series.front();
      m.speedup = ratio(ref.runtime, m.runtime);
      m.scalingEfficiency = *m.speedup * ratio(ref.processes, m.processes);
      m.computationScaling = ratio(ref.usefulSum, m.usefulSum);
      m.globalEfficiency = m.parallelEfficiency * *m.computationScaling;
    }
    series.push_back(std::move(m));
  }
  return series;
}

void printPopTable(const std::vector<PopMetrics>& series, std::ostream& out) {
  std::vector<std::vector<std::string>> rows;
  rows.reserve(series.size() + 1);
  rows.emplace_back();
  for (const Column& c : kColumns) rows.back().push_back(c.heading);
  for (const PopMetrics& m : series)
    rows.push_back({m.label, std::to_string(m.processes), fixed(m.runtime, "%.6f"), fixed(m.usefulMean, "%.6f"),
                    fixed(m.usefulMax, "%.6f"), fixed(m.usefulSum, "%.6f"), fixed(m.waitingTime, "%.6f"),
                    fixed(m.idealRuntime, "%.6f"), efficiency(m.loadBalance),
                    efficiency(m.communicationEfficiency), efficiency(m.serialisationEfficiency),
                    efficiency(m.transferEfficiency), efficiency(m.parallelEfficiency),
                    m.speedup ? fixed(*m.speedup, "%.3f") + " " : std::string("-"), efficiency(m.scalingEfficiency),
                    efficiency(m.computationScaling), efficiency(m.globalEfficiency)});
  std::vector<std::size_t> width(kColumnCount, 0);
  for (const auto& row : rows)
    for (std::size_t c = 0; c < kColumnCount; ++c) width[c] = std::max(width[c], row[c].size());
  out << "POP efficiency metrics (docs/pop.md); the first run is the reference of speedup, ScalE, CompS and GE\n";
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t c = 0; c < kColumnCount; ++c) {
      // The run's name left-aligned, the numbers right-aligned.
      const std::string pad(width[c] - row[c].size(), ' ');
      line += c == 0 ? row[c] + pad : "  " + pad + row[c];
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out << line << '\n';
  }
  out << "* below " << fixed(kPopThreshold, "%.1f") << ": needs attention (POP)\n";
}

void printPopCsv(const std::vector<PopMetrics>& series, std::ostream& out) {
  for (std::size_t c = 0; c < kColumnCount; ++c) out << (c == 0 ? "" : ",") << kColumns[c].key;
  out << '\n';
  for (const PopMetrics& m : series) {
    const std::vector<std::string> cells = exactCells(m, "");
    for (std::size_t c = 0; c < kColumnCount; ++c) out << (c == 0 ? "" : ",") << csvField(cells[c]);
    out << '\n';
  }
}

void printPopJson(const std::vector<PopMetrics>& series, std::ostream& out) {
  out << "{\"threshold\": " << jsonNumber(kPopThreshold) << ", \"runs\": [";
  for (std::size_t i = 0; i < series.size(); ++i) {
    const std::vector<std::string> cells = exactCells(series[i], "null");
    out << (i == 0 ? "{" : ", {");
    for (std::size_t c = 0; c < kColumnCount; ++c)
      out << (c == 0 ? "" : ", ") << jsonString(kColumns[c].key) << ": " << (c == 0 ? jsonString(cells[c]) : cells[c]);
    out << '}';
  }
  out << "]}\n";
}

}  // namespace waitscope::report
