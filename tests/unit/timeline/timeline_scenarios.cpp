#include "tests/unit/timeline/timeline_scenarios.h"

#include <sstream>

namespace waitscope::test {

report::Report reportSkeleton(const trace::Trace& trace) {
  report::Report r;
  r.metrics.push_back({"time", "Time", "", report::MetricUnit::Seconds, report::kNoId});
  r.metrics.push_back({"mpi_rma_sync_late_post", "Late Post", "", report::MetricUnit::Seconds, 0});
  r.metrics.push_back({"mpi_latesender", "Late Sender", "", report::MetricUnit::Seconds, 0});
  for (const trace::Region& reg : trace.defs->regions)
    r.regions.push_back({reg.name, reg.file, reg.beginLine, reg.endLine, reg.name.starts_with("MPI_") ? "mpi" : "compiler"});
  for (const trace::CallPath& p : trace.callTree.paths()) {
    report::CallPath c;
    c.parent = p.parent == trace::kNone ? report::kNoId : p.parent;
    c.region = p.region;
    if (p.callSite != trace::kNone) {
      c.callSiteFile = trace.defs->sourceLocations[p.callSite].file;
      c.callSiteLine = trace.defs->sourceLocations[p.callSite].line;
    }
    r.callPaths.push_back(c);
  }
  r.systemNodes.push_back({"node0", "node", report::kNoId});
  for (std::size_t rank = 0; rank < trace.defs->worldLocations.size(); ++rank)
    r.locations.push_back({"MPI Rank " + std::to_string(rank), static_cast<std::uint32_t>(rank), 0});
  return r;
}

std::uint32_t callPathOf(const report::Report& report, const std::string& path) {
  std::vector<std::string> names;
  std::istringstream in(path);
  for (std::string n; std::getline(in, n, '/');) names.push_back(n);
  for (std::uint32_t i = 0; i < report.callPaths.size(); ++i) {
    std::uint32_t p = i;
    std::size_t k = names.size();
    while (p != report::kNoId && k > 0 && report.regions[report.callPaths[p].region].name == names[k - 1]) {
      p = report.callPaths[p].parent;
      --k;
    }
    if (p == report::kNoId && k == 0) return i;
  }
  return report::kNoId;
}

void buildMessages(trace::TraceBuilder& b) {
  b.rank(0).enter(0.0, "main").enter(1.0, "foo").leave(2.0, "foo");
  b.rank(1).enter(0.0, "main");
  for (int k = 0; k < 8; ++k) {
    const double t = 2.0 + k / 16.0;
    b.rank(0).send(t, t + 3.0 / 64, 1, 1024, 7);
    b.rank(1).recv(t + 1.0 / 64, t + 2.0 / 64, 0, 1024, 7);
  }
  b.rank(0).enter(4.0, "bar").leave(5.0, "bar").leave(8.0, "main");
  b.rank(1).leave(8.0, "main");
}

void buildRma(trace::TraceBuilder& b) {
  for (trace::Rank r = 0; r < 3; ++r) b.rank(r).enter(0.0, "main");
  const trace::WinId win = b.createWindow(b.world(), {0.25, 0.25, 0.25}, {0.5, 0.5, 0.5});
  for (trace::Rank r = 0; r < 3; ++r) b.rank(r).fence(1.0, 1.25, win);
  b.rank(0).put(1.5, 1.625, win, 1, 64);
  for (trace::Rank r = 0; r < 3; ++r) b.rank(r).fence(2.0, 2.5, win);
  for (trace::Rank r = 0; r < 3; ++r) b.rank(r).fence(3.0, 3.25, win);
  b.rank(0).post(4.0, 4.125, win, {1});
  b.rank(1).start(4.0, 4.5, win, {0});
  b.rank(1).put(4.5, 4.625, win, 0, 32);
  b.rank(1).complete(4.75, 4.875, win);
  b.rank(0).wait(4.25, 5.0, win);
  b.rank(2).lock(5.5, 5.625, win, 0, trace::RmaLockType::Exclusive);
  b.rank(2).get(5.75, 5.875, win, 0, 128);
  b.rank(2).unlock(6.0, 6.25, win, 0);
  b.freeWindow(win, {7.0, 7.0, 7.0}, {7.25, 7.25, 7.25});
  for (trace::Rank r = 0; r < 3; ++r) b.rank(r).leave(8.0, "main");
}

}  // namespace waitscope::test
