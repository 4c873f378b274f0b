#include "analysis/tools/report_csv.h"

#include "analysis/report/open_report.h"
#include "analysis/report/report_io.h"
#include "analysis/report/report_queries.h"
#include "analysis/report/text_output.h"
#include "analysis/tools/command_line_args.h"
#include "analysis/tools/report_command_args.h"
#include "analysis/tools/usage_error.h"

namespace waitscope::tools {

using report::csvField;
using report::exactNumber;

std::string locationLabel(const report::Report& report, std::uint32_t location) {
  const report::Location& l = report.locations[location];
  return l.name.empty() ? "rank " + std::to_string(l.rank) : l.name;
}

namespace {

// Call paths up to this many levels deep are written whole; deeper ones keep their first
// kHeadLevels and last kTailLevels regions, so that a row's length does not grow with the depth
// (a full path per row makes the CSV of a deep call tree grow with the square of its depth).
constexpr std::size_t kWholeLevels = 16, kHeadLevels = 4, kTailLevels = 11;

// The `callpath` column of the call paths in depth-first order: their ancestors are kept on a
// stack, so no row walks up to the root.
class CallPathLabels {
 public:
  explicit CallPathLabels(const report::Report& report) : report_(report) {}

  std::string next(const report::TreeEntry& e) {
    stack_.resize(e.depth);
    stack_.push_back(e.index);
    std::string label;
    const std::size_t levels = stack_.size();
    for (std::size_t i = 0; i < levels; ++i) {
      if (levels > kWholeLevels && i == kHeadLevels) {
        const std::size_t left = levels - kHeadLevels - kTailLevels;
        label += "/...(" + std::to_string(left) + " levels)...";
        i += left - 1;
        continue;
      }
      if (i > 0) label += '/';
      const std::uint32_t region = report_.callPaths[stack_[i]].region;
      label += region < report_.regions.size() ? report_.regions[region].name : std::string("?");
    }
    return label;
  }

 private:
  const report::Report& report_;
  std::vector<std::uint32_t> stack_;  // the call path ids from the root to the current one
};

std::string parentField(const report::Report& report, std::uint32_t callPath) {
  const std::uint32_t parent = report.callPaths[callPath].parent;
  return parent == report::kNoId ? std::string() : std::to_string(parent);
}

}  // namespace

void printCsv(const report::Report& report, std::uint32_t metric, CsvRows rows, std::ostream& out) {
  const std::string name = csvField(report.metrics[metric].uniqueName);
  // Rows stop at the first failed write (a full disk): the caller reports it.
  switch (rows) {
    case CsvRows::ByCallPath: {
      out << "callpath," << name << ",callpath_id,parent_id\n";
      const std::vector<double> values = report::valuesByCallPath(report, metric);
      CallPathLabels labels(report);
      for (const report::TreeEntry& e : report::callPathsDepthFirst(report)) {
        out << csvField(labels.next(e)) << ',' << exactNumber(values[e.index]) << ',' << e.index << ','
            << parentField(report, e.index) << '\n';
        if (!out) break;
      }
      break;
    }
    case CsvRows::ByLocation: {
      out << "location," << name << '\n';
      const std::vector<double> values = report::valuesByLocation(report, metric);
      for (std::uint32_t l = 0; l < report.locations.size() && out; ++l)
        out << csvField(locationLabel(report, l)) << ',' << exactNumber(values[l]) << '\n';
      break;
    }
    case CsvRows::Both: {
      out << "callpath,location," << name << ",callpath_id\n";
      const std::vector<std::vector<double>> values = report::valuesByCallPathAndLocation(report, metric);
      CallPathLabels labels(report);
      for (const report::TreeEntry& e : report::callPathsDepthFirst(report)) {
        const std::string path = csvField(labels.next(e));
        for (std::uint32_t l = 0; l < values[e.index].size(); ++l)
          if (values[e.index][l] != 0.0)
            out << path << ',' << csvField(locationLabel(report, l)) << ',' << exactNumber(values[e.index][l]) << ','
                << e.index << '\n';
        if (!out) break;
      }
      break;
    }
  }
}

int runCsv(const std::vector<std::string>& args, std::ostream& out) {
  std::string path, metricName, by = "callpath";
  bool haveMetric = false, help = false;
  CommandLineArgs options;
  options
      .option({"--metric"},
              [&](const std::string& name) {
                metricName = name;
                haveMetric = true;
              })
      .attachedValue()
      .option({"--by"}, [&](const std::string& rows) { by = rows; })
      .attachedValue()
      .whenMissing([](const std::string& option) { throw UsageError("csv: " + option + " needs a value"); })
      .help(help);
  takeOneFile(options, "csv", "report", path);
  options.parse(args);
  if (help) {
    out << "usage: waitscope-report " << kCsvUsage
        << "\nPrints one metric (with its sub-metrics) per call path (exclusive of callees), per location,\n"
           "or per call path and location (non-zero rows only) as CSV. `waitscope-report print REPORT` lists\n"
           "the metric names. Call path rows also give the call path's id and its parent's id in the report;\n"
           "a call path deeper than 16 levels is written as its first 4 and last 11 regions around\n"
           "'...(N levels)...'.\n";
    return 0;
  }
  if (path.empty()) throw UsageError("csv: no report given");
  if (!haveMetric || metricName.empty()) throw UsageError("csv: no metric given (--metric NAME)");
  CsvRows rows;
  if (by == "callpath")
    rows = CsvRows::ByCallPath;
  else if (by == "location")
    rows = CsvRows::ByLocation;
  else if (by == "both")
    rows = CsvRows::Both;
  else
    throw UsageError("csv: --by takes callpath, location or both, not '" + by + "'");
  const report::Report report = report::openAnyReport(path);
  const std::uint32_t metric = report.findMetric(metricName);
  if (metric == report::kNoId)
    throw report::ReportError(path + ": no metric '" + metricName +
                              "' in this report; see the metric names with: waitscope-report print " + path);
  printCsv(report, metric, rows, out);
  return 0;
}

}  // namespace waitscope::tools
