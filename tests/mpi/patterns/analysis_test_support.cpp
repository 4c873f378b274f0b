#include "tests/mpi/patterns/analysis_test_support.h"

#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <vector>

#include "analysis/report/report_queries.h"
#include "analysis/replay/yielding_wait.h"
#include "analysis/trace/otf2_reader.h"
#include "analysis/trace/otf2_reader_mpi.h"
#include "tests/support/report_invariants.h"

namespace waitscope::test {

int worldRank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

int ranksPerProcess() {
  const char* k = std::getenv("WAITSCOPE_TEST_RANKS_PER_PROCESS");
  return k && std::atoi(k) > 1 ? std::atoi(k) : 1;
}

int worldSize() {
  int s = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &s);
  return s * ranksPerProcess();
}

bool isRoot() { return worldRank() == 0; }

trace::Trace localView(const trace::Trace& full, trace::Rank rank) {
  trace::Trace t;
  t.anchorPath = full.anchorPath;
  t.defs = full.defs;
  t.callTree = full.callTree;
  if (rank >= full.locations.size()) throw std::invalid_argument("localView: no such rank");
  t.locations.push_back(full.locations[rank]);
  // The threads and streams of its process (hybrid traces), as the parallel reader loads them.
  const std::vector<trace::Rank> processRank = full.defs->processRanks();
  for (const trace::LocationEvents& other : full.threadLocations)
    if (other.location < processRank.size() && processRank[other.location] == rank) t.threadLocations.push_back(other);
  return t;
}

namespace {

using LocationBody = std::function<void(trace::Trace&, const replay::LocationComm&)>;

// `read(rank)` gives the trace of each location this process analyzes.
void forEachRead(const std::function<trace::Trace(trace::Rank)>& read, const LocationBody& body) {
  const bool yieldCore = replay::nodeOversubscribed(MPI_COMM_WORLD);
  if (ranksPerProcess() == 1) {
    trace::Trace local = read(static_cast<trace::Rank>(worldRank()));
    const replay::LocationComm world(MPI_COMM_WORLD, yieldCore);
    body(local, world);
    return;
  }
  const replay::HeldLocations held(MPI_COMM_WORLD, worldSize(), yieldCore);
  std::vector<trace::Trace> traces;
  for (int i = 0; i < held.held(); ++i) traces.push_back(read(held.first() + static_cast<trace::Rank>(i)));
  analyzer::analyzeHeldLocations(held, traces, body);
}

// Every analysis a test runs is checked against the invariants of every report.
report::Report analyzeEach(const std::function<trace::Trace(trace::Rank)>& read,
                           const analyzer::AnalysisOptions& options) {
  report::Report report;
  forEachRead(read, [&](trace::Trace& local, const replay::LocationComm& world) {
    const replay::LocalResult result = analyzer::analyzeLocation(local, world, options);
    report::Report mine = analyzer::gatherReport(local, result, world);
    if (world.rank() == 0) report = std::move(mine);
  });
  const std::vector<std::string> broken = invariantViolations(report);
  if (!broken.empty()) {
    std::string list;
    for (const std::string& b : broken) list += "\n  " + b;
    ADD_FAILURE() << "the report breaks " << broken.size() << " invariant(s):" << list;
  }
  return report;
}

}  // namespace

void forEachLocation(const trace::Trace& full, const LocationBody& body) {
  forEachRead([&](trace::Rank r) { return localView(full, r); }, body);
}

report::Report analyzeTrace(const trace::Trace& full, const analyzer::AnalysisOptions& options) {
  return analyzeEach([&](trace::Rank r) { return localView(full, r); }, options);
}

report::Report analyzeBuilt(trace::TraceBuilder& builder, const analyzer::AnalysisOptions& options) {
  return analyzeTrace(builder.trace(), options);
}

report::Report analyzeFile(const std::string& anchor, const analyzer::AnalysisOptions& analysis) {
  trace::ReadOptions options;
  options.warn = [](const std::string&) {};
  if (ranksPerProcess() == 1)
    return analyzeEach([&](trace::Rank) { return trace::readTraceForRank(anchor, MPI_COMM_WORLD, options); }, analysis);
  return analyzeEach([&](trace::Rank r) { return trace::readTraceRanks(anchor, {r}, options); }, analysis);
}

std::string analysisError(trace::TraceBuilder& builder) {
  try {
    analyzeBuilt(builder);
  } catch (const analyzer::AnalysisError& e) {
    return e.what();
  }
  return {};
}

double valueOf(const report::Report& report, const std::string& metric, const std::string& callPath, unsigned rank) {
  const std::uint32_t m = report.findMetric(metric);
  if (m == report::kNoId) throw std::invalid_argument("no metric " + metric);
  for (std::uint32_t c = 0; c < report.callPaths.size(); ++c) {
    if (report::callPathString(report, c) != callPath) continue;
    const auto values = report::valuesByLocation(report, m, c);
    return rank < values.size() ? values[rank] : 0.0;
  }
  return 0.0;
}

double totalOf(const report::Report& report, const std::string& metric) {
  const std::uint32_t m = report.findMetric(metric);
  if (m == report::kNoId) throw std::invalid_argument("no metric " + metric);
  return report::metricTotals(report)[m];
}

double totalOf(const report::Report& report, const std::string& metric, unsigned rank) {
  const std::uint32_t m = report.findMetric(metric);
  if (m == report::kNoId) throw std::invalid_argument("no metric " + metric);
  const auto values = report::valuesByLocation(report, m);
  return rank < values.size() ? values[rank] : 0.0;
}

std::size_t instancesOf(const report::Report& report, const std::string& metric) {
  const std::uint32_t m = report.findMetric(metric);
  std::size_t n = 0;
  for (const auto& i : report.instances) n += i.metric == m;
  return n;
}

}  // namespace waitscope::test
