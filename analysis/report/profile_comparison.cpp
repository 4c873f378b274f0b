#include "analysis/report/profile_comparison.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>
#include <stdexcept>
#include <tuple>

#include "analysis/report/report_io.h"
#include "analysis/report/report_queries.h"
#include "analysis/report/text_output.h"

namespace waitscope::report {
namespace {

constexpr const char* kEstimateSuffix = "_estimate";
constexpr const char* kTestedLateSender = "mpi_latesender_tested_estimate";

// A call path as both reports can name it: regions from the root, and the call site.
using PathKey = std::tuple<std::string, std::string, std::uint32_t>;
PathKey keyOf(const report::Report& r, std::uint32_t c) {
  return {report::callPathString(r, c), r.callPaths[c].callSiteFile, r.callPaths[c].callSiteLine};
}

std::string baseName(const std::string& file) {
  const auto slash = file.rfind('/');
  return slash == std::string::npos ? file : file.substr(slash + 1);
}

double totalTime(const report::Report& r, const std::string& path) {
  const std::uint32_t time = r.findMetric("time");
  if (time == report::kNoId) throw std::runtime_error(path + ": the report has no metric time");
  const double total = report::metricTotals(r)[time];
  if (!(total > 0.0)) throw std::runtime_error(path + ": the report's total time is zero");
  return total;
}

std::string percent(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f%%", v);
  return buf;
}

}  // namespace

bool isProfileReport(const Report& r) { return r.metaValue("kind") == "profile"; }

std::vector<ComparisonRow> compareReports(const report::Report& profile, const report::Report& trace,
                                          double minPercent) {
  if (!isProfileReport(profile)) throw std::runtime_error(kNotAProfile);
  if (isProfileReport(trace)) throw std::runtime_error(kNotATraceAnalysis);
  const double profileTime = totalTime(profile, "profile"), traceTime = totalTime(trace, "trace");

  std::map<PathKey, std::uint32_t> tracePaths;
  for (std::uint32_t c = 0; c < trace.callPaths.size(); ++c) tracePaths.emplace(keyOf(trace, c), c);
  std::vector<PathKey> profileKeys;
  for (std::uint32_t c = 0; c < profile.callPaths.size(); ++c) profileKeys.push_back(keyOf(profile, c));

  const std::uint32_t tested = profile.findMetric(kTestedLateSender);
  const std::vector<double> testedValues =
      tested == report::kNoId ? std::vector<double>{} : report::valuesByCallPath(profile, tested);
  std::vector<ComparisonRow> out;
  for (std::uint32_t m = 0; m < profile.metrics.size(); ++m) {
    const std::string& name = profile.metrics[m].uniqueName;
    if (name == kTestedLateSender || !name.ends_with(kEstimateSuffix)) continue;
    const std::string base = name.substr(0, name.size() - std::string(kEstimateSuffix).size());
    const std::uint32_t tm = trace.findMetric(base);
    const std::vector<double> estimates = report::valuesByCallPath(profile, m);
    const std::vector<double> measured =
        tm == report::kNoId ? std::vector<double>(trace.callPaths.size(), 0.0) : report::valuesByCallPath(trace, tm);
    std::vector<ComparisonRow> rows;
    std::vector<bool> traceSeen(trace.callPaths.size(), false);
    auto addRow = [&](const PathKey& key, double profileSeconds, double traceSeconds, int testedPath) {
      ComparisonRow row;
      row.metric = base;
      row.pattern = tm == report::kNoId ? base : trace.metrics[tm].displayName;
      row.callPath = std::get<0>(key);
      if (!std::get<1>(key).empty()) row.callSite = baseName(std::get<1>(key)) + ":" + std::to_string(std::get<2>(key));
      row.profileSeconds = profileSeconds;
      row.traceSeconds = traceSeconds;
      row.profileRatio = 100.0 * profileSeconds / profileTime;
      row.traceRatio = 100.0 * traceSeconds / traceTime;
      if (testedPath >= 0 && base == "mpi_latesender") {
        const auto c = static_cast<std::uint32_t>(testedPath);
        const std::string& region = profile.regions[profile.callPaths[c].region].name;
        if (region == "MPI_Wait" || region == "MPI_Waitall") {
          row.hasTested = true;
          row.testedRatio = 100.0 * testedValues[c] / profileTime;
        }
      }
      if (std::max(row.profileRatio, row.traceRatio) >= minPercent) rows.push_back(std::move(row));
    };
    for (std::uint32_t c = 0; c < profile.callPaths.size(); ++c) {
      auto it = tracePaths.find(profileKeys[c]);
      double traceSeconds = 0.0;
      if (it != tracePaths.end()) {
        traceSeconds = measured[it->second];
        traceSeen[it->second] = true;
      }
      const int testedPath = tested == report::kNoId ? -1 : static_cast<int>(c);
      addRow(profileKeys[c], estimates[c], traceSeconds, testedPath);
    }
    // Call paths only the trace has (the profile saw no wait there or never ran them).
    for (std::uint32_t c = 0; c < trace.callPaths.size(); ++c)
      if (!traceSeen[c] && measured[c] != 0.0) addRow(keyOf(trace, c), 0.0, measured[c], -1);
    std::stable_sort(rows.begin(), rows.end(), [](const ComparisonRow& a, const ComparisonRow& b) {
      return std::max(a.profileRatio, a.traceRatio) > std::max(b.profileRatio, b.traceRatio);
    });
    out.insert(out.end(), rows.begin(), rows.end());
  }
  return out;
}

void printComparison(const std::vector<ComparisonRow>& rows, double minPercent, const std::string& profilePath,
                     const std::string& tracePath, std::ostream& out) {
  out << "wait ratio (waiting time of the call path / total time) estimated by the profile " << profilePath
      << "\nand measured by the trace analysis " << tracePath << "; call paths >= " << minPercent << "% in either\n";
  bool anyTested = false;
  std::size_t wPattern = 7, wPath = 9, wSite = 9;
  for (const ComparisonRow& r : rows) {
    anyTested = anyTested || r.hasTested;
    wPattern = std::max(wPattern, r.pattern.size());
    wPath = std::max(wPath, r.callPath.size());
    wSite = std::max(wSite, r.callSite.size());
  }
  auto pad = [](const std::string& s, std::size_t w) { return s + std::string(w > s.size() ? w - s.size() : 0, ' '); };
  auto lpad = [](const std::string& s, std::size_t w) { return std::string(w > s.size() ? w - s.size() : 0, ' ') + s; };
  out << pad("pattern", wPattern) << "  " << pad("call path", wPath) << "  " << pad("call site", wSite) << "  "
      << lpad("profile", 8) << "  " << lpad("trace", 8) << "  " << lpad("diff", 9);
  if (anyTested) out << "  " << lpad("tested", 8) << "  " << lpad("diff", 9);
  out << '\n';
  auto points = [](double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%+.2f pp", v);
    return std::string(buf);
  };
  for (const ComparisonRow& r : rows) {
    out << pad(r.pattern, wPattern) << "  " << pad(r.callPath, wPath) << "  "
        << pad(r.callSite.empty() ? "-" : r.callSite, wSite) << "  " << lpad(percent(r.profileRatio), 8) << "  "
        << lpad(percent(r.traceRatio), 8) << "  " << lpad(points(r.differencePoints()), 9);
    if (r.hasTested)
      out << "  " << lpad(percent(r.testedRatio), 8) << "  " << lpad(points(r.testedRatio - r.traceRatio), 9);
    out << '\n';
  }
  if (rows.empty()) out << "(no call path reaches " << minPercent << "% in either report)\n";
  if (anyTested)
    out << "tested: the Late Sender estimate without the MPI_Wait/MPI_Waitall visits a preceding test found "
           "complete (--waitall-test)\n";
}

void printComparisonCsv(const std::vector<ComparisonRow>& rows, std::ostream& out) {
  out << "metric,call_path,call_site,profile_seconds,trace_seconds,profile_percent,trace_percent,"
         "difference_points,tested_percent\n";
  for (const ComparisonRow& r : rows) {
    out << r.metric << ',' << csvField(r.callPath) << ',' << csvField(r.callSite) << ','
        << exactNumber(r.profileSeconds) << ',' << exactNumber(r.traceSeconds) << ',' << exactNumber(r.profileRatio)
        << ',' << exactNumber(r.traceRatio) << ',' << exactNumber(r.differencePoints()) << ','
        << (r.hasTested ? exactNumber(r.testedRatio) : "") << '\n';
  }
}

}  // namespace waitscope::report
