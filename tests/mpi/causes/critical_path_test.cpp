// The critical path (seed 001 §3) on builder traces with exact timestamps: the
// segments (location, call path, start, end), critical_path per call path and
// location, critical_path_imbalance, and the invariant that the walk covers
// the program's wall time.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

#include "scenario.h"
#include "report/report_queries.h"

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
// only those inside a region).
Analyzed analyzeWithPath(TraceBuilder& b) {
  const trace::Trace local = localView(b.trace(), static_cast<Rank>(worldRank()));
  const replay::LocalResult result = replay::analyzeLocation(local, MPI_COMM_WORLD);
  double mine = 0.0;
  for (const replay::PathPiece& p : result.criticalPath) mine += p.end - p.start;
  Analyzed out;
  MPI_Allreduce(&mine, &out.walkLength, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  out.report = replay::gatherReport(local, result, MPI_COMM_WORLD);
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
      if (e.kind == trace::EventKind::Leave && full.defs.regions[full.callTree[e.ref].region].name == "MPI_Finalize")
        end = std::max(end, e.time);
  }
  return (end > -std::numeric_limits<double>::infinity() ? end : lastEvent) - first;
}

// The invariant of every test trace: the walk is as long as the program, and the
// report's segments cover it where every moment is inside a region.
void expectWallTime(TraceBuilder& b, const Analyzed& a, bool allInsideRegions = true) {
  const double wall = wallTime(b.trace());
  EXPECT_NEAR(a.walkLength, wall, 1e-6);
  if (!isRoot() || !allInsideRegions) return;
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

// Seed 001 Fig. 1 / tests/apps/chain.c: foo on rank 0 delays the send to rank 1,
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
  expectSegments(rep, {{0, "main/MPI_Init", 0.0, 0.5},
                       {0, "main", 0.5, 1.0},
                       {0, "main/MPI_Win_create", 1.0, 1.1},
                       {0, "main", 1.1, 1.2},
                       {0, "main/foo", 1.2, 3.0},
                       {1, "main/MPI_Recv", 3.0, 3.2},
                       {1, "main", 3.2, 3.3},
                       {2, "main/MPI_Win_start", 3.3, 3.45},
                       {2, "main", 3.45, 3.5},
                       {2, "main/MPI_Put", 3.5, 3.6},
                       {2, "main", 3.6, 3.7},
                       {2, "main/MPI_Win_complete", 3.7, 3.9},
                       {2, "main", 3.9, 5.0},
                       {2, "main/MPI_Win_free", 5.0, 5.1},
                       {2, "main", 5.1, 6.2},
                       {2, "main/MPI_Finalize", 6.2, 6.5}});
  EXPECT_NEAR(valueOf(rep, "critical_path", "main/foo", 0), 1.8, kEps);
  EXPECT_NEAR(valueOf(rep, "critical_path", "main/MPI_Init", 0), 0.5, kEps);
  EXPECT_NEAR(valueOf(rep, "critical_path", "main", 0), 0.6, kEps);
  EXPECT_NEAR(valueOf(rep, "critical_path", "main/MPI_Recv", 1), 0.2, kEps);
  EXPECT_NEAR(valueOf(rep, "critical_path", "main", 1), 0.1, kEps);
  EXPECT_NEAR(valueOf(rep, "critical_path", "main/MPI_Win_start", 2), 0.15, kEps);
  EXPECT_NEAR(valueOf(rep, "critical_path", "main", 2), 0.05 + 0.1 + 1.1 + 1.1, kEps);
  EXPECT_NEAR(valueOf(rep, "critical_path", "main/MPI_Finalize", 2), 0.3, kEps);
  EXPECT_NEAR(valueOf(rep, "critical_path", "main/MPI_Win_start", 1), 0.0, kEps);
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
  expectSegments(rep, {{n - 1, "main/MPI_Init", 0.0, 0.5},
                       {n - 1, "main/work", 0.5, lastEnter},
                       {0, "main/MPI_Barrier", lastEnter, barrierLeave},
                       {0, "main", barrierLeave, barrierLeave + 0.4},
                       {0, "main/MPI_Finalize", barrierLeave + 0.4, barrierLeave + 0.9}});
  EXPECT_NEAR(valueOf(rep, "critical_path", "main/work", n - 1), 0.5 * n, kEps);
  EXPECT_NEAR(valueOf(rep, "critical_path", "main/MPI_Barrier", 0), 0.1, kEps);
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
  expectSegments(rep, {{0, "main/MPI_Init", 0.0, 0.5},
                       {0, "main/foo", 0.5, 2.0},
                       {1, "main/MPI_Recv", 2.0, 2.2},
                       {1, "main", 2.2, 2.5},
                       {1, "main/MPI_Finalize", 2.5, 3.0}});
  EXPECT_NEAR(valueOf(rep, "critical_path", "main/foo", 0), 1.5, kEps);
  EXPECT_NEAR(valueOf(rep, "critical_path", "main/MPI_Recv", 1), 0.2, kEps);
  EXPECT_NEAR(valueOf(rep, "critical_path", "main/MPI_Recv", 0), 0.0, kEps);
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
  expectSegments(rep, {{n - 1, "main/MPI_Init", 0.0, 0.5},
                       {n - 1, "main", 0.5, 1.0},
                       {n - 1, "main/MPI_Win_create", 1.0, 1.1},
                       {n - 1, "main", 1.1, 1.2},
                       {n - 1, "main/MPI_Win_fence", 1.2, 1.3},
                       {n - 1, "main/work", 1.3, lastEnter},
                       {0, "main/MPI_Win_fence", lastEnter, 2.5},
                       {0, "main", 2.5, 3.0},
                       {0, "main/MPI_Win_free", 3.0, 3.1},
                       {0, "main", 3.1, 3.5},
                       {0, "main/MPI_Finalize", 3.5, 4.0}});
  EXPECT_NEAR(valueOf(rep, "critical_path", "main/MPI_Win_fence", 0), 2.5 - lastEnter, kEps);
  EXPECT_NEAR(valueOf(rep, "critical_path", "main/MPI_Win_fence", n - 1), 0.1, kEps);
  EXPECT_NEAR(valueOf(rep, "critical_path", "main/work", n - 1), lastEnter - 1.3, kEps);
}

// Without MPI_Init/MPI_Finalize the path ends at the latest last event, and time
// before a location's first event (rank 1 starts late) is on the path without a
// call path.
TEST(CriticalPath, NoFinalizeAndTimeOutsideRegions) {
  const Rank n = size();
  TraceBuilder b(n);
  for (Rank r = 0; r < n; ++r) b.rank(r).enter(r == n - 1 ? 1.0 : 0.0, "main").leave(r == n - 1 ? 5.0 : 4.0, "main");
  const Analyzed a = analyzeWithPath(b);
  expectWallTime(b, a, /*allInsideRegions=*/false);
  if (!isRoot()) return;
  expectSegments(a.report, {{n - 1, "main", 1.0, 5.0}});
  EXPECT_NEAR(valueOf(a.report, "critical_path", "main", n - 1), 4.0, kEps);
}

}  // namespace
}  // namespace waitscope::test
