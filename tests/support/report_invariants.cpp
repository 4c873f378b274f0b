#include "tests/support/report_invariants.h"

#include <cmath>
#include <cstdint>
#include <sstream>
#include <unordered_map>

#include "analysis/report/report_queries.h"

namespace waitscope::test {
namespace {

constexpr double kRounding = 1e-9;

// Rounding allowance for comparing sums of values of size `scale`.
double tolerance(double scale) { return kRounding + 1e-12 * std::abs(scale); }

std::uint64_t key(std::uint32_t metric, std::uint32_t callPath) {
  return static_cast<std::uint64_t>(metric) << 32 | callPath;
}

class Checker {
 public:
  explicit Checker(const report::Report& r) : r_(r) {
    // Metric-inclusive values per (metric, call path), call-path exclusive: every stored row adds
    // to its metric and the metric's ancestors.
    for (const report::SeverityRow& row : r.severities) {
      for (std::uint32_t m = row.metric; m != report::kNoId; m = r.metrics[m].parent) {
        std::vector<double>& v = inclusive_[key(m, row.callPath)];
        v.resize(r.locations.size(), 0.0);
        for (std::size_t l = 0; l < row.values.size() && l < v.size(); ++l) v[l] += row.values[l];
      }
    }
    time_ = r.findMetric("time");
    clock_ = r.findMetric("clock_violations");
  }

  std::vector<std::string> run() {
    instances();
    exclusive();
    parents();
    completions();
    return problems_;
  }

 private:
  double value(std::uint32_t metric, std::uint32_t path, std::size_t location) const {
    if (metric == report::kNoId) return 0.0;
    const auto it = inclusive_.find(key(metric, path));
    return it == inclusive_.end() || location >= it->second.size() ? 0.0 : it->second[location];
  }

  bool violationOn(std::uint32_t path) const {
    for (std::size_t l = 0; l < r_.locations.size(); ++l)
      if (value(clock_, path, l) > 0.0) return true;
    return false;
  }

  std::ostream& problem() {
    line_.str({});
    return line_;
  }
  void done() { problems_.push_back(line_.str()); }

  std::string where(std::uint32_t metric, std::uint32_t path, std::size_t location) const {
    std::string locationName = location < r_.locations.size() ? std::to_string(r_.locations[location].rank) : "?";
    return r_.metrics[metric].uniqueName + " on " + report::callPathString(r_, path) + " at rank " + locationName;
  }

  void instances() {
    for (const report::Instance& i : r_.instances) {
      if (i.metric >= r_.metrics.size() || i.callPath >= r_.callPaths.size()) continue;  // firstProblem's job
      const double length = i.end - i.start;
      const double call = value(time_, i.callPath, i.location);
      if (length < -kRounding) {
        problem() << "instance of " << where(i.metric, i.callPath, i.location) << " ends before it starts ("
                  << i.start << " to " << i.end << ")";
        done();
      } else if (length > call + tolerance(call)) {
        problem() << "instance of " << where(i.metric, i.callPath, i.location) << " lasts " << length
                  << " s, longer than the call path's time " << call << " s";
        done();
      }
    }
  }

  void exclusive() {
    for (const report::SeverityRow& row : r_.severities) {
      for (std::size_t l = 0; l < row.values.size(); ++l) {
        if (row.values[l] >= -kRounding || violationOn(row.callPath)) continue;
        problem() << "negative exclusive value " << row.values[l] << " of " << where(row.metric, row.callPath, l)
                  << " without a clock-condition violation counted there";
        done();
      }
    }
  }

  void parents() {
    for (const auto& [k, values] : inclusive_) {
      const auto metric = static_cast<std::uint32_t>(k >> 32);
      const auto path = static_cast<std::uint32_t>(k & 0xffffffffu);
      const std::uint32_t parent = r_.metrics[metric].parent;
      if (parent == report::kNoId) continue;
      for (std::size_t l = 0; l < values.size(); ++l) {
        const double p = value(parent, path, l);
        if (values[l] <= p + tolerance(p)) continue;
        problem() << where(metric, path, l) << " is " << values[l] << ", more than its parent "
                  << r_.metrics[parent].uniqueName << " (" << p << ")";
        done();
      }
    }
  }

  void completions() {
    static const char* const kPairs[][2] = {{"mpi_barrier_wait", "mpi_barrier_completion"},
                                            {"mpi_wait_nxn", "mpi_nxn_completion"}};
    for (const auto& pair : kPairs) {
      const std::uint32_t wait = r_.findMetric(pair[0]), completion = r_.findMetric(pair[1]);
      if (wait == report::kNoId || completion == report::kNoId) continue;
      for (std::uint32_t path = 0; path < r_.callPaths.size(); ++path) {
        for (std::size_t l = 0; l < r_.locations.size(); ++l) {
          const double w = value(wait, path, l), c = value(completion, path, l), call = value(time_, path, l);
          if (w + c <= call + tolerance(call)) continue;
          problem() << pair[0] << " (" << w << ") and " << pair[1] << " (" << c << ") on "
                    << report::callPathString(r_, path) << " at rank " << r_.locations[l].rank
                    << " overlap: together more than the call path's time " << call << " s";
          done();
        }
      }
    }
  }

  const report::Report& r_;
  std::unordered_map<std::uint64_t, std::vector<double>> inclusive_;
  std::uint32_t time_ = report::kNoId;
  std::uint32_t clock_ = report::kNoId;
  std::ostringstream line_;
  std::vector<std::string> problems_;
};

}  // namespace

std::vector<std::string> invariantViolations(const report::Report& report) {
  if (!report::firstProblem(report).empty()) return {"malformed report: " + report::firstProblem(report)};
  return Checker(report).run();
}

}  // namespace waitscope::test
