#include "report_diagnostics.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <string_view>

#include "report/report_io.h"
#include "report/report_queries.h"
#include "usage_error.h"

namespace waitscope::tools {
namespace {

// The inner nodes of the time tree (docs/report-format.md): they sum patterns
// and plain MPI time, so warning about them would repeat their patterns.
constexpr std::array<std::string_view, 18> kTimeCategories = {
    "time",
    "execution",
    "comp",
    "mpi",
    "mpi_management",
    "mpi_init_exit",
    "mpi_mgmt_comm",
    "mpi_mgmt_win",
    "mpi_synchronization",
    "mpi_sync_collective",
    "mpi_rma_synchronization",
    "mpi_rma_sync_active",
    "mpi_rma_sync_passive",
    "mpi_communication",
    "mpi_point2point",
    "mpi_collective",
    "mpi_rma_communication",
    "mpi_io",
};

// Where a warning points: the call site of the call path; else, walking up the
// call path, the first call site or the first region defined in a real source
// file (Score-P names the file of MPI functions "MPI", line 0: no place to go).
std::string sourceLocation(const report::Report& report, std::uint32_t callPath) {
  for (std::uint32_t p = callPath, steps = 0; p != report::kNoId && p < report.callPaths.size() &&
                                              steps <= report.callPaths.size();
       p = report.callPaths[p].parent, ++steps) {
    const report::CallPath& c = report.callPaths[p];
    if (!c.callSiteFile.empty()) return c.callSiteFile + ":" + std::to_string(c.callSiteLine);
    if (c.region >= report.regions.size()) continue;
    const report::Region& r = report.regions[c.region];
    if (!r.file.empty() && r.beginLine > 0) return r.file + ":" + std::to_string(r.beginLine);
  }
  return "<unknown>:0";
}

struct Finding {
  std::uint32_t metric, callPath;
  double value;         // summed over locations
  std::uint32_t worst;  // the location with the largest share
  double worstValue;
};

}  // namespace

bool isWaitStatePattern(const report::Report& report, std::uint32_t metric) {
  const report::Metric& m = report.metrics[metric];
  if (m.unit != report::MetricUnit::Seconds) return false;
  if (std::find(kTimeCategories.begin(), kTimeCategories.end(), m.uniqueName) != kTimeCategories.end()) return false;
  for (const std::string_view derived : {"critical_path", "delay", "waitstates_"})
    if (m.uniqueName.starts_with(derived)) return false;
  // Below `mpi` when the report has it: the direct/indirect and
  // propagating/terminal splits elsewhere restate the same time.
  const std::uint32_t mpi = report.findMetric("mpi");
  if (mpi == report::kNoId) return true;
  for (std::uint32_t p = m.parent; p != report::kNoId; p = report.metrics[p].parent)
    if (p == mpi) return true;
  return false;
}

void printDiagnostics(const report::Report& report, double minPercent, std::ostream& out) {
  const std::uint32_t time = report.findMetric("time");
  const double total = time != report::kNoId ? report::metricTotals(report)[time] : 0.0;
  std::vector<Finding> findings;
  for (std::uint32_t m = 0; m < report.metrics.size(); ++m) {
    if (!isWaitStatePattern(report, m)) continue;
    const std::vector<std::vector<double>> values = report::valuesByCallPathAndLocation(report, m);
    for (std::uint32_t c = 0; c < values.size(); ++c) {
      if (values[c].empty()) continue;
      Finding f{m, c, 0.0, 0, values[c][0]};
      for (std::uint32_t l = 0; l < values[c].size(); ++l) {
        f.value += values[c][l];
        if (values[c][l] > f.worstValue) {
          f.worst = l;
          f.worstValue = values[c][l];
        }
      }
      const double percent = total > 0.0 ? 100.0 * f.value / total : 0.0;
      if (f.value > 0.0 && percent >= minPercent) findings.push_back(f);
    }
  }
  // Largest first; ties in report order, so the output is stable.
  std::stable_sort(findings.begin(), findings.end(),
                   [](const Finding& a, const Finding& b) { return a.value > b.value; });
  for (const Finding& f : findings) {
    const report::Metric& m = report.metrics[f.metric];
    const std::uint32_t region = report.callPaths[f.callPath].region;
    char percent[32], worst[48];
    std::snprintf(percent, sizeof percent, "%.1f%%", total > 0.0 ? 100.0 * f.value / total : 0.0);
    std::snprintf(worst, sizeof worst, "%.3f s", f.worstValue);
    out << sourceLocation(report, f.callPath) << ": warning: " << percent << " of time in "
        << (m.displayName.empty() ? m.uniqueName : m.displayName) << " (" << report.regions[region].name << ") ["
        << m.uniqueName << "] (worst: rank " << report.locations[f.worst].rank << ", " << worst << ")\n";
  }
}

int runDiagnostics(const std::vector<std::string>& args, std::ostream& out) {
  std::string path, minPercentText = "1.0";
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--min-percent") {
      if (i + 1 == args.size()) throw UsageError("diagnostics: --min-percent needs a value");
      minPercentText = args[++i];
    } else if (a.rfind("--min-percent=", 0) == 0) {
      minPercentText = a.substr(14);
    } else if (a == "-h" || a == "--help") {
      out << "usage: waitscope-report " << kDiagnosticsUsage
          << "\nPrints one compiler-style warning per wait-state pattern and call path that costs at least P%\n"
             "(default 1.0) of the total time, largest first:\n"
             "  FILE:LINE: warning: 12.3% of time in Late Sender (MPI_Recv) [mpi_latesender]"
             " (worst: rank 2, 0.200 s)\n";
      return 0;
    } else if (!a.empty() && a[0] == '-') {
      throw UsageError("diagnostics: unknown option " + a);
    } else if (path.empty()) {
      path = a;
    } else {
      throw UsageError("diagnostics: more than one report given");
    }
  }
  if (path.empty()) throw UsageError("diagnostics: no report given");
  double minPercent = 0.0;
  std::size_t used = 0;
  try {
    minPercent = std::stod(minPercentText, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != minPercentText.size() || !std::isfinite(minPercent) || minPercent < 0.0)
    throw UsageError("diagnostics: --min-percent takes a number >= 0, not '" + minPercentText + "'");
  printDiagnostics(report::readReport(path), minPercent, out);
  return 0;
}

}  // namespace waitscope::tools
