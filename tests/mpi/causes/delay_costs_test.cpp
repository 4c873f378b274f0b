// Root causes of wait states (Hermanns et al., EuroMPI 2013; docs/causes-delay.md): delay costs
// (short-term, long-term per family), direct/indirect and propagating/terminal
// wait states, on builder traces with exact times, at 2, 3 and 4 ranks where
// the scenario allows. Every test also checks the invariants: the delay costs
// add up to the waiting time they explain, and both classifications split
// exactly that waiting time.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/mpi/patterns/scenario.h"

namespace waitscope::test {
namespace {

using trace::Rank;
using trace::TraceBuilder;
using trace::WinId;
constexpr double kEps = 1e-9;

// `explained`: the total waiting time of the wait states with a cause.
void expectInvariants(const report::Report& rep, double explained) {
  const double delay = totalOf(rep, "delay_p2p") + totalOf(rep, "delay_collective") + totalOf(rep, "delay_rma");
  EXPECT_NEAR(delay, explained, kEps) << "delay costs";
  EXPECT_NEAR(totalOf(rep, "delay"), explained, kEps) << "delay (root)";
  EXPECT_NEAR(totalOf(rep, "mpi_wait_direct") + totalOf(rep, "mpi_wait_indirect"), explained, kEps);
  EXPECT_NEAR(totalOf(rep, "mpi_wait_propagating") + totalOf(rep, "mpi_wait_terminal"), explained, kEps);
}

// Hermanns et al. (EuroMPI 2013), Fig. 1: rank 0 foo (2 s) then MPI_Send to 1; rank 1 MPI_Recv then
// post/wait for rank 2; rank 2 start/put/complete. Late Sender on rank 1
// (2.0, direct, propagating) delays the post: Late Post on rank 2 (2.0,
// indirect, terminal). foo carries both: 2.0 short-term for the Late Sender, and 2.0 long-term
// filed, as Scalasca files it, under the family of the wait state the cost propagated to: the
// Late Post's (RMA), not the Late Sender's.
void paperChain(Scenario& s) {
  s.rank(0).enter(1.1, "foo").leave(3.1, "foo").send(3.1, 3.2, 1, 4, 0);
  s.rank(1).recv(1.1, 3.1, 0, 4, 0).post(3.1, 3.2, s.win, {2}).wait(3.6, 3.7, s.win);
  s.rank(2).start(1.1, 3.3, s.win, {1}).put(3.3, 3.4, s.win, 1, 4).complete(3.4, 3.5, s.win);
}

TEST(DelayCosts, PaperChain) {
  if (size() < 3) GTEST_SKIP() << "the chain needs 3 ranks";
  Scenario s;
  paperChain(s);
  const report::Report rep = s.analyze();
  if (!isRoot()) return;
  EXPECT_NEAR(valueOf(rep, "mpi_latesender", "main/MPI_Recv", 1), 2.0, kEps);
  EXPECT_NEAR(valueOf(rep, "mpi_rma_sync_late_post", "main/MPI_Win_start", 2), 2.0, kEps);
  // Classification.
  EXPECT_NEAR(valueOf(rep, "mpi_wait_direct", "main/MPI_Recv", 1), 2.0, kEps);
  EXPECT_NEAR(valueOf(rep, "mpi_wait_indirect", "main/MPI_Recv", 1), 0.0, kEps);
  EXPECT_NEAR(valueOf(rep, "mpi_wait_propagating", "main/MPI_Recv", 1), 2.0, kEps);
  EXPECT_NEAR(valueOf(rep, "mpi_wait_terminal", "main/MPI_Recv", 1), 0.0, kEps);
  EXPECT_NEAR(valueOf(rep, "mpi_wait_indirect", "main/MPI_Win_start", 2), 2.0, kEps);
  EXPECT_NEAR(valueOf(rep, "mpi_wait_direct", "main/MPI_Win_start", 2), 0.0, kEps);
  EXPECT_NEAR(valueOf(rep, "mpi_wait_terminal", "main/MPI_Win_start", 2), 2.0, kEps);
  // Delay costs: all of it on foo, at the Late Sender's synchronization point.
  EXPECT_NEAR(valueOf(rep, "delay_p2p", "main/foo", 0), 2.0, kEps);
  EXPECT_NEAR(valueOf(rep, "delay_p2p_longterm", "main/foo", 0), 0.0, kEps);
  EXPECT_NEAR(valueOf(rep, "delay_rma", "main/foo", 0), 2.0, kEps);
  EXPECT_NEAR(valueOf(rep, "delay_rma_longterm", "main/foo", 0), 2.0, kEps);
  EXPECT_NEAR(totalOf(rep, "delay_p2p"), 2.0, kEps);
  EXPECT_NEAR(totalOf(rep, "delay_rma"), 2.0, kEps);
  EXPECT_NEAR(totalOf(rep, "delay_collective"), 0.0, kEps);
  expectInvariants(rep, 4.0);
}

// waitscope-analyze frees the payload tables once the backward replay has built its index from
// them, and the events once the critical path and the interval profiles have read them
// (AnalysisOptions::releaseTrace): the results are the same, and the tables and events are gone.
TEST(DelayCosts, ReleasingTheTraceChangesNoResult) {
  if (size() < 3) GTEST_SKIP() << "the chain needs 3 ranks";
  Scenario s;
  paperChain(s);
  s.close();
  analyzer::AnalysisOptions release;
  release.releaseTrace = true;
  forEachLocation(s.b.trace(), [&](trace::Trace& released, const replay::LocationComm& world) {
    trace::Trace kept = released;
    const replay::LocalResult a = analyzer::analyzeLocation(kept, world);
    const replay::LocalResult b = analyzer::analyzeLocation(released, world, release);
    const auto& keptEvents = kept.locations[0];
    EXPECT_GT(keptEvents.messages.size() + keptEvents.collectives.size() + keptEvents.rma.size(), 0u);
    const auto& releasedEvents = released.locations[0];
    EXPECT_EQ(releasedEvents.messages.size() + releasedEvents.collectives.size() + releasedEvents.rma.size(), 0u);
    EXPECT_GT(keptEvents.events.size(), 0u);
    EXPECT_EQ(releasedEvents.events.capacity(), 0u);
    EXPECT_EQ(released.eventCount(), kept.eventCount());
    const auto entriesA = a.severities.entries(), entriesB = b.severities.entries();
    ASSERT_EQ(entriesA.size(), entriesB.size());
    bool delayCosts = false;
    for (std::size_t i = 0; i < entriesA.size(); ++i) {
      EXPECT_EQ(entriesA[i].metric, entriesB[i].metric) << i;
      EXPECT_EQ(entriesA[i].path, entriesB[i].path) << i;
      EXPECT_EQ(entriesA[i].value, entriesB[i].value) << i;  // bit for bit: the same arithmetic
      delayCosts = delayCosts || entriesA[i].metric == metrics::Metric::DelayRma;
    }
    // Rank 0 carries the delay costs (foo); every rank's results compare equal above.
    if (world.rank() == 0) {
      EXPECT_TRUE(delayCosts);
    }
    EXPECT_EQ(a.severities.instances().size(), b.severities.instances().size());
    ASSERT_EQ(a.criticalPath.size(), b.criticalPath.size());
    for (std::size_t i = 0; i < a.criticalPath.size(); ++i) {
      EXPECT_EQ(a.criticalPath[i].path, b.criticalPath[i].path) << i;
      EXPECT_EQ(a.criticalPath[i].start, b.criticalPath[i].start) << i;
      EXPECT_EQ(a.criticalPath[i].end, b.criticalPath[i].end) << i;
    }
  });
}

// The pipeline of P2pPipeline repeated 40000 times, 3 s apart: more wait states per rank than one
// piece of the answers rank 0 sends back while it replays the ranks' streams (two or more pieces
// per rank at 2 to 4 ranks), so the propagated costs of later pieces must reach their ranks too.
// By construction: Late Sender on rank r of 1.0 + 0.1 (r-1) per iteration; the last rank's waits
// delay nobody (terminal); every delay cost, short- and long-term, adds up to the waiting time
// (expectInvariants), which fails if a propagated cost is lost or lands on the wrong wait state.
TEST(DelayCosts, ManyWaitStatesPropagateAcrossAnswerPieces) {
  const Rank n = size();
  constexpr int kIterations = 40000;
  TraceBuilder b(n);
  for (Rank r = 0; r < n; ++r) b.rank(r).enter(0.0, "main").init(0.0, 0.5);
  double explained = 0.0;
  for (int i = 0; i < kIterations; ++i) {
    const double t = 1.1 + 3.0 * i;
    b.rank(0).enter(t, "work").leave(t + 1.0, "work").send(t + 1.0, t + 1.1, 1, 8, 0);
    for (Rank r = 1; r < n; ++r) {
      const double sendEnter = t + 1.0 + 0.1 * (r - 1);  // of rank r-1
      b.rank(r).recv(t, sendEnter + 0.05, r - 1, 8, 0);
      explained += sendEnter - t;
      if (r + 1 < n) b.rank(r).send(sendEnter + 0.1, sendEnter + 0.15, r + 1, 8, 0);
    }
  }
  const double end = 1.1 + 3.0 * kIterations;
  for (Rank r = 0; r < n; ++r) b.rank(r).finalize(end, end + 0.5).leave(end + 1.0, "main");
  const report::Report rep = analyzeBuilt(b);
  if (!isRoot()) return;
  constexpr double kSumEps = 1e-6;  // 40000 additions of values near 1
  for (Rank r = 1; r < n; ++r) {
    const double omega = 1.0 + 0.1 * (r - 1);
    EXPECT_NEAR(valueOf(rep, "mpi_latesender", "main/MPI_Recv", r), kIterations * omega, kSumEps * kIterations) << r;
  }
  EXPECT_NEAR(valueOf(rep, "mpi_wait_terminal", "main/MPI_Recv", n - 1), kIterations * (1.0 + 0.1 * (n - 2)),
              kSumEps * kIterations);
  if (n >= 3) {  // rank 1's waits delay rank 2's: they propagate, and rank 2 waits indirectly
    EXPECT_GT(valueOf(rep, "mpi_wait_propagating", "main/MPI_Recv", 1), 0.5 * kIterations);
    EXPECT_GT(valueOf(rep, "mpi_wait_indirect", "main/MPI_Recv", 2), 0.5 * kIterations);
    EXPECT_GT(totalOf(rep, "delay_p2p_longterm"), 0.5 * kIterations);
  }
  const double delay = totalOf(rep, "delay_p2p") + totalOf(rep, "delay_collective") + totalOf(rep, "delay_rma");
  EXPECT_NEAR(delay, explained, kSumEps * kIterations) << "delay costs";
  EXPECT_NEAR(totalOf(rep, "mpi_wait_direct") + totalOf(rep, "mpi_wait_indirect"), explained, kSumEps * kIterations);
  EXPECT_NEAR(totalOf(rep, "mpi_wait_propagating") + totalOf(rep, "mpi_wait_terminal"), explained,
              kSumEps * kIterations);
}

// A Wait at Barrier that propagates into a Late Sender. Ranks 0 and 1 share a barrier on their
// own communicator: rank 0 works [1.1, 2.1] and enters it at 2.1, rank 1 at 1.1 (both leave at
// 2.2): Wait at Barrier 1.0 on rank 1, caused by rank 0. Rank 1 then sends to rank 2 at 2.2,
// whose MPI_Recv waits from 1.1: Late Sender 1.1, caused by rank 1. Intervals from MPI_Init's
// enter (0.0), where both sides match but for: rank 1's MPI_Barrier, 0.1 outside its wait (its
// delay) and the 1.0 wait inside (v), so D = 1.1; rank 0's work, 1.0 (D = 1.0).
// Late Sender: 0.1 short-term point-to-point on rank 1's MPI_Barrier; 1.0 passed to the barrier
// wait. Wait at Barrier: 1.0 short-term collective on rank 0's work, and the 1.0 it was passed,
// long-term, filed under the Late Sender's family (point-to-point), as Scalasca files it.
TEST(DelayCosts, LongTermCostIsFiledUnderTheFamilyOfTheLaterWait) {
  if (size() < 3) GTEST_SKIP() << "the chain needs 3 ranks";
  const Rank n = size();
  TraceBuilder b(n);
  const trace::CommId pair = b.defineComm("pair", {0, 1});
  for (Rank r = 0; r < n; ++r) b.rank(r).enter(0.0, "main").init(0.0, 0.5);
  b.rank(0).enter(1.1, "work").leave(2.1, "work").barrier(2.1, 2.2, pair);
  b.rank(1).barrier(1.1, 2.2, pair).send(2.2, 2.3, 2, 8, 0);
  b.rank(2).recv(1.1, 2.3, 1, 8, 0);
  for (Rank r = 0; r < n; ++r) b.rank(r).finalize(9.0, 9.5).leave(10.0, "main");
  const report::Report rep = analyzeBuilt(b);
  if (!isRoot()) return;
  EXPECT_NEAR(valueOf(rep, "mpi_barrier_wait", "main/MPI_Barrier", 1), 1.0, kEps);
  EXPECT_NEAR(valueOf(rep, "mpi_latesender", "main/MPI_Recv", 2), 1.1, kEps);
  EXPECT_NEAR(valueOf(rep, "delay_p2p", "main/MPI_Barrier", 1), 0.1, kEps);
  EXPECT_NEAR(valueOf(rep, "delay_collective", "main/work", 0), 1.0, kEps);
  EXPECT_NEAR(valueOf(rep, "delay_collective_longterm", "main/work", 0), 0.0, kEps);
  EXPECT_NEAR(valueOf(rep, "delay_p2p", "main/work", 0), 1.0, kEps);
  EXPECT_NEAR(valueOf(rep, "delay_p2p_longterm", "main/work", 0), 1.0, kEps);
  EXPECT_NEAR(totalOf(rep, "delay_p2p"), 1.1, kEps);
  EXPECT_NEAR(totalOf(rep, "delay_collective"), 1.0, kEps);
  expectInvariants(rep, 2.1);
}

// Wait at Finalize has no delay costs (Scalasca's delay analysis covers none): rank 1 works
// [1.1, 3.1] and enters MPI_Finalize at 3.1, the others at 1.1: Wait at Finalize 2.0 on each
// other rank, caused by rank 1, which leaves no delay cost and no direct/indirect or
// propagating/terminal waiting time.
TEST(DelayCosts, NoneForWaitAtFinalize) {
  const Rank n = size();
  TraceBuilder b(n);
  for (Rank r = 0; r < n; ++r) b.rank(r).enter(0.0, "main").init(0.0, 0.5);
  b.rank(1).enter(1.1, "work").leave(3.1, "work");
  for (Rank r = 0; r < n; ++r) b.rank(r).finalize(r == 1 ? 3.1 : 1.1, 3.2).leave(3.3, "main");
  const report::Report rep = analyzeBuilt(b);
  if (!isRoot()) return;
  EXPECT_NEAR(totalOf(rep, "mpi_finalize_wait"), 2.0 * (n - 1), kEps);
  EXPECT_NEAR(valueOf(rep, "delay_collective", "main/work", 1), 0.0, kEps);
  expectInvariants(rep, 0.0);
}

// Without the backward replay (AnalysisOptions::causes off: the forward-only
// analysis the speed benchmark times) the forward patterns are the same and
// no cause metric has a value.
TEST(DelayCosts, ForwardOnlyLeavesOutTheCauses) {
  if (size() < 3) GTEST_SKIP() << "the chain needs 3 ranks";
  Scenario s;
  paperChain(s);
  analyzer::AnalysisOptions forwardOnly;
  forwardOnly.causes = false;
  const report::Report rep = s.analyze(forwardOnly);
  if (!isRoot()) return;
  EXPECT_NEAR(valueOf(rep, "mpi_latesender", "main/MPI_Recv", 1), 2.0, kEps);
  EXPECT_NEAR(valueOf(rep, "mpi_rma_sync_late_post", "main/MPI_Win_start", 2), 2.0, kEps);
  for (const char* metric : {"delay", "delay_p2p", "delay_rma", "mpi_wait_direct", "mpi_wait_indirect",
                             "mpi_wait_propagating", "mpi_wait_terminal", "critical_path"})
    EXPECT_EQ(totalOf(rep, metric), 0.0) << metric;
}

// Fences on a window over all ranks. Epoch 1: rank 0 works 1.0, the others 0.5
// (Wait at Fence 0.5 each, caused by rank 0). Epoch 2: rank 1 works 0.3, the
// others 0.1 (Wait at Fence 0.2 each, caused by rank 1). Both fences
// synchronize everyone, so rank 1's own wait at the second fence does not make
// the third fence's waits indirect: all direct and terminal.
TEST(DelayCosts, Fence) {
  const Rank n = size();
  Scenario s;
  for (Rank r = 0; r < n; ++r) s.rank(r).fence(1.1, 1.2, s.win);
  for (Rank r = 0; r < n; ++r) {
    const double end1 = r == 0 ? 2.2 : 1.7;
    s.rank(r).enter(1.2, "work").leave(end1, "work").fence(end1, 2.3, s.win);
    const double end2 = r == 1 ? 2.6 : 2.4;
    s.rank(r).enter(2.3, "work").leave(end2, "work").fence(end2, 2.7, s.win);
  }
  const report::Report rep = s.analyze();
  if (!isRoot()) return;
  const double waiters = n - 1;
  EXPECT_NEAR(totalOf(rep, "mpi_rma_wait_at_fence"), 0.7 * waiters, kEps);
  EXPECT_NEAR(valueOf(rep, "delay_rma", "main/work", 0), 0.5 * waiters, kEps);
  EXPECT_NEAR(valueOf(rep, "delay_rma", "main/work", 1), 0.2 * waiters, kEps);
  EXPECT_NEAR(totalOf(rep, "delay_rma_longterm"), 0.0, kEps);
  EXPECT_NEAR(totalOf(rep, "mpi_wait_indirect"), 0.0, kEps);
  EXPECT_NEAR(totalOf(rep, "mpi_wait_propagating"), 0.0, kEps);
  EXPECT_NEAR(totalOf(rep, "mpi_wait_terminal"), 0.7 * waiters, kEps);
  expectInvariants(rep, 0.7 * waiters);
}

// GATS: target 0 works 1.0 before its post, origins 0.3 before MPI_Win_start:
// Late Post 0.7 per origin, charged to work on rank 0. The last origin then
// spends 0.5 in `late` before MPI_Win_complete: Early Wait 0.7 on rank 0 (its
// Late Complete part is the same wait). Since the post (2.1) the last origin
// spent 0.2 in MPI_Win_start, 0.1 in MPI_Put, 0.5 in late (0.8), the target 0.1
// in MPI_Win_post: 0.7 is split 2:1:5 over those call paths.
TEST(DelayCosts, Gats) {
  const Rank n = size();
  const Rank last = n - 1;
  Scenario s;
  s.rank(0).enter(1.1, "work").leave(2.1, "work").post(2.1, 2.2, s.win, othersThan(0)).wait(2.2, 3.1, s.win);
  for (Rank r = 1; r < n; ++r) {
    s.rank(r).enter(1.1, "work").leave(1.4, "work").start(1.4, 2.3, s.win, {0}).put(2.3, 2.4, s.win, 0, 8);
    if (r == last) s.rank(r).enter(2.4, "late").leave(2.9, "late").complete(2.9, 3.0, s.win);
    else s.rank(r).complete(2.4, 2.5, s.win);
  }
  const report::Report rep = s.analyze();
  if (!isRoot()) return;
  const double origins = n - 1;
  EXPECT_NEAR(totalOf(rep, "mpi_rma_sync_late_post"), 0.7 * origins, kEps);
  EXPECT_NEAR(valueOf(rep, "mpi_rma_early_wait", "main/MPI_Win_wait", 0), 0.7, kEps);
  EXPECT_NEAR(valueOf(rep, "delay_rma", "main/work", 0), 0.7 * origins, kEps);
  EXPECT_NEAR(valueOf(rep, "delay_rma", "main/late", last), 0.7 * 5 / 8, kEps);
  EXPECT_NEAR(valueOf(rep, "delay_rma", "main/MPI_Win_start", last), 0.7 * 2 / 8, kEps);
  EXPECT_NEAR(valueOf(rep, "delay_rma", "main/MPI_Put", last), 0.7 * 1 / 8, kEps);
  EXPECT_NEAR(totalOf(rep, "delay_rma_longterm"), 0.0, kEps);
  EXPECT_NEAR(totalOf(rep, "mpi_wait_direct"), 0.7 * origins + 0.7, kEps);
  expectInvariants(rep, 0.7 * origins + 0.7);
}

// The CGPOP case of Hermanns et al. (EuroMPI 2013): a barrier right before a GATS exchange. Rank 1
// works 1.0 before the barrier, the others 0.5 (Barrier Wait 0.5 each, delay
// in work on rank 1). The target, rank 0, leaves the barrier 0.4 after the
// others (imbalanced Barrier Completion), so its post is late: Late Post 0.4
// per origin whose root cause is MPI_Barrier on rank 0, not the barrier's
// waiting time (both sides were synchronized at the barrier).
TEST(DelayCosts, CgpopBarrierBeforeGats) {
  const Rank n = size();
  Scenario s;
  for (Rank r = 0; r < n; ++r) {
    const double workEnd = r == 1 ? 2.1 : 1.6;
    s.rank(r).enter(1.1, "work").leave(workEnd, "work").barrier(workEnd, r == 0 ? 2.6 : 2.2);
  }
  s.rank(0).post(2.6, 2.7, s.win, othersThan(0)).wait(2.9, 3.0, s.win);
  for (Rank r = 1; r < n; ++r)
    s.rank(r).start(2.2, 2.8, s.win, {0}).put(2.8, 2.85, s.win, 0, 8).complete(2.85, 2.9, s.win);
  const report::Report rep = s.analyze();
  if (!isRoot()) return;
  const double origins = n - 1;
  const double barrierWaiters = n - 1;
  EXPECT_NEAR(totalOf(rep, "mpi_barrier_wait"), 0.5 * barrierWaiters, kEps);
  EXPECT_NEAR(valueOf(rep, "mpi_barrier_completion", "main/MPI_Barrier", 0), 0.4, kEps);
  EXPECT_NEAR(totalOf(rep, "mpi_rma_sync_late_post"), 0.4 * origins, kEps);
  EXPECT_NEAR(valueOf(rep, "delay_rma", "main/MPI_Barrier", 0), 0.4 * origins, kEps);
  EXPECT_NEAR(valueOf(rep, "delay_collective", "main/work", 1), 0.5 * barrierWaiters, kEps);
  EXPECT_NEAR(totalOf(rep, "mpi_wait_indirect"), 0.0, kEps);
  expectInvariants(rep, 0.5 * barrierWaiters + 0.4 * origins);
}

// Propagation through a chain of messages at any N: rank 0 works 1.0 and
// sends to 1; each rank r > 0 receives from r-1 (entered at 1.1, left 0.05
// after the send's enter), then sends to r+1 another 0.05 later. Late Sender
// on rank r: omega_r = 1.0 + 0.1 (r-1). For r >= 2 its indirect part is rank
// r-1's own wait (omega_{r-1}), the direct 0.1 is rank r-1's MPI_Recv tail and
// main time (0.05 short-term each). Every wait but the last propagates fully.
TEST(DelayCosts, P2pPipeline) {
  const Rank n = size();
  TraceBuilder b(n);
  for (Rank r = 0; r < n; ++r) b.rank(r).enter(0.0, "main").init(0.0, 0.5);
  b.rank(0).enter(1.1, "work").leave(2.1, "work").send(2.1, 2.2, 1, 8, 0);
  double explained = 0.0;
  for (Rank r = 1; r < n; ++r) {
    const double sendEnter = 2.1 + 0.1 * (r - 1);  // of rank r-1
    b.rank(r).recv(1.1, sendEnter + 0.05, r - 1, 8, 0);
    explained += sendEnter - 1.1;
    if (r + 1 < n) b.rank(r).send(sendEnter + 0.1, sendEnter + 0.15, r + 1, 8, 0);
  }
  for (Rank r = 0; r < n; ++r) b.rank(r).finalize(9.0, 9.5).leave(10.0, "main");
  const report::Report rep = analyzeBuilt(b);
  if (!isRoot()) return;
  auto omega = [](Rank r) { return 1.0 + 0.1 * (r - 1); };
  EXPECT_NEAR(valueOf(rep, "mpi_wait_direct", "main/MPI_Recv", 1), 1.0, kEps);
  EXPECT_NEAR(valueOf(rep, "delay_p2p", "main/work", 0) - valueOf(rep, "delay_p2p_longterm", "main/work", 0), 1.0,
              kEps);
  for (Rank r = 2; r < n; ++r) {
    EXPECT_NEAR(valueOf(rep, "mpi_latesender", "main/MPI_Recv", r), omega(r), kEps) << r;
    EXPECT_NEAR(valueOf(rep, "mpi_wait_indirect", "main/MPI_Recv", r), omega(r - 1), kEps) << r;
    EXPECT_NEAR(valueOf(rep, "mpi_wait_direct", "main/MPI_Recv", r), 0.1, kEps) << r;
    const double shortTerm = valueOf(rep, "delay_p2p", "main/MPI_Recv", r - 1) -
                             valueOf(rep, "delay_p2p_longterm", "main/MPI_Recv", r - 1);
    EXPECT_NEAR(shortTerm, 0.05, kEps) << r;
    EXPECT_NEAR(valueOf(rep, "mpi_wait_propagating", "main/MPI_Recv", r - 1), omega(r - 1), kEps) << r;
  }
  EXPECT_NEAR(valueOf(rep, "mpi_wait_terminal", "main/MPI_Recv", n - 1), omega(n - 1), kEps);
  expectInvariants(rep, explained);
}

}  // namespace
}  // namespace waitscope::test
