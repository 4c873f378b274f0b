// waitscope-bench-report-algebra [--call-paths N] [--metrics M] [--ranks R] [--repeat K] [--keep DIR]
//
// How long do comparing two runs and their POP metrics take next to reading the two reports?
// Builds two reports of one synthetic program (N call paths each, M metrics of the metric table,
// R ranks; B's call paths in another order, with a few renamed), writes them, then times,
// alternately and K times each: (a) readReport of both, (b) the diff (alignReports,
// differenceReport and compareMetrics) and (c) popSeries of both, and prints the best times
// and their ratios to the read.
// Target: diff and POP each under a second for 20,000 call paths, 40 metrics and 16 ranks.
// Exits 0 whatever the figures (it is a benchmark, not a test); non-zero only if something fails.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "analysis/metrics/metric_table.h"
#include "analysis/report/pop_metrics.h"
#include "analysis/report/report_algebra.h"
#include "analysis/report/report_io.h"
#include "analysis/tools/command_line_args.h"
#include "bench/bench_args.h"

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using waitscope::report::Report;

constexpr double kSecondsTarget = 1.0;

struct Args {
  std::uint64_t callPaths = 20'000;
  std::uint64_t metrics = 40;
  std::uint64_t ranks = 16;
  int repeat = 3;
  std::string keep;
};

// A small deterministic generator (xorshift64*), so both runs and every run of the benchmark agree.
class Random {
 public:
  explicit Random(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    state_ ^= state_ >> 12;
    state_ ^= state_ << 25;
    state_ ^= state_ >> 27;
    return state_ * 0x2545F4914F6CDD1DULL;
  }
  std::uint32_t below(std::uint64_t n) { return static_cast<std::uint32_t>(next() % n); }
  double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

 private:
  std::uint64_t state_;
};

// The metric table's first `count` metrics (time, execution, comp, mpi and the wait states below it).
void addMetrics(Report& r, std::size_t count) {
  const auto& table = waitscope::metrics::metricTable();
  count = std::min(count, table.size());
  for (std::size_t i = 0; i < count; ++i) {
    const auto& d = table[i];
    const std::uint32_t parent = d.parent == waitscope::metrics::kNoParent
                                     ? waitscope::report::kNoId
                                     : static_cast<std::uint32_t>(waitscope::metrics::index(d.parent));
    r.metrics.push_back({std::string(d.uniqueName), std::string(d.displayName), "",
                         waitscope::report::MetricUnit::Seconds, parent < count ? parent : waitscope::report::kNoId});
  }
}

// Run A: a call tree of `callPaths` nodes over 2,000 region names, each call path with values of
// eight metrics on every rank.
Report runA(const Args& args) {
  Random random(42);
  Report r;
  r.meta = {{"format_version", "1"}, {"trace", "/bench/a/traces.otf2"}};
  addMetrics(r, args.metrics);
  const std::uint32_t regions = 2000;
  for (std::uint32_t i = 0; i < regions; ++i)
    r.regions.push_back({"region_" + std::to_string(i), "app.c", i, i + 9, "user"});
  r.systemNodes = {{"node", "node", waitscope::report::kNoId}};
  for (std::uint32_t p = 0; p < args.ranks; ++p) r.locations.push_back({"MPI Rank " + std::to_string(p), p, 0});
  r.callPaths.push_back({waitscope::report::kNoId, 0, "", 0});
  for (std::uint32_t c = 1; c < args.callPaths; ++c) {
    // Mostly below a recent call path, so the tree is deep as well as wide.
    const std::uint32_t parent = c < 16 ? 0 : c - 1 - random.below(std::min<std::uint32_t>(c, 64));
    r.callPaths.push_back({parent, 1 + random.below(regions - 1), "app.c", 100 + random.below(5000)});
  }
  const auto metrics = static_cast<std::uint32_t>(r.metrics.size());
  for (std::uint32_t c = 0; c < r.callPaths.size(); ++c) {
    std::vector<char> used(metrics, 0);  // one row per (metric, call path)
    for (std::uint32_t k = 0; k < 8; ++k) {
      const std::uint32_t metric = (c + 5 * k) % metrics;
      if (used[metric]++) continue;
      waitscope::report::SeverityRow row{metric, c, {}};
      for (std::uint32_t p = 0; p < args.ranks; ++p) row.values.push_back(random.unit());
      r.severities.push_back(std::move(row));
    }
  }
  return r;
}

// Run B: A's call paths renumbered (children in reverse order, depth first), one in a hundred of
// them renamed (so they are only in A, their new names only in B), and every value changed.
Report runB(const Report& a) {
  Random random(7);
  Report b = a;
  b.meta = {{"format_version", "1"}, {"trace", "/bench/b/traces.otf2"}};
  std::vector<std::vector<std::uint32_t>> children(a.callPaths.size());
  std::vector<std::uint32_t> roots;
  for (std::uint32_t c = 0; c < a.callPaths.size(); ++c)
    (a.callPaths[c].parent == waitscope::report::kNoId ? roots : children[a.callPaths[c].parent]).push_back(c);
  std::vector<std::uint32_t> newId(a.callPaths.size()), stack(roots.begin(), roots.end());
  b.callPaths.clear();
  while (!stack.empty()) {
    const std::uint32_t c = stack.back();
    stack.pop_back();
    newId[c] = static_cast<std::uint32_t>(b.callPaths.size());
    waitscope::report::CallPath path = a.callPaths[c];
    if (path.parent != waitscope::report::kNoId) path.parent = newId[path.parent];
    if (c % 100 == 99) path.region = static_cast<std::uint32_t>((path.region + 1) % a.regions.size());
    b.callPaths.push_back(path);
    stack.insert(stack.end(), children[c].begin(), children[c].end());
  }
  for (auto& row : b.severities) {
    row.callPath = newId[row.callPath];
    for (double& v : row.values) v += 0.25 * random.unit();
  }
  return b;
}

double seconds(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

Args parseArgs(int argc, char** argv) {
  Args args;
  waitscope::tools::CommandLineArgs options;
  const auto count = [](const char* name, std::uint64_t& target) {
    return [name, &target](const std::string& v) { target = waitscope::bench::parseCount(name, v); };
  };
  options.option({"--call-paths"}, count("--call-paths", args.callPaths))
      .option({"--metrics"}, count("--metrics", args.metrics))
      .option({"--ranks"}, count("--ranks", args.ranks))
      .option({"--repeat"}, [&](const std::string& v) {
        args.repeat = static_cast<int>(waitscope::bench::parseCount("--repeat", v));
      })
      .option({"--keep"}, [&](const std::string& v) { args.keep = v; })
      .whenMissing([](const std::string& option) { waitscope::bench::throwMissingValue(option); })
      .unknown([](const std::string& a) { throw std::invalid_argument("unknown argument " + a); });
  options.parse(argc, argv);
  return args;
}

const char* verdict(double value) { return value <= kSecondsTarget ? "PASS" : "MISS"; }

}  // namespace

int main(int argc, char** argv) {
  try {
    const Args args = parseArgs(argc, argv);
    const fs::path dir = args.keep.empty() ? fs::temp_directory_path() / ("waitscope-bench-algebra-" +
                                                                          std::to_string(::getpid()))
                                           : fs::path(args.keep);
    fs::create_directories(dir);
    const std::string pathA = (dir / "a.waitscope").string(), pathB = (dir / "b.waitscope").string();
    {
      const Report a = runA(args);
      writeReport(a, pathA);
      writeReport(runB(a), pathB);
    }
    double read = std::numeric_limits<double>::infinity(), diff = read, pop = read;
    std::size_t aligned = 0;
    for (int i = 0; i < args.repeat; ++i) {
      auto start = Clock::now();
      const Report a = waitscope::report::readReport(pathA), b = waitscope::report::readReport(pathB);
      read = std::min(read, seconds(start));
      start = Clock::now();
      const waitscope::report::AlignedReports al = waitscope::report::alignReports(a, b);
      const Report d = waitscope::report::differenceReport(a, b);
      const auto compared = waitscope::report::compareMetrics(a, b);
      diff = std::min(diff, seconds(start));
      aligned = al.a.callPaths.size() + d.severities.size() + compared.size();
      start = Clock::now();
      const auto series = waitscope::report::popSeries({&a, &b}, {"a", "b"});
      pop = std::min(pop, seconds(start));
      if (series.size() != 2) throw std::runtime_error("popSeries lost a run");
    }
    if (args.keep.empty()) fs::remove_all(dir);
    std::printf("reports: %llu call paths, %llu metrics, %llu ranks each (%zu aligned items)\n",
                static_cast<unsigned long long>(args.callPaths), static_cast<unsigned long long>(args.metrics),
                static_cast<unsigned long long>(args.ranks), aligned);
    std::printf("readReport of both                  %8.3f s\n", read);
    std::printf("diff (align, difference, compare)   %8.3f s  %6.2f x the read  %s (target <= %.1f s)\n", diff,
                diff / read, verdict(diff), kSecondsTarget);
    std::printf("pop of both                         %8.3f s  %6.2f x the read  %s (target <= %.1f s)\n", pop,
                pop / read, verdict(pop), kSecondsTarget);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "waitscope-bench-report-algebra: %s\n", e.what());
    return 1;
  }
}
