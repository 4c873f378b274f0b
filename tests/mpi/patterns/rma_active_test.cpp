// RMA active-target patterns (Hermanns, Geimer, Mohr, Wolf, EuroPVM/MPI 2009 and IJHPCA 2012) with
// exact values, at any rank count N >= 2: Late Post (both variants), Early Transfer, Early Wait,
// Late Complete, Wait at Fence, Early Fence, Wait at Create/Free, pairwise and unneeded
// synchronization counts, and the validation of epoch structure.
#include <gtest/gtest.h>
#include <mpi.h>

#include <map>
#include <string>
#include <vector>

#include "analysis/patterns/rma_active_validation.h"
#include "analysis/replay/call_index.h"
#include "analysis/replay/communicators.h"
#include "analysis/replay/replay_context.h"
#include "analysis/replay/severities.h"
#include "tests/mpi/patterns/scenario.h"

namespace waitscope::test {
namespace {

using trace::Rank;
using trace::TraceBuilder;
using trace::WinId;
constexpr double kEps = 1e-9;

// For the scenarios whose times break an epoch's order on purpose: analyzed as recorded.
analyzer::AnalysisOptions recordedTimes() {
  analyzer::AnalysisOptions options;
  options.timeCorrection = false;
  return options;
}

// Every wait-state metric of the report (metric-inclusive totals) must be the
// expected one, 0 where none is given: no pattern shows up where it should not.
void expectOnly(const report::Report& rep, const std::map<std::string, double>& expected) {
  static const char* const kWaitMetrics[] = {
      "mpi_init_completion",  "mpi_finalize_wait",    "mpi_rma_wait_at_create",
      "mpi_rma_wait_at_free", "mpi_barrier_wait",     "mpi_barrier_completion",
      "mpi_rma_sync_late_post", "mpi_rma_early_wait", "mpi_rma_late_complete",
      "mpi_rma_wait_at_fence", "mpi_rma_early_fence", "mpi_rma_sync_lock_competition",
      "mpi_rma_sync_wait_for_progress", "mpi_latesender", "mpi_latereceiver",
      "mpi_earlyreduce",      "mpi_earlyscan",        "mpi_latebroadcast",
      "mpi_wait_nxn",         "mpi_nxn_completion",   "mpi_rma_early_transfer",
      "mpi_rma_comm_lock_competition", "rma_epoch_pairsync_count", "rma_epoch_pairsync_unneeded_count"};
  for (const char* metric : kWaitMetrics) {
    const auto it = expected.find(metric);
    EXPECT_NEAR(totalOf(rep, metric), it == expected.end() ? 0.0 : it->second, kEps) << metric;
  }
  for (const auto& [metric, value] : expected) {
    bool known = false;
    for (const char* m : kWaitMetrics) known = known || metric == m;
    EXPECT_TRUE(known) << "expectOnly: unknown metric " << metric;
  }
}

// Causes of every instance of `metric`, which must all be `cause`.
void expectCause(const report::Report& rep, const std::string& metric, Rank cause) {
  const std::uint32_t m = rep.findMetric(metric);
  std::size_t n = 0;
  for (const auto& i : rep.instances) {
    if (i.metric != m) continue;
    ++n;
    ASSERT_LT(i.cause, rep.locations.size()) << metric;
    EXPECT_EQ(rep.locations[i.cause].rank, cause) << metric;
  }
  EXPECT_GT(n, 0u) << metric;
}

// ------------------------------------------------------------------ GATS

// Target 0 exposes to 1..N-1; every origin puts once. The post is entered at
// 2.25 while the origins block in MPI_Win_start (entered at 2.0 + 0.01 r).
TEST(RmaActive, LatePostInStart) {
  const Rank n = size();
  Scenario s;
  s.rank(0).post(2.25, 2.3, s.win, othersThan(0)).wait(3.0, 3.1, s.win);
  for (Rank r = 1; r < n; ++r)
    s.rank(r).start(2.0 + 0.01 * r, 2.3, s.win, {0}).put(2.4, 2.5, s.win, 0, 8).complete(2.6, 2.65, s.win);
  const report::Report rep = s.analyze();
  if (!isRoot()) return;
  double total = 0.0;
  for (Rank r = 1; r < n; ++r) {
    EXPECT_NEAR(valueOf(rep, "mpi_rma_sync_late_post", "main/MPI_Win_start", r), 0.25 - 0.01 * r, kEps) << r;
    EXPECT_NEAR(valueOf(rep, "mpi_rma_sync_late_post", "main/MPI_Win_complete", r), 0.0, kEps) << r;
    total += 0.25 - 0.01 * r;
  }
  EXPECT_NEAR(valueOf(rep, "rma_epoch_pairsync_count", "main/MPI_Win_wait", 0), n - 1, kEps);
  expectOnly(rep, {{"mpi_rma_sync_late_post", total}, {"rma_epoch_pairsync_count", n - 1}});
  expectCause(rep, "mpi_rma_sync_late_post", 0);
}

// MPI_Win_start returns at once; the post (2.45) falls into MPI_Win_complete
// (entered at 2.2 + 0.01 r), after the put.
TEST(RmaActive, LatePostInComplete) {
  const Rank n = size();
  Scenario s;
  s.rank(0).post(2.45, 2.46, s.win, othersThan(0)).wait(2.6, 2.7, s.win);
  for (Rank r = 1; r < n; ++r)
    s.rank(r)
        .start(2.0, 2.05, s.win, {0})
        .put(2.1, 2.15, s.win, 0, 8)
        .complete(2.2 + 0.01 * r, 2.5, s.win);
  const report::Report rep = s.analyze();
  if (!isRoot()) return;
  double total = 0.0;
  for (Rank r = 1; r < n; ++r) {
    EXPECT_NEAR(valueOf(rep, "mpi_rma_sync_late_post", "main/MPI_Win_complete", r), 0.25 - 0.01 * r, kEps) << r;
    EXPECT_NEAR(valueOf(rep, "mpi_rma_sync_late_post", "main/MPI_Win_start", r), 0.0, kEps) << r;
    total += 0.25 - 0.01 * r;
  }
  expectOnly(rep, {{"mpi_rma_sync_late_post", total}, {"rma_epoch_pairsync_count", n - 1}});
  expectCause(rep, "mpi_rma_sync_late_post", 0);
}

// The origins' transfers (put, get or accumulate by rank) are under way when
// the target enters MPI_Win_post at 2.3.
TEST(RmaActive, EarlyTransfer) {
  const Rank n = size();
  Scenario s;
  s.rank(0).post(2.3, 2.31, s.win, othersThan(0)).wait(2.8, 2.9, s.win);
  std::map<std::string, double> byCall;
  for (Rank r = 1; r < n; ++r) {
    auto& o = s.rank(r).start(2.0, 2.05, s.win, {0});
    const double enter = 2.1 + 0.01 * r;
    if (r % 3 == 1) o.put(enter, 2.5, s.win, 0, 8);
    else if (r % 3 == 2) o.get(enter, 2.5, s.win, 0, 8);
    else o.accumulate(enter, 2.5, s.win, 0, 1);
    o.complete(2.6, 2.7, s.win);
  }
  const report::Report rep = s.analyze();
  if (!isRoot()) return;
  double total = 0.0;
  for (Rank r = 1; r < n; ++r) {
    const std::string call = r % 3 == 1 ? "main/MPI_Put" : r % 3 == 2 ? "main/MPI_Get" : "main/MPI_Accumulate";
    EXPECT_NEAR(valueOf(rep, "mpi_rma_early_transfer", call, r), 0.2 - 0.01 * r, kEps) << r;
    total += 0.2 - 0.01 * r;
  }
  expectOnly(rep, {{"mpi_rma_early_transfer", total}, {"rma_epoch_pairsync_count", n - 1}});
  expectCause(rep, "mpi_rma_early_transfer", 0);
}

// The target waits from 2.1; origin r enters MPI_Win_complete at 2.5 + 0.1 (r-1).
// Odd origins put (last exit 2.25 + 0.01 r), even ones access nothing (their
// "last operation" is the exit of MPI_Win_start, 2.02) and are unneeded.
TEST(RmaActive, EarlyWaitAndLateComplete) {
  const Rank n = size();
  Scenario s;
  s.rank(0).post(2.0, 2.01, s.win, othersThan(0)).wait(2.1, 3.05, s.win);
  double lastExit = 2.02;
  double unneeded = 0;
  for (Rank r = 1; r < n; ++r) {
    auto& o = s.rank(r).start(2.0, 2.02, s.win, {0});
    if (r % 2 == 1) {
      o.put(2.2, 2.25 + 0.01 * r, s.win, 0, 8);
      lastExit = std::max(lastExit, 2.25 + 0.01 * r);
    } else {
      unneeded += 1;
    }
    o.complete(2.5 + 0.1 * (r - 1), 3.0, s.win);
  }
  const report::Report rep = s.analyze();
  if (!isRoot()) return;
  const double latestComplete = 2.5 + 0.1 * (n - 2);
  const double earlyWait = latestComplete - 2.1;
  const double lateComplete = latestComplete - lastExit;
  EXPECT_NEAR(valueOf(rep, "mpi_rma_early_wait", "main/MPI_Win_wait", 0), earlyWait, kEps);
  EXPECT_NEAR(valueOf(rep, "mpi_rma_late_complete", "main/MPI_Win_wait", 0), lateComplete, kEps);
  EXPECT_NEAR(valueOf(rep, "rma_epoch_pairsync_count", "main/MPI_Win_wait", 0), n - 1, kEps);
  EXPECT_NEAR(valueOf(rep, "rma_epoch_pairsync_unneeded_count", "main/MPI_Win_wait", 0), unneeded, kEps);
  expectOnly(rep, {{"mpi_rma_early_wait", earlyWait},
                   {"mpi_rma_late_complete", lateComplete},
                   {"rma_epoch_pairsync_count", n - 1},
                   {"rma_epoch_pairsync_unneeded_count", unneeded}});
  expectCause(rep, "mpi_rma_early_wait", n - 1);
  expectCause(rep, "mpi_rma_late_complete", n - 1);
}

// The target polls with MPI_Win_test: an unsuccessful test does nothing, the
// successful one closes the epoch; Early Wait ends at the test's exit when the
// last complete is entered later (the test returned before the origin was done).
TEST(RmaActive, EarlyWaitInASuccessfulTest) {
  const Rank n = size();
  Scenario s;
  s.rank(0).post(2.0, 2.01, s.win, othersThan(0)).winTest(2.1, 2.2, s.win, false).winTest(2.3, 2.6, s.win, true);
  for (Rank r = 1; r < n; ++r)
    s.rank(r).start(2.0, 2.02, s.win, {0}).put(2.05, 2.1, s.win, 0, 8).complete(r == n - 1 ? 2.7 : 2.4, 2.8, s.win);
  const report::Report rep = s.analyze(recordedTimes());
  if (!isRoot()) return;
  EXPECT_NEAR(valueOf(rep, "mpi_rma_early_wait", "main/MPI_Win_test", 0), 0.3, kEps);
  EXPECT_NEAR(valueOf(rep, "mpi_rma_late_complete", "main/MPI_Win_test", 0), 0.3, kEps);
  expectOnly(rep, {{"mpi_rma_early_wait", 0.3}, {"mpi_rma_late_complete", 0.3}, {"rma_epoch_pairsync_count", n - 1}});
}

// Every rank is origin and target at once (a ring: post to the left
// neighbour, start to the right one), on two windows in turn, with fences on a
// third window in between. Rank 0 posts late on window A; rank N-1 (its left
// neighbour's origin) waits in MPI_Win_start.
TEST(RmaActive, RingOnInterleavedWindows) {
  const Rank n = size();
  Scenario s;
  const WinId a = s.win;
  const WinId f = s.b.createWindow(s.b.world(), all(1.2), all(1.3));
  for (Rank r = 0; r < n; ++r) {
    const Rank left = (r + n - 1) % n, right = (r + 1) % n;
    auto& x = s.rank(r);
    x.fence(1.5, 1.6, f);
    x.post(r == 0 ? 2.5 : 2.0, r == 0 ? 2.55 : 2.05, a, {left});
    x.start(r == 0 ? 2.6 : 2.1, r == n - 1 ? 2.6 : r == 0 ? 2.65 : 2.15, a, {right});
    x.put(2.7, 2.75, a, right, 8);
    x.complete(2.8, 2.85, a);
    x.wait(2.9, 2.95, a);
    x.put(3.0, 3.05, f, right, 8);
    x.fence(3.2, 3.3, f);
  }
  s.b.freeWindow(f, all(7.0), all(7.1));
  const report::Report rep = s.analyze();
  if (!isRoot()) return;
  EXPECT_NEAR(valueOf(rep, "mpi_rma_sync_late_post", "main/MPI_Win_start", n - 1), 0.4, kEps);
  // GATS: one pair per rank (its left neighbour, never itself for N >= 2)
  EXPECT_NEAR(valueOf(rep, "rma_epoch_pairsync_count", "main/MPI_Win_wait", 0), 1.0, kEps);
  // fence: N-1 pairs per rank, of which all but the left neighbour are unneeded
  EXPECT_NEAR(valueOf(rep, "rma_epoch_pairsync_count", "main/MPI_Win_fence", 0), n - 1, kEps);
  EXPECT_NEAR(valueOf(rep, "rma_epoch_pairsync_unneeded_count", "main/MPI_Win_fence", 0), n - 2, kEps);
  expectOnly(rep, {{"mpi_rma_sync_late_post", 0.4},
                   {"rma_epoch_pairsync_count", n + n * (n - 1.0)},
                   {"rma_epoch_pairsync_unneeded_count", n * (n - 2.0)}});
  expectCause(rep, "mpi_rma_sync_late_post", 0);
}

// Fence epochs and a GATS epoch on the same window, one after the other (the
// program would pass MPI_MODE_NOSUCCEED / NOPRECEDE, which traces do not
// record); then passive-target transfers in a lock epoch, which do not count
// for the next fence. Rank 1 is late into the GATS epoch's MPI_Win_complete.
TEST(RmaActive, FencesAndGatsOnOneWindow) {
  const Rank n = size();
  Scenario s;
  for (Rank r = 0; r < n; ++r)
    s.rank(r).fence(2.0, 2.1, s.win).put(2.2, 2.3, s.win, (r + 1) % n, 8).fence(2.4, 2.5, s.win);
  s.rank(0).post(3.0, 3.01, s.win, othersThan(0)).wait(3.1, 3.6, s.win);
  for (Rank r = 1; r < n; ++r)
    s.rank(r).start(3.0, 3.01, s.win, {0}).put(3.02, 3.03, s.win, 0, 8).complete(r == 1 ? 3.5 : 3.2, 3.6, s.win);
  for (Rank r = 0; r < n; ++r) {
    s.rank(r).fence(4.0, 4.1, s.win);
    s.rank(r).lock(4.2, 4.3, s.win, 0, trace::RmaLockType::Shared).put(4.4, 4.5, s.win, 0, 8);
    s.rank(r).unlock(4.6, 4.7, s.win, 0);
    s.rank(r).fence(5.0, 5.1, s.win);
  }
  const report::Report rep = s.analyze();
  if (!isRoot()) return;
  EXPECT_NEAR(valueOf(rep, "mpi_rma_early_wait", "main/MPI_Win_wait", 0), 0.4, kEps);
  EXPECT_NEAR(valueOf(rep, "mpi_rma_late_complete", "main/MPI_Win_wait", 0), 0.4, kEps);
  // fences 2, 3 and 4 close epochs; only the first of them saw (fence-epoch) transfers
  const double pairs = 3.0 * n * (n - 1) + (n - 1);
  const double unneeded = 3.0 * n * (n - 1) - n;
  expectOnly(rep, {{"mpi_rma_early_wait", 0.4},
                   {"mpi_rma_late_complete", 0.4},
                   {"rma_epoch_pairsync_count", pairs},
                   {"rma_epoch_pairsync_unneeded_count", unneeded}});
  expectCause(rep, "mpi_rma_early_wait", 1);
}

// ------------------------------------------------------------------ fences

// Second fence: rank N-1 enters 0.4 s after the others. Third fence: rank 0
// leaves before rank N-1 enters, so it is not synchronizing (no wait).
TEST(RmaActive, WaitAtFence) {
  const Rank n = size();
  Scenario s;
  for (Rank r = 0; r < n; ++r) {
    s.rank(r).fence(2.0, 2.1, s.win).fence(r == n - 1 ? 3.4 : 3.0, 3.5, s.win);
    s.rank(r).fence(r == 0 ? 4.0 : 4.1, r == 0 ? 4.05 : 4.2, s.win);
  }
  const report::Report rep = s.analyze();
  if (!isRoot()) return;
  for (Rank r = 0; r < n; ++r)
    EXPECT_NEAR(valueOf(rep, "mpi_rma_wait_at_fence", "main/MPI_Win_fence", r), r == n - 1 ? 0.0 : 0.4, kEps) << r;
  // two closing fences, nobody accessed anybody
  expectOnly(rep, {{"mpi_rma_wait_at_fence", 0.4 * (n - 1)},
                   {"rma_epoch_pairsync_count", 2.0 * n * (n - 1)},
                   {"rma_epoch_pairsync_unneeded_count", 2.0 * n * (n - 1)}});
  expectCause(rep, "mpi_rma_wait_at_fence", n - 1);
}

// Origins put to rank 0 until 2.6 + 0.01 r; rank 0 enters the closing fence at
// 2.5 and leaves at 2.68, before the others enter at 2.7: the fence is not
// synchronizing, yet Early Fence counts (and counts as Wait at Fence).
TEST(RmaActive, EarlyFenceWithoutSynchronizingFence) {
  const Rank n = size();
  Scenario s;
  for (Rank r = 0; r < n; ++r) s.rank(r).fence(2.0, 2.1, s.win);
  s.rank(0).fence(2.5, 2.68, s.win);
  for (Rank r = 1; r < n; ++r) s.rank(r).put(2.2, 2.6 + 0.01 * r, s.win, 0, 8).fence(2.7, 2.75, s.win);
  const report::Report rep = s.analyze(recordedTimes());
  if (!isRoot()) return;
  const double early = 0.1 + 0.01 * (n - 1);
  EXPECT_NEAR(valueOf(rep, "mpi_rma_early_fence", "main/MPI_Win_fence", 0), early, kEps);
  EXPECT_NEAR(valueOf(rep, "mpi_rma_wait_at_fence", "main/MPI_Win_fence", 0), early, kEps);
  EXPECT_NEAR(valueOf(rep, "rma_epoch_pairsync_unneeded_count", "main/MPI_Win_fence", 0), 0.0, kEps);
  for (Rank r = 1; r < n; ++r)
    EXPECT_NEAR(valueOf(rep, "rma_epoch_pairsync_unneeded_count", "main/MPI_Win_fence", r), n - 1, kEps) << r;
  expectOnly(rep, {{"mpi_rma_early_fence", early},
                   {"mpi_rma_wait_at_fence", early},
                   {"rma_epoch_pairsync_count", n * (n - 1.0)},
                   {"rma_epoch_pairsync_unneeded_count", (n - 1.0) * (n - 1)}});
  expectCause(rep, "mpi_rma_early_fence", n - 1);
}

// A synchronizing fence: rank 1's put to rank 0 ends at 2.7, 0.2 s after rank 0
// entered the fence, and rank 1 itself enters at 2.8: Wait at Fence (0.3)
// includes Early Fence (0.2). The other origins wait 0.2 for rank 1.
TEST(RmaActive, EarlyFenceInsideWaitAtFence) {
  const Rank n = size();
  Scenario s;
  for (Rank r = 0; r < n; ++r) s.rank(r).fence(2.0, 2.1, s.win);
  s.rank(0).fence(2.5, 3.0, s.win);
  s.rank(1).put(2.2, 2.7, s.win, 0, 8).fence(2.8, 3.0, s.win);
  for (Rank r = 2; r < n; ++r) s.rank(r).put(2.2, 2.3, s.win, 0, 8).fence(2.6, 3.0, s.win);
  const report::Report rep = s.analyze();
  if (!isRoot()) return;
  EXPECT_NEAR(valueOf(rep, "mpi_rma_early_fence", "main/MPI_Win_fence", 0), 0.2, kEps);
  EXPECT_NEAR(valueOf(rep, "mpi_rma_wait_at_fence", "main/MPI_Win_fence", 0), 0.3, kEps);
  EXPECT_NEAR(valueOf(rep, "mpi_rma_wait_at_fence", "main/MPI_Win_fence", 1), 0.0, kEps);
  for (Rank r = 2; r < n; ++r)
    EXPECT_NEAR(valueOf(rep, "mpi_rma_wait_at_fence", "main/MPI_Win_fence", r), 0.2, kEps) << r;
  expectOnly(rep, {{"mpi_rma_early_fence", 0.2},
                   {"mpi_rma_wait_at_fence", 0.3 + 0.2 * (n - 2)},
                   {"rma_epoch_pairsync_count", n * (n - 1.0)},
                   {"rma_epoch_pairsync_unneeded_count", (n - 1.0) * (n - 1)}});
  expectCause(rep, "mpi_rma_early_fence", 1);
  expectCause(rep, "mpi_rma_wait_at_fence", 1);
}

// Pairwise counts over several fence epochs: in epoch k, only ranks with
// r % 2 == k % 2 put, to their right neighbour.
TEST(RmaActive, PairwiseCountsOverFenceEpochs) {
  const Rank n = size();
  Scenario s;
  const int epochs = 4;
  double unneeded = 0;
  for (Rank r = 0; r < n; ++r) s.rank(r).fence(2.0, 2.1, s.win);
  for (int k = 0; k < epochs; ++k) {
    std::vector<int> accessedBy(n, 0);
    for (Rank r = 0; r < n; ++r) {
      const double t = 3.0 + k;
      if (r % 2 == static_cast<Rank>(k % 2) && (r + 1) % n != r) {
        s.rank(r).put(t, t + 0.1, s.win, (r + 1) % n, 8);
        accessedBy[(r + 1) % n] = 1;
      }
      s.rank(r).fence(t + 0.5, t + 0.6, s.win);
    }
    for (Rank r = 0; r < n; ++r) unneeded += (n - 1) - accessedBy[r];
  }
  const report::Report rep = s.analyze();
  if (!isRoot()) return;
  expectOnly(rep, {{"rma_epoch_pairsync_count", 1.0 * epochs * n * (n - 1)},
                   {"rma_epoch_pairsync_unneeded_count", unneeded}});
}

// Scalasca's pairwise count (2.6, MPI_RMA.pattern and MpiCommunicationHandler.cpp) on the same
// epochs: every fence, the first included, counts all n members of the window's communicator
// (itself too; traces do not record MPI_MODE_NOPRECEDE, so no fence can be left out); a pair is
// unneeded when neither of the two accessed the other in the epoch the fence closes (the first
// fence closes none: all n unneeded).
TEST(RmaActive, ScalascaPairwiseCountsAtFences) {
  const Rank n = size();
  Scenario s;
  const int epochs = 4;
  double unneeded = n * n;  // the first fence
  for (Rank r = 0; r < n; ++r) s.rank(r).fence(2.0, 2.1, s.win);
  for (int k = 0; k < epochs; ++k) {
    std::vector<std::vector<bool>> touched(n, std::vector<bool>(n, false));  // either way
    for (Rank r = 0; r < n; ++r) {
      const double t = 3.0 + k;
      if (r % 2 == static_cast<Rank>(k % 2)) {
        const Rank target = (r + 1) % n;
        s.rank(r).put(t, t + 0.1, s.win, target, 8);
        touched[r][target] = touched[target][r] = true;
      }
      s.rank(r).fence(t + 0.5, t + 0.6, s.win);
    }
    for (Rank r = 0; r < n; ++r)
      for (Rank p = 0; p < n; ++p) unneeded += touched[r][p] ? 0.0 : 1.0;
  }
  const report::Report rep = s.analyze();
  if (!isRoot()) return;
  for (Rank r = 0; r < n; ++r)
    EXPECT_NEAR(valueOf(rep, "mpi_rma_pairsync_count", "main/MPI_Win_fence", r), 1.0 * n * (epochs + 1), kEps) << r;
  EXPECT_NEAR(totalOf(rep, "mpi_rma_pairsync_count"), 1.0 * n * n * (epochs + 1), kEps);
  EXPECT_NEAR(totalOf(rep, "mpi_rma_pairsync_unneeded_count"), unneeded, kEps);
  // Ours, per closed epoch: the n - 1 other members of each of the epochs' closing fences.
  EXPECT_NEAR(totalOf(rep, "rma_epoch_pairsync_count"), 1.0 * epochs * n * (n - 1), kEps);
}

// Scalasca's pairwise count in GATS: both sides count their group, the origin at
// MPI_Win_complete (its targets: 1), the target at MPI_Win_wait (its origins: n - 1); unneeded
// are the targets an origin did not access and the origins that did not access the target. Here
// odd origins put, even ones access nothing. A completing MPI_Win_test counts nothing there.
TEST(RmaActive, ScalascaPairwiseCountsInGats) {
  const Rank n = size();
  Scenario s;
  s.rank(0).post(2.0, 2.05, s.win, othersThan(0)).wait(3.0, 3.1, s.win);
  s.rank(0).post(4.0, 4.05, s.win, othersThan(0)).winTest(5.0, 5.1, s.win, true);
  double idle = 0;
  for (Rank r = 1; r < n; ++r) {
    for (const double t : {2.1, 4.1}) {
      auto& o = s.rank(r).start(t, t + 0.05, s.win, {0});
      if (r % 2 == 1) o.put(t + 0.1, t + 0.2, s.win, 0, 8);
      o.complete(t + 0.3, t + 0.35, s.win);
    }
    if (r % 2 == 0) idle += 1.0;
  }
  const report::Report rep = s.analyze();
  if (!isRoot()) return;
  EXPECT_NEAR(valueOf(rep, "mpi_rma_pairsync_count", "main/MPI_Win_wait", 0), n - 1, kEps);
  EXPECT_NEAR(valueOf(rep, "mpi_rma_pairsync_unneeded_count", "main/MPI_Win_wait", 0), idle, kEps);
  EXPECT_NEAR(valueOf(rep, "mpi_rma_pairsync_count", "main/MPI_Win_test", 0), 0.0, kEps);
  for (Rank r = 1; r < n; ++r) {
    EXPECT_NEAR(valueOf(rep, "mpi_rma_pairsync_count", "main/MPI_Win_complete", r), 2.0, kEps) << r;
    EXPECT_NEAR(valueOf(rep, "mpi_rma_pairsync_unneeded_count", "main/MPI_Win_complete", r), r % 2 == 0 ? 2.0 : 0.0,
                kEps)
        << r;
  }
  EXPECT_NEAR(totalOf(rep, "mpi_rma_pairsync_count"), (n - 1) + 2.0 * (n - 1), kEps);
  EXPECT_NEAR(totalOf(rep, "mpi_rma_pairsync_unneeded_count"), idle + 2.0 * idle, kEps);
  // Ours: at the target only, at the wait and the completing test alike.
  EXPECT_NEAR(totalOf(rep, "rma_epoch_pairsync_count"), 2.0 * (n - 1), kEps);
  EXPECT_NEAR(totalOf(rep, "rma_epoch_pairsync_unneeded_count"), 2.0 * idle, kEps);
}

// ------------------------------------------------------------------ window creation and release

// More fence epochs than one exchange batch holds (512): 1100 closing fences,
// exchanged in two full batches and a last one at MPI_Win_free. In every third
// epoch rank 1 puts to rank 0 and ends 0.001 s after rank 0 entered the fence
// (Early Fence); rank 0 always enters 0.002 s before the others (Wait at Fence).
TEST(RmaActive, FenceEpochsOverSeveralExchangeBatches) {
  const Rank n = size();
  Scenario s;
  const int epochs = 1100;
  for (Rank r = 0; r < n; ++r) s.rank(r).fence(2.0, 2.1, s.win);
  int withPut = 0;
  for (int k = 0; k < epochs; ++k) {
    const double t = 2.2 + 0.005 * k;
    if (k % 3 == 0) {
      s.rank(1).put(t, t + 0.002, s.win, 0, 8);
      ++withPut;
    }
    s.rank(0).fence(t + 0.001, t + 0.004, s.win);
    for (Rank r = 1; r < n; ++r) s.rank(r).fence(t + 0.003, t + 0.004, s.win);
  }
  const report::Report rep = s.analyze();
  if (!isRoot()) return;
  EXPECT_NEAR(valueOf(rep, "mpi_rma_early_fence", "main/MPI_Win_fence", 0), 0.001 * withPut, kEps);
  EXPECT_NEAR(valueOf(rep, "mpi_rma_wait_at_fence", "main/MPI_Win_fence", 0), 0.002 * epochs, kEps);
  EXPECT_NEAR(valueOf(rep, "rma_epoch_pairsync_unneeded_count", "main/MPI_Win_fence", 0),
              1.0 * epochs * (n - 1) - withPut, kEps);
  expectOnly(rep, {{"mpi_rma_early_fence", 0.001 * withPut},
                   {"mpi_rma_wait_at_fence", 0.002 * epochs},
                   {"rma_epoch_pairsync_count", 1.0 * epochs * n * (n - 1)},
                   {"rma_epoch_pairsync_unneeded_count", 1.0 * epochs * n * (n - 1) - withPut}});
  expectCause(rep, "mpi_rma_early_fence", 1);
}

// Rank r enters MPI_Win_create at 1.0 + 0.1 r (all leave at 1.5); MPI_Win_free
// is entered at 8.0 + 0.05 (N-1-r), left at 8.5. A second window is created
// without synchronizing (rank 0 leaves before rank N-1 enters): no wait, and no
// clock-condition violation (the standard lets a creation not synchronize).
TEST(RmaActive, WaitAtCreateAndFree) {
  const Rank n = size();
  TraceBuilder b(n);
  std::vector<double> createEnter, freeEnter, early, late;
  for (Rank r = 0; r < n; ++r) {
    b.rank(r).enter(0.0, "main").init(0.0, 0.5);
    createEnter.push_back(1.0 + 0.1 * r);
    freeEnter.push_back(8.0 + 0.05 * (n - 1 - r));
    early.push_back(r == 0 ? 2.0 : 2.2);
    late.push_back(r == 0 ? 2.1 : 2.3);
  }
  const WinId w = b.createWindow(b.world(), createEnter, all(1.5));
  const WinId unsynchronized = b.createWindow(b.world(), early, late);
  b.freeWindow(unsynchronized, all(7.0), all(7.1));
  b.freeWindow(w, freeEnter, all(8.5));
  for (Rank r = 0; r < n; ++r) b.rank(r).finalize(9.0, 9.5).leave(10.0, "main");
  const report::Report rep = analyzeBuilt(b);
  if (!isRoot()) return;
  EXPECT_EQ(rep.metaValue("clock_violations"), "0");
  EXPECT_EQ(rep.metaValue("time_correction"), "");
  double create = 0, free = 0;
  for (Rank r = 0; r < n; ++r) {
    EXPECT_NEAR(valueOf(rep, "mpi_rma_wait_at_create", "main/MPI_Win_create", r), 0.1 * (n - 1 - r), kEps) << r;
    EXPECT_NEAR(valueOf(rep, "mpi_rma_wait_at_free", "main/MPI_Win_free", r), 0.05 * r, kEps) << r;
    create += 0.1 * (n - 1 - r);
    free += 0.05 * r;
  }
  expectOnly(rep, {{"mpi_rma_wait_at_create", create}, {"mpi_rma_wait_at_free", free}});
  expectCause(rep, "mpi_rma_wait_at_create", n - 1);
  expectCause(rep, "mpi_rma_wait_at_free", 0);
}

// Windows on the two halves of a split, created and freed at the same moments
// many times (MPI_Win_allocate), each with a fence where the half's last rank
// is late. Open MPI 4.1 names shared-memory segments after the communicator
// id, which disjoint communicators may share: the analysis must not create
// windows on them at once.
TEST(RmaActive, WindowsOnDisjointHalves) {
  const Rank n = size();
  TraceBuilder b(n);
  std::vector<Rank> lower, upper;
  for (Rank r = 0; r < n; ++r) (r < n / 2 ? lower : upper).push_back(r);
  const trace::CommId halves[2] = {b.defineComm("MPI_Comm_split", lower), b.defineComm("MPI_Comm_split", upper)};
  const std::vector<Rank>* members[2] = {&lower, &upper};
  for (Rank r = 0; r < n; ++r) b.rank(r).enter(0.0, "main").init(0.0, 0.5);
  const int rounds = 8;
  double expected = 0;
  for (int k = 0; k < rounds; ++k) {
    const double t = 1.0 + k;
    for (int h = 0; h < 2; ++h) {
      const std::size_t m = members[h]->size();
      const WinId w = b.createWindow(halves[h], std::vector<double>(m, t), std::vector<double>(m, t + 0.1),
                                     trace::WindowKind::Allocate);
      for (std::size_t i = 0; i < m; ++i) {
        const bool last = i + 1 == m;
        b.rank((*members[h])[i]).fence(t + 0.2, t + 0.3, w).fence(last ? t + 0.5 : t + 0.4, t + 0.6, w);
        if (!last) expected += 0.1;
      }
      b.freeWindow(w, std::vector<double>(m, t + 0.7), std::vector<double>(m, t + 0.8));
    }
  }
  for (Rank r = 0; r < n; ++r) b.rank(r).finalize(20.0, 20.5).leave(21.0, "main");
  const report::Report rep = analyzeBuilt(b);
  if (!isRoot()) return;
  double pairs = 0;
  for (int h = 0; h < 2; ++h) pairs += rounds * members[h]->size() * (members[h]->size() - 1.0);
  for (Rank r = 0; r < n; ++r) {
    const bool last = r == n / 2 - 1 || r == n - 1;
    EXPECT_NEAR(valueOf(rep, "mpi_rma_wait_at_fence", "main/MPI_Win_fence", r), last ? 0.0 : 0.1 * rounds, kEps)
        << r;
  }
  expectOnly(rep, {{"mpi_rma_wait_at_fence", expected},
                   {"rma_epoch_pairsync_count", pairs},
                   {"rma_epoch_pairsync_unneeded_count", pairs}});
}

// ------------------------------------------------------------------ validation

// A trace whose epochs do not match is rejected with one line naming the
// rank, the call, the window and the time, on every rank, without hanging.
TEST(RmaActiveValidation, StartWithoutComplete) {
  const Rank n = size();
  Scenario s;
  s.rank(0).post(2.0, 2.1, s.win, othersThan(0)).wait(3.0, 3.1, s.win);
  for (Rank r = 1; r < n; ++r) {
    s.rank(r).start(2.0, 2.1, s.win, {0});
    if (r != n - 1) s.rank(r).complete(2.5, 2.6, s.win);
  }
  s.close();
  const std::string error = analysisError(s.b);
  EXPECT_NE(error.find("rank " + std::to_string(n - 1) +
                       ": MPI_Win_start on window 0 at 2.000000000 s: the access epoch is not closed by "
                       "MPI_Win_complete before MPI_Win_free at 8.000000000 s"),
            std::string::npos)
      << error;
  EXPECT_EQ(error.find('\n'), std::string::npos) << error;
}

TEST(RmaActiveValidation, ExposureWithoutMatchingAccess) {
  const Rank n = size();
  Scenario s;
  s.rank(0).post(2.0, 2.1, s.win, othersThan(0)).wait(3.0, 3.1, s.win);
  for (Rank r = 1; r + 1 < n; ++r) s.rank(r).start(2.0, 2.1, s.win, {0}).complete(2.5, 2.6, s.win);
  s.close();
  const std::string error = analysisError(s.b);
  EXPECT_NE(error.find("rank 0: MPI_Win_post on window 0 at 2.000000000 s"), std::string::npos) << error;
  EXPECT_NE(error.find("include rank " + std::to_string(n - 1)), std::string::npos) << error;
}

TEST(RmaActiveValidation, MissingFence) {
  const Rank n = size();
  Scenario s;
  for (Rank r = 0; r < n; ++r) {
    s.rank(r).fence(2.0, 2.1, s.win);
    if (r != n - 1) s.rank(r).fence(3.0, 3.1, s.win);
  }
  s.close();
  const std::string error = analysisError(s.b);
  EXPECT_NE(error.find("rank 0: MPI_Win_fence on window 0 at 3.000000000 s"), std::string::npos) << error;
}

TEST(RmaActiveValidation, FenceInsideAnAccessEpoch) {
  const Rank n = size();
  Scenario s;
  s.rank(0).post(2.0, 2.1, s.win, othersThan(0));
  for (Rank r = 1; r < n; ++r) s.rank(r).start(2.0, 2.1, s.win, {0});
  for (Rank r = 0; r < n; ++r) s.rank(r).fence(2.5, 2.6, s.win);
  s.rank(0).wait(3.0, 3.1, s.win);
  for (Rank r = 1; r < n; ++r) s.rank(r).complete(3.0, 3.1, s.win);
  s.close();
  const std::string error = analysisError(s.b);
  EXPECT_NE(error.find("rank 0: MPI_Win_fence on window 0 at 2.500000000 s: inside an exposure epoch"),
            std::string::npos)
      << error;
}

TEST(RmaActiveValidation, SecondPostBeforeWait) {
  const Rank n = size();
  Scenario s;
  s.rank(0).post(2.0, 2.1, s.win, othersThan(0));
  // The builder refuses a second post; write the record by hand.
  s.rank(0).enter(2.2, "MPI_Win_post");
  trace::RmaRecord rec;
  rec.win = s.win;
  rec.group = s.b.defineGroup(othersThan(0));
  rec.syncLevel = trace::kSyncProcess;
  s.rank(0).event(trace::EventKind::RmaGroupSync, 2.2, rec).leave(2.3, "MPI_Win_post").wait(3.0, 3.1, s.win);
  for (Rank r = 1; r < n; ++r) s.rank(r).start(2.0, 2.1, s.win, {0}).complete(2.5, 2.6, s.win);
  s.close();
  const std::string error = analysisError(s.b);
  EXPECT_NE(error.find("rank 0: MPI_Win_post on window 0 at 2.200000000 s: an exposure epoch is already open"),
            std::string::npos)
      << error;
}

// Direct call: every rank gets an answer (the rank's own finding or ""), and
// the collective calls inside match whatever each rank found.
TEST(RmaActiveValidation, WindowOnAnUndefinedCommunicator) {
  const Rank n = size();
  Scenario s;
  for (Rank r = 0; r < n; ++r) s.rank(r).fence(2.0, 2.1, s.win);
  s.close();
  trace::Trace full = s.b.trace();
  full.defs->windows[s.win].comm = 4711;
  const std::string error = [&] {
    try {
      analyzeTrace(full);
    } catch (const analyzer::AnalysisError& e) {
      return std::string(e.what());
    }
    return std::string();
  }();
  EXPECT_NE(error.find("rank 0"), std::string::npos) << error;
  EXPECT_NE(error.find("window"), std::string::npos) << error;
}

// validateRmaActive called directly (the analyzer's own reference checks
// would catch these first): each rank names its own problem, and the
// collective calls inside still match.
// Each location's finding, by its rank.
std::map<Rank, std::string> validateDirectly(const trace::Trace& full) {
  std::map<Rank, std::string> found;
  forEachLocation(full, [&](trace::Trace& local, const replay::LocationComm& world) {
    const replay::CallIndex calls(local.locations[0], local.callTree, local.defs);
    const replay::Communicators comms(local.defs, world);
    replay::Severities severities;
    const auto me = static_cast<Rank>(world.rank());
    const replay::ReplayContext ctx{local, local.locations[0], me, world.size(), comms, calls, severities};
    found[me] = patterns::validateRmaActive(ctx);
  });
  return found;
}

TEST(RmaActiveValidation, DirectlyWindowOnAnUndefinedCommunicator) {
  const Rank n = size();
  Scenario s;
  for (Rank r = 0; r < n; ++r) s.rank(r).fence(2.0, 2.1, s.win);
  s.close();
  trace::Trace full = s.b.trace();
  full.defs->windows[s.win].comm = 4711;
  for (const auto& [rank, error] : validateDirectly(full))
    EXPECT_EQ(error, "rank " + std::to_string(rank) +
                         ": MPI_Win_create on window 0 at 1.000000000 s: the window is on communicator 4711, which "
                         "the trace does not define");
}

TEST(RmaActiveValidation, DirectlyWindowCommunicatorWithAnUnknownRank) {
  const Rank n = size();
  Scenario s;
  for (Rank r = 0; r < n; ++r) s.rank(r).fence(2.0, 2.1, s.win);
  s.close();
  trace::Trace full = s.b.trace();
  auto& group = full.defs->groups[full.defs->comms[full.defs->windows[s.win].comm].group];
  group.members.back() = 99;
  for (const auto& [rank, error] : validateDirectly(full)) {
    EXPECT_NE(error.find("rank " + std::to_string(rank) + ": MPI_Win_create on window 0 at 1.000000000 s"),
              std::string::npos)
        << error;
    EXPECT_NE(error.find("world rank 99"), std::string::npos) << error;
  }
}

TEST(RmaActiveValidation, DirectlyAcceptsAValidTrace) {
  const Rank n = size();
  Scenario s;
  s.rank(0).post(2.0, 2.1, s.win, othersThan(0)).wait(3.0, 3.1, s.win);
  for (Rank r = 1; r < n; ++r)
    s.rank(r).start(2.0, 2.1, s.win, {0}).put(2.2, 2.3, s.win, 0, 8).complete(2.5, 2.6, s.win);
  for (Rank r = 0; r < n; ++r) s.rank(r).fence(4.0, 4.1, s.win).fence(5.0, 5.1, s.win);
  s.close();
  for (const auto& [rank, error] : validateDirectly(s.b.trace())) EXPECT_EQ(error, "") << "rank " << rank;
}

}  // namespace
}  // namespace waitscope::test
