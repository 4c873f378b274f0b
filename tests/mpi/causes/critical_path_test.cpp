// The critical path (Hermanns et al., EuroMPI 2013, §3) on builder traces with exact timestamps: the
// segments (one per visit to a location: location, call path at its end,
// start, end), critical_path per call path and location, critical_path_imbalance,
// and the invariant that the walk and the segments cover the program's wall time.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

#include "analysis/report/report_queries.h"
#include "tests/mpi/patterns/scenario.h"

namespace waitscope::test {
namespace {

using trace::Rank;
using trace::TraceBuilder;
constexpr double kEps = 1e-9;

struct Analyzed {
  report::Report report;
  double walkLength = 0.0;  // all pieces of all locations, time outside regions included
};

// analyzeBuilt, also summing the pieces every location found (the report keeps
// only those with a call path).
Analyzed analyzeWithPath(TraceBuilder& b) {
  Analyzed out;
  forEachLocation(b.trace(), [&](trace::Trace& local, const replay::LocationComm& world) {
    const replay::LocalResult result = analyzer::analyzeLocation(local, world);
    double mine = 0.0;
    for (const replay::PathPiece& p : result.criticalPath) mine += p.end - p.start;
    double all = 0.0;
    world.allreduce(&mine, &all, 1, MPI_DOUBLE, MPI_SUM);
    out.walkLength = all;
    report::Report rep = analyzer::gatherReport(local, result, world);
    if (world.rank() == 0) out.report = std::move(rep);
  });
  return out;
}

// The program's wall time: last MPI_Finalize leave (else last event) minus first event.
double wallTime(const trace::Trace& full) {
  double first = std::numeric_limits<double>::infinity(), end = -first, lastEvent = -first;
  for (const trace::LocationEvents& loc : full.locations) {
    if (loc.events.empty()) continue;
    first = std::min(first, loc.events.front().time);
    lastEvent = std::max(lastEvent, loc.events.back().time);
    for (const trace::Event& e : loc.events)
      if (e.kind == trace::EventKind::Leave && full.defs->regions[full.callTree[e.ref].region].name == "MPI_Finalize")
        end = std::max(end, e.time);
  }
  return (end > -std::numeric_limits<double>::infinity() ? end : lastEvent) - first;
}

// The invariant of every test trace: the walk is as long as the program, and so
// are the report's segments (every visit of these traces has a call path).
void expectWallTime(TraceBuilder& b, const Analyzed& a) {
  const double wall = wallTime(b.trace());
  EXPECT_NEAR(a.walkLength, wall, 1e-6);
  if (!isRoot()) return;
  double segments = 0.0;
  for (const report::PathSegment& s : a.report.criticalPath) segments += s.end - s.start;
  EXPECT_NEAR(segments, wall, 1e-6);
}

struct Segment {
  unsigned rank;
  std::string path;
  double start;
  double end;
};

void expectSegments(const report::Report& rep, std::vector<Segment> expected) {
  std::vector<Segment> got;
  for (const report::PathSegment& s : rep.criticalPath)
    got.push_back({rep.locations[s.location].rank, report::callPathString(rep, s.callPath), s.start, s.end});
  auto byStart = [](const Segment& x, const Segment& y) { return x.start < y.start; };
  std::sort(got.begin(), got.end(), byStart);
  std::sort(expected.begin(), expected.end(), byStart);
  ASSERT_EQ(got.size(), expected.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i].rank, expected[i].rank) << i;
    EXPECT_EQ(got[i].path, expected[i].path) << i;
    EXPECT_NEAR(got[i].start, expected[i].start, kEps) << i << " " << expected[i].path;
    EXPECT_NEAR(got[i].end, expected[i].end, kEps) << i << " " << expected[i].path;
  }
}

struct OnPath {
  unsigned rank;
  std::string path;
  double seconds;
};

// critical_path per (call path, location), metric-inclusive: every value that
// is not zero, none left out.
void expectTimeOnPath(const report::Report& rep, std::vector<OnPath> expected) {
  const std::uint32_t metric = rep.findMetric("critical_path");
  ASSERT_NE(metric, report::kNoId);
  const std::vector<std::vector<double>> values = report::valuesByCallPathAndLocation(rep, metric);
  std::vector<OnPath> got;
  for (std::uint32_t c = 0; c < values.size(); ++c)
    for (std::size_t l = 0; l < values[c].size(); ++l)
      if (std::abs(values[c][l]) > kEps) got.push_back({rep.locations[l].rank, report::callPathString(rep, c), values[c][l]});
  auto byPlace = [](const OnPath& x, const OnPath& y) { return std::tie(x.rank, x.path) < std::tie(y.rank, y.path); };
  std::sort(got.begin(), got.end(), byPlace);
  std::sort(expected.begin(), expected.end(), byPlace);
  ASSERT_EQ(got.size(), expected.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i].rank, expected[i].rank) << i;
    EXPECT_EQ(got[i].path, expected[i].path) << i;
    EXPECT_NEAR(got[i].seconds, expected[i].seconds, kEps) << i << " " << expected[i].path;
  }
}

// Hermanns et al. (EuroMPI 2013), Fig. 1 / tests/apps/chain.c: foo on rank 0 delays the send to rank 1,
// whose late MPI_Win_post makes rank 2 wait in MPI_Win_start. Ranks >= 3 only
// create and free the window.
TEST(CriticalPath, ChainRunsFromRank2ThroughRank1ToFooOnRank0) {
  if (size() < 3) GTEST_SKIP() << "needs three ranks";
  TraceBuilder b(size());
  for (Rank r = 0; r < size(); ++r) b.rank(r).enter(0.0, "main").init(0.0, 0.5);
  const trace::WinId win = b.createWindow(b.world(), all(1.0), all(1.1));
  b.rank(0).enter(1.2, "foo").leave(3.0, "foo").send(3.0, 3.1, 1, 4, 0);
  b.rank(1).recv(1.3, 3.2, 0, 4, 0).post(3.3, 3.4, win, {2}).wait(3.5, 4.0, win);
  b.rank(2).start(1.4, 3.45, win, {1}).put(3.5, 3.6, win, 1, 4).complete(3.7, 3.9, win);
  b.freeWindow(win, all(5.0), all(5.1));
  for (Rank r = 0; r < size(); ++r)
    b.rank(r).finalize(r == 2 ? 6.2 : 6.0, 6.5).leave(6.5, "main");
  const Analyzed a = analyzeWithPath(b);
  expectWallTime(b, a);
  if (!isRoot()) return;
  const report::Report& rep = a.report;
  // Each visit names the call path it goes on from: foo on rank 0 (the send at
  // 3.0 follows it), main on rank 1 (before MPI_Win_post), MPI_Finalize at the end.
  expectSegments(rep, {{0, "main/foo", 0.0, 3.0}, {1, "main", 3.0, 3.3}, {2, "main/MPI_Finalize", 3.3, 6.5}});
  expectTimeOnPath(rep, {{0, "main/MPI_Init", 0.5},
                         {0, "main", 0.5 + 0.1},
                         {0, "main/MPI_Win_create", 0.1},
                         {0, "main/foo", 1.8},
                         {1, "main/MPI_Recv", 0.2},
                         {1, "main", 0.1},
                         {2, "main/MPI_Win_start", 0.15},
                         {2, "main", 0.05 + 0.1 + 1.1 + 1.1},
                         {2, "main/MPI_Put", 0.1},
                         {2, "main/MPI_Win_complete", 0.2},
                         {2, "main/MPI_Win_free", 0.1},
                         {2, "main/MPI_Finalize", 0.3}});
  EXPECT_NEAR(totalOf(rep, "critical_path"), 6.5, 1e-6);
  // foo runs only on rank 0: all of it but its average 1.8 / N is imbalance.
  EXPECT_NEAR(valueOf(rep, "critical_path_imbalance", "main/foo", 0), 1.8 - 1.8 / size(), kEps);
}

// Rank r computes in work until 1.0 + 0.5 r, then enters the barrier; all leave at
// the same time. The path ends on rank 0 (everyone enters MPI_Finalize at once:
// the lowest rank), goes back to the barrier's end and switches to the last to
// enter it, rank N-1.
TEST(CriticalPath, BarrierImbalance) {
  const Rank n = size();
  const double lastEnter = 1.0 + 0.5 * (n - 1), barrierLeave = lastEnter + 0.1;
  TraceBuilder b(n);
  for (Rank r = 0; r < n; ++r) {
    b.rank(r).enter(0.0, "main").init(0.0, 0.5).enter(0.5, "work").leave(1.0 + 0.5 * r, "work");
    b.rank(r).barrier(1.0 + 0.5 * r, barrierLeave).finalize(barrierLeave + 0.4, barrierLeave + 0.9);
    b.rank(r).leave(barrierLeave + 0.9, "main");
  }
  const Analyzed a = analyzeWithPath(b);
  expectWallTime(b, a);
  if (!isRoot()) return;
  const report::Report& rep = a.report;
  expectSegments(rep, {{n - 1, "main/work", 0.0, lastEnter}, {0, "main/MPI_Finalize", lastEnter, barrierLeave + 0.9}});
  expectTimeOnPath(rep, {{n - 1, "main/MPI_Init", 0.5},
                         {n - 1, "main/work", 0.5 * n},
                         {0, "main/MPI_Barrier", 0.1},
                         {0, "main", 0.4},
                         {0, "main/MPI_Finalize", 0.5}});
  // work: 0.5 n on the path, on average 0.5 + 0.25 (N-1) per location. Every
  // other call path is balanced (MPI_Barrier: 0.1 on the path, more on average).
  EXPECT_NEAR(valueOf(rep, "critical_path_imbalance", "main/work", n - 1), 0.25 * (n - 1), kEps);
  EXPECT_NEAR(totalOf(rep, "critical_path_imbalance"), 0.25 * (n - 1), kEps);
}

// Rank 1 waits in MPI_Recv for rank 0, which computes in foo until 2.0; rank 1
// enters MPI_Finalize last. Other ranks only initialize and finalize.
TEST(CriticalPath, LateSender) {
  const Rank n = size();
  TraceBuilder b(n);
  for (Rank r = 0; r < n; ++r) b.rank(r).enter(0.0, "main").init(0.0, 0.5);
  b.rank(0).enter(0.5, "foo").leave(2.0, "foo").send(2.0, 2.1, 1, 8, 0);
  b.rank(1).recv(0.6, 2.2, 0, 8, 0);
  for (Rank r = 0; r < n; ++r) b.rank(r).finalize(r == 1 ? 2.5 : 2.3, 3.0).leave(3.0, "main");
  const Analyzed a = analyzeWithPath(b);
  expectWallTime(b, a);
  if (!isRoot()) return;
  const report::Report& rep = a.report;
  expectSegments(rep, {{0, "main/foo", 0.0, 2.0}, {1, "main/MPI_Finalize", 2.0, 3.0}});
  expectTimeOnPath(rep, {{0, "main/MPI_Init", 0.5},
                         {0, "main/foo", 1.5},
                         {1, "main/MPI_Recv", 0.2},
                         {1, "main", 0.3},
                         {1, "main/MPI_Finalize", 0.5}});
  // foo only on rank 0; MPI_Recv only on rank 1 (1.6 s, more than its 0.2 on the path).
  EXPECT_NEAR(valueOf(rep, "critical_path_imbalance", "main/foo", 0), 1.5 - 1.5 / n, kEps);
  EXPECT_NEAR(valueOf(rep, "critical_path_imbalance", "main/MPI_Recv", 1), std::max(0.0, 0.2 - 1.6 / n), kEps);
}

// Rank r works until 1.5 + 0.2 r and then enters the closing fence; all leave it
// at 2.5. The path switches at the fence from rank 0 to rank N-1.
TEST(CriticalPath, WaitAtFence) {
  const Rank n = size();
  const double lastEnter = 1.5 + 0.2 * (n - 1);
  TraceBuilder b(n);
  for (Rank r = 0; r < n; ++r) b.rank(r).enter(0.0, "main").init(0.0, 0.5);
  const trace::WinId win = b.createWindow(b.world(), all(1.0), all(1.1));
  for (Rank r = 0; r < n; ++r) {
    b.rank(r).fence(1.2, 1.3, win).enter(1.3, "work").leave(1.5 + 0.2 * r, "work");
    b.rank(r).fence(1.5 + 0.2 * r, 2.5, win);
  }
  b.freeWindow(win, all(3.0), all(3.1));
  for (Rank r = 0; r < n; ++r) b.rank(r).finalize(3.5, 4.0).leave(4.0, "main");
  const Analyzed a = analyzeWithPath(b);
  expectWallTime(b, a);
  if (!isRoot()) return;
  const report::Report& rep = a.report;
  expectSegments(rep, {{n - 1, "main/work", 0.0, lastEnter}, {0, "main/MPI_Finalize", lastEnter, 4.0}});
  expectTimeOnPath(rep, {{n - 1, "main/MPI_Init", 0.5},
                         {n - 1, "main", 0.5 + 0.1},
                         {n - 1, "main/MPI_Win_create", 0.1},
                         {n - 1, "main/MPI_Win_fence", 0.1},
                         {n - 1, "main/work", lastEnter - 1.3},
                         {0, "main/MPI_Win_fence", 2.5 - lastEnter},
                         {0, "main", 0.5 + 0.4},
                         {0, "main/MPI_Win_free", 0.1},
                         {0, "main/MPI_Finalize", 0.5}});
}

// Without MPI_Init/MPI_Finalize the path ends at the latest last event, and time
// before a location's first event (rank N-1 starts late) is on the path, in the
// visit's segment, but in no call path's critical_path.
TEST(CriticalPath, NoFinalizeAndTimeOutsideRegions) {
  const Rank n = size();
  TraceBuilder b(n);
  for (Rank r = 0; r < n; ++r) b.rank(r).enter(r == n - 1 ? 1.0 : 0.0, "main").leave(r == n - 1 ? 5.0 : 4.0, "main");
  const Analyzed a = analyzeWithPath(b);
  expectWallTime(b, a);
  if (!isRoot()) return;
  expectSegments(a.report, {{n - 1, "main", 0.0, 5.0}});
  expectTimeOnPath(a.report, {{n - 1, "main", 4.0}});
}

}  // namespace
}  // namespace waitscope::test
