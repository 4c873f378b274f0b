#include "analysis/tools/report_sarif.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <unistd.h>

#include "analysis/metrics/metric_table.h"
#include "analysis/metrics/pattern_advice.h"
#include "analysis/report/open_report.h"
#include "analysis/report/report_io.h"
#include "analysis/report/report_queries.h"
#include "analysis/report/text_output.h"
#include "analysis/tools/report_diagnostics.h"
#include "analysis/tools/command_line_args.h"
#include "analysis/tools/report_command_args.h"
#include "analysis/tools/usage_error.h"

namespace waitscope::tools {

using report::jsonNumber;
using report::jsonString;
namespace {

constexpr std::size_t kListed = 3;  // worst locations, causing locations and call paths per result

const char* unitName(report::MetricUnit unit) {
  switch (unit) {
    case report::MetricUnit::Seconds: return "seconds";
    case report::MetricUnit::Bytes: return "bytes";
    case report::MetricUnit::Occurrences: break;
  }
  return "occurrences";
}

// The delay metric that charges this pattern's wait states to their causes
// (docs/causes-delay.md); empty for patterns without delay costs.
std::string delayMetricOf(const std::string& pattern) {
  for (const metrics::MetricDefinition& d : metrics::metricTable()) {
    if (d.uniqueName != pattern) continue;
    switch (metrics::waitFamily(d.id)) {
      case metrics::WaitFamily::PointToPoint: return "delay_p2p";
      case metrics::WaitFamily::Collective: return "delay_collective";
      case metrics::WaitFamily::RmaActive: return "delay_rma";
      default: return {};
    }
  }
  return {};
}

std::vector<char> metricSubtree(const report::Report& report, std::uint32_t metric) {
  std::vector<char> in(report.metrics.size(), 0);
  in[metric] = 1;
  for (std::uint32_t i = metric + 1; i < report.metrics.size(); ++i) {
    const std::uint32_t p = report.metrics[i].parent;
    if (p != report::kNoId && in[p]) in[i] = 1;
  }
  return in;
}

// The `n` largest positive entries of `values`, largest first, ties by index.
std::vector<std::uint32_t> largest(const std::vector<double>& values, std::size_t n) {
  std::vector<std::uint32_t> order;
  for (std::uint32_t i = 0; i < values.size(); ++i)
    if (values[i] > 0.0) order.push_back(i);
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return values[a] > values[b]; });
  if (order.size() > n) order.resize(n);
  return order;
}

std::string locationObject(const report::Report& report, std::uint32_t l, double value) {
  return "{\"location\": " + jsonString(report.locations[l].name) +
         ", \"rank\": " + std::to_string(report.locations[l].rank) + ", \"value\": " + jsonNumber(value) + "}";
}

template <typename List, typename Item>
std::string jsonArray(const List& list, Item item) {
  std::string out = "[";
  for (std::size_t i = 0; i < list.size(); ++i) out += (i ? ", " : "") + item(list[i]);
  return out + "]";
}

struct Causes {
  std::vector<double> byLocation;  // waiting time caused, per causing location
  std::vector<double> byCallPath;  // delay costs on the causing locations, per call path
};

// Who caused the wait states of a finding: the causing locations of its
// instances (weighted by waiting time) and, where the report has delay costs,
// the call paths where those locations were delayed.
Causes causesOf(const report::Report& report, const Finding& f, const std::vector<char>& inPattern) {
  Causes c;
  c.byLocation.assign(report.locations.size(), 0.0);
  for (const report::Instance& i : report.instances)
    if (i.callPath == f.callPath && inPattern[i.metric] && i.cause != report::kNoId)
      c.byLocation[i.cause] += i.end - i.start;
  c.byCallPath.assign(report.callPaths.size(), 0.0);
  const std::uint32_t delay = report.findMetric(delayMetricOf(report.metrics[f.metric].uniqueName));
  if (delay == report::kNoId) return c;
  const std::vector<std::vector<double>> delays = report::valuesByCallPathAndLocation(report, delay);
  for (std::uint32_t cp = 0; cp < delays.size(); ++cp)
    for (std::uint32_t l = 0; l < delays[cp].size(); ++l)
      if (c.byLocation[l] > 0.0) c.byCallPath[cp] += delays[cp][l];
  return c;
}

std::string physicalLocation(const report::SourcePosition& where, const std::vector<report::SourceRoot>& roots) {
  std::string out = "{\"artifactLocation\": {\"uri\": " + jsonString(fileUri(report::mapSourceRoot(roots, where.file))) + "}";
  if (where.line > 0) out += ", \"region\": {\"startLine\": " + std::to_string(where.line) + "}";
  return out + "}";
}

void writeFileAtomically(const std::string& path, const std::string& text) {
  const std::string temporary = path + ".part" + std::to_string(::getpid());
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) throw report::ReportError(path + ": cannot write the SARIF file: " + std::strerror(errno));
    out << text;
    out.close();
    if (!out) {
      std::error_code ignored;
      std::filesystem::remove(temporary, ignored);
      throw report::ReportError(path + ": cannot write the SARIF file (disk full?)");
    }
  }
  std::error_code error;
  std::filesystem::rename(temporary, path, error);
  if (error) {
    std::filesystem::remove(temporary, error);
    throw report::ReportError(path + ": cannot write the SARIF file: " + error.message());
  }
}

}  // namespace

const char* sarifLevel(double share) {
  if (share >= 0.10) return "error";
  if (share >= 0.01) return "warning";
  return "note";
}

void writeSarif(const report::Report& report, const SarifOptions& options, std::ostream& out) {
  // Rules: every wait-state pattern of the report, in metric order.
  std::vector<std::uint32_t> ruleOf(report.metrics.size(), report::kNoId);
  std::string rules;
  std::uint32_t ruleCount = 0;
  for (std::uint32_t m = 0; m < report.metrics.size(); ++m) {
    if (!isWaitStatePattern(report, m)) continue;
    const report::Metric& metric = report.metrics[m];
    const std::string advice(metrics::patternAdvice(metric.uniqueName));
    const std::string name = metric.displayName.empty() ? metric.uniqueName : metric.displayName;
    rules += std::string(ruleCount ? ",\n" : "\n") + "        {\"id\": " + jsonString(metric.uniqueName) +
             ", \"shortDescription\": {\"text\": " + jsonString(name) + "}" +
             ", \"fullDescription\": {\"text\": " + jsonString(metric.description.empty() ? name : metric.description) +
             "}" + ", \"help\": {\"text\": " +
             jsonString(advice.empty() ? "See the pattern reference in Waitscope's documentation." : advice) + "}" +
             ", \"defaultConfiguration\": {\"level\": \"warning\"}" + ", \"properties\": {\"unit\": \"" +
             unitName(metric.unit) + "\", \"tags\": [\"performance\", \"mpi\"]}}";
    ruleOf[m] = ruleCount++;
  }

  std::string results;
  const std::vector<Finding> findings = significantFindings(report, options.minPercent);
  for (std::size_t k = 0; k < findings.size(); ++k) {
    const Finding& f = findings[k];
    const report::Metric& metric = report.metrics[f.metric];
    const std::string name = metric.displayName.empty() ? metric.uniqueName : metric.displayName;
    const std::string region = report.regions[report.callPaths[f.callPath].region].name;
    const std::string callPath = report::callPathString(report, f.callPath);
    const std::vector<double> perLocation = report::valuesByLocation(report, f.metric, f.callPath);
    const Causes causes = causesOf(report, f, metricSubtree(report, f.metric));

    char text[256];
    std::snprintf(text, sizeof text, "%.1f%% of time in %s (%s): %.3f s in total, worst on rank %u (%.3f s)",
                  100.0 * f.share, name.c_str(), region.c_str(), f.value, report.locations[f.worst].rank,
                  f.worstValue);
    const report::SourcePosition where = report::sourcePosition(report, f.callPath);
    std::string location = "{";
    if (!where.file.empty()) location += "\"physicalLocation\": " + physicalLocation(where, options.roots) + ", ";
    location += "\"logicalLocations\": [{\"name\": " + jsonString(region) +
                ", \"fullyQualifiedName\": " + jsonString(callPath) + ", \"kind\": \"function\"}]}";

    const auto worst = largest(perLocation, kListed);
    const auto causing = largest(causes.byLocation, kListed);
    const auto causingPaths = largest(causes.byCallPath, kListed);
    results += std::string(k ? ",\n" : "\n") + "        {\"ruleId\": " + jsonString(metric.uniqueName) +
               ", \"ruleIndex\": " + std::to_string(ruleOf[f.metric]) + ", \"level\": \"" + sarifLevel(f.share) +
               "\", \"message\": {\"text\": " + jsonString(text) + "}, \"locations\": [" + location + "]" +
               ", \"partialFingerprints\": {\"waitscopeFinding/v1\": " +
               jsonString(metric.uniqueName + ":" + callPath) + "}" + ", \"properties\": {\"value\": " +
               jsonNumber(f.value) + ", \"share\": " + jsonNumber(f.share) + ", \"callPath\": " + jsonString(callPath) +
               ", \"worstLocations\": " +
               jsonArray(worst, [&](std::uint32_t l) { return locationObject(report, l, perLocation[l]); }) +
               ", \"causingLocations\": " +
               jsonArray(causing, [&](std::uint32_t l) { return locationObject(report, l, causes.byLocation[l]); }) +
               ", \"causingCallPaths\": " + jsonArray(causingPaths, [&](std::uint32_t cp) {
                 const report::SourcePosition at = report::sourcePosition(report, cp);
                 std::string o = "{\"callPath\": " + jsonString(report::callPathString(report, cp));
                 if (!at.file.empty())
                   o += ", \"file\": " + jsonString(report::mapSourceRoot(options.roots, at.file)) +
                        ", \"line\": " + std::to_string(at.line);
                 return o + ", \"delay\": " + jsonNumber(causes.byCallPath[cp]) + "}";
               }) + "}}";
  }

  out << "{\"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\",\n"
         " \"version\": \"2.1.0\",\n"
         " \"runs\": [{\n"
         "    \"tool\": {\"driver\": {\"name\": \"Waitscope\""
      << (options.toolVersion.empty() ? "" : ", \"version\": " + jsonString(options.toolVersion))
      << ",\n      \"rules\": [" << rules
      << (ruleCount ? "\n      " : "") << "]}},\n"
      << "    \"properties\": {\"report\": " << jsonString(report.metaValue("source", report.metaValue("trace")))
      << ", \"minPercent\": " << jsonNumber(options.minPercent) << "},\n"
      << "    \"results\": [" << results << (findings.empty() ? "" : "\n    ") << "]\n  }]\n}\n";
}

int runSarif(const std::vector<std::string>& args, std::ostream& out) {
  std::string path, output;
  SarifOptions options;
  bool help = false;
  CommandLineArgs commandLine;
  addMinPercentOption(commandLine, "sarif", options.minPercent);
  addSourceRootOption(commandLine, "sarif", options.roots);
  commandLine.option({"-o", "--output"}, [&](const std::string& file) { output = file; })
      .ifMissing([](const std::string&) { throw UsageError("sarif: -o needs a file name"); })
      .help(help)
      .dashIsPositional();
  takeOneFile(commandLine, "sarif", "report", path);
  commandLine.parse(args);
  if (help) {
    out << "usage: waitscope-report " << kSarifUsage
        << "\nWrites the wait states costing at least P% (default 1.0) of the total time as SARIF 2.1.0:\n"
           "one rule per wait-state pattern (with what to change), one result per pattern and call path\n"
           "(level error from 10%, warning from 1%, else note). -o - writes to standard output.\n"
           "--source-root FROM=TO maps recorded path prefixes as in diagnostics. REPORT may be a .cubex.\n";
    return 0;
  }
  if (path.empty()) throw UsageError("sarif: no report given");
  if (output.empty()) throw UsageError("sarif: no output file given (-o FILE, or -o - for standard output)");
#ifdef WAITSCOPE_VERSION
  options.toolVersion = WAITSCOPE_VERSION;
#endif
  const report::Report report = report::openAnyReport(path);
  std::ostringstream text;
  writeSarif(report, options, text);
  if (output == "-") out << text.str();
  else writeFileAtomically(output, text.str());
  return 0;
}

}  // namespace waitscope::tools
