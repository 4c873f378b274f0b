#include "analysis/tools/report_diagnostics.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <string_view>

#include "analysis/report/open_report.h"
#include "analysis/report/report_queries.h"
#include "analysis/tools/command_line_args.h"
#include "analysis/tools/report_command_args.h"
#include "analysis/tools/usage_error.h"

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

std::vector<Finding> significantFindings(const report::Report& report, double minPercent) {
  const std::uint32_t time = report.findMetric("time");
  const double total = time != report::kNoId ? report::metricTotals(report)[time] : 0.0;
  std::vector<Finding> findings;
  for (std::uint32_t m = 0; m < report.metrics.size(); ++m) {
    if (!isWaitStatePattern(report, m)) continue;
    const std::vector<std::vector<double>> values = report::valuesByCallPathAndLocation(report, m);
    for (std::uint32_t c = 0; c < values.size(); ++c) {
      if (values[c].empty()) continue;
      Finding f{m, c, 0.0, 0.0, 0, values[c][0]};
      for (std::uint32_t l = 0; l < values[c].size(); ++l) {
        f.value += values[c][l];
        if (values[c][l] > f.worstValue) {
          f.worst = l;
          f.worstValue = values[c][l];
        }
      }
      f.share = total > 0.0 ? f.value / total : 0.0;
      if (f.value > 0.0 && 100.0 * f.share >= minPercent) findings.push_back(f);
    }
  }
  // Largest first; ties in report order, so the output is stable.
  std::stable_sort(findings.begin(), findings.end(),
                   [](const Finding& a, const Finding& b) { return a.value > b.value; });
  return findings;
}

void printDiagnostics(const report::Report& report, double minPercent, std::ostream& out,
                      const std::vector<report::SourceRoot>& roots) {
  for (const Finding& f : significantFindings(report, minPercent)) {
    const report::Metric& m = report.metrics[f.metric];
    const std::uint32_t region = report.callPaths[f.callPath].region;
    const report::SourcePosition where = report::sourcePosition(report, f.callPath);
    char percent[32], worst[48];
    std::snprintf(percent, sizeof percent, "%.1f%%", 100.0 * f.share);
    std::snprintf(worst, sizeof worst, "%.3f s", f.worstValue);
    out << (where.file.empty() ? std::string("<unknown>") : report::mapSourceRoot(roots, where.file)) << ':'
        << where.line << ": warning: " << percent << " of time in "
        << (m.displayName.empty() ? m.uniqueName : m.displayName) << " (" << report.regions[region].name << ") ["
        << m.uniqueName << "] (worst: rank " << report.locations[f.worst].rank << ", " << worst << ")\n";
  }
}

void addSourceRootOption(CommandLineArgs& options, const char* command, std::vector<report::SourceRoot>& roots) {
  options
      .option({"--source-root"},
              [command, &roots](const std::string& text) {
                const std::optional<report::SourceRoot> root = report::parseSourceRoot(text);
                if (!root)
                  throw UsageError(std::string(command) +
                                   ": --source-root takes FROM=TO (the path prefix in the trace, then "
                                   "where the sources are here), not '" + text + "'");
                roots.push_back(*root);
              })
      .attachedValue()
      .ifMissing([command](const std::string&) {
        throw UsageError(std::string(command) + ": --source-root needs FROM=TO");
      });
}

void addMinPercentOption(CommandLineArgs& options, const char* command, double& minPercent) {
  options
      .option({"--min-percent"},
              [command, &minPercent](const std::string& text) {
                std::size_t used = 0;
                try {
                  minPercent = std::stod(text, &used);
                } catch (const std::exception&) {
                  used = 0;
                }
                if (used == 0 || used != text.size() || !std::isfinite(minPercent) || minPercent < 0.0)
                  throw UsageError(std::string(command) + ": --min-percent takes a number >= 0, not '" + text + "'");
              })
      .attachedValue()
      .ifMissing([command](const std::string&) {
        throw UsageError(std::string(command) + ": --min-percent needs a value");
      });
}

int runDiagnostics(const std::vector<std::string>& args, std::ostream& out) {
  std::string path;
  double minPercent = 1.0;
  std::vector<report::SourceRoot> roots;
  bool help = false;
  CommandLineArgs options;
  addMinPercentOption(options, "diagnostics", minPercent);
  addSourceRootOption(options, "diagnostics", roots);
  options.help(help);
  takeOneFile(options, "diagnostics", "report", path);
  options.parse(args);
  if (help) {
    out << "usage: waitscope-report " << kDiagnosticsUsage
        << "\nPrints one compiler-style warning per wait-state pattern and call path that costs at least P%\n"
           "(default 1.0) of the total time, largest first:\n"
           "  FILE:LINE: warning: 12.3% of time in Late Sender (MPI_Recv) [mpi_latesender]"
           " (worst: rank 2, 0.200 s)\n"
           "--source-root FROM=TO replaces the path prefix FROM (as recorded in the trace) by TO, so the\n"
           "files open here; repeat it for several roots (the longest matching FROM wins).\n"
           "REPORT may also be a Cube 4 file (.cubex).\n";
    return 0;
  }
  if (path.empty()) throw UsageError("diagnostics: no report given");
  printDiagnostics(report::openAnyReport(path), minPercent, out, roots);
  return 0;
}

}  // namespace waitscope::tools
