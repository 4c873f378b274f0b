// Clock-condition violations in every paradigm, with exact counts at any rank count N >= 2: traces
// whose timestamps contradict what MPI guarantees (docs/patterns.md, "Clock-condition
// violations"), one scenario per rule, and a run whose clocks agree, where none is found. The
// counts are of the recorded times (the time correction off); with the correction on, every
// scenario is corrected and the corrected times break no relation the detection checks.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/mpi/patterns/scenario.h"

namespace waitscope::test {
namespace {

using trace::Rank;
using trace::TraceBuilder;
constexpr double kEps = 1e-9;

analyzer::AnalysisOptions recordedTimes() {
  analyzer::AnalysisOptions options;
  options.timeCorrection = false;
  return options;
}

// The per-paradigm counts in the metric tree and the meta data, and the total.
void expectCounts(const report::Report& rep, unsigned p2p, unsigned collective, unsigned rma) {
  EXPECT_NEAR(totalOf(rep, "clock_violations_p2p"), p2p, kEps);
  EXPECT_NEAR(totalOf(rep, "clock_violations_collective"), collective, kEps);
  EXPECT_NEAR(totalOf(rep, "clock_violations_rma"), rma, kEps);
  EXPECT_NEAR(totalOf(rep, "clock_violations"), p2p + collective + rma, kEps);
  EXPECT_EQ(rep.metaValue("clock_violations_p2p"), std::to_string(p2p));
  EXPECT_EQ(rep.metaValue("clock_violations_collective"), std::to_string(collective));
  EXPECT_EQ(rep.metaValue("clock_violations_rma"), std::to_string(rma));
  EXPECT_EQ(rep.metaValue("clock_violations"), std::to_string(p2p + collective + rma));
}

// The same trace with the correction on: it found as many violations as the detection on the
// recorded times, corrected them, and the detection finds none on the corrected times.
void expectCorrected(const report::Report& raw, const report::Report& corrected) {
  EXPECT_EQ(corrected.metaValue("time_correction"), "controlled logical clock");
  EXPECT_EQ(corrected.metaValue("time_correction_violations"), raw.metaValue("clock_violations"));
  EXPECT_EQ(corrected.metaValue("clock_violations"), "0");
  EXPECT_NEAR(totalOf(corrected, "clock_violations"), 0.0, kEps);
}

// Nothing to correct: the report is the one of the recorded times, without a word about it.
void expectNothingCorrected(const report::Report& raw, const report::Report& corrected) {
  EXPECT_EQ(corrected.metaValue("time_correction"), "");
  ASSERT_EQ(corrected.severities.size(), raw.severities.size());
  for (std::size_t i = 0; i < raw.severities.size(); ++i)
    EXPECT_EQ(corrected.severities[i].values, raw.severities[i].values);
  EXPECT_EQ(corrected.meta.size(), raw.meta.size());
}

// The report of the recorded times; on the way, the correction's must say it corrected every
// violation counted there (rank 0 only).
report::Report analyzeAndCorrect(TraceBuilder& b) {
  const report::Report rep = analyzeBuilt(b, recordedTimes());
  const report::Report corrected = analyzeBuilt(b);
  if (isRoot()) expectCorrected(rep, corrected);
  return rep;
}
report::Report analyzeAndCorrect(Scenario& s) {
  s.close();
  return analyzeAndCorrect(s.b);
}

// Every paradigm, every rule's situation, with clocks that agree: no violation.
TEST(ClockViolations, NoneWhenTheClocksAgree) {
  const Rank n = size();
  Scenario s;
  // Messages to rank 0, each received after it was sent (Late Sender).
  for (Rank r = 1; r < n; ++r) {
    s.rank(r).send(1.05 + 0.2 * r, 1.06 + 0.2 * r, 0, 8, 1);
    s.rank(0).recv(1.0 + 0.2 * r, 1.1 + 0.2 * r, r, 8, 1);
  }
  // Imbalanced collectives: everyone leaves after the last has entered.
  for (Rank r = 0; r < n; ++r) {
    s.rank(r)
        .barrier(2.0 + 0.1 * r, 2.5)
        .allreduce(2.6 + 0.1 * r, 3.1, 8)
        .bcast(3.2 + (r == 0 ? 0.3 : 0.0), 3.6, 0, 8)
        .reduce(3.7 + 0.1 * r, r == 0 ? 4.2 : 3.75 + 0.1 * r, 0, 8);
  }
  // A fence epoch with a put to the right neighbour, and a late-posted GATS epoch.
  for (Rank r = 0; r < n; ++r)
    s.rank(r).fence(4.3, 4.4, s.win).put(4.5, 4.6, s.win, (r + 1) % n, 8).fence(4.7 + 0.05 * r, 5.0, s.win);
  s.rank(0).post(5.5, 5.51, s.win, othersThan(0)).wait(5.6, 6.5, s.win);
  for (Rank r = 1; r < n; ++r)
    s.rank(r).start(5.1, 5.6, s.win, {0}).put(5.7, 5.8, s.win, 0, 8).complete(6.0 + 0.01 * r, 6.4, s.win);
  const report::Report rep = s.analyze(recordedTimes());
  const report::Report corrected = analyzeBuilt(s.b);
  if (!isRoot()) return;
  expectNothingCorrected(rep, corrected);
  EXPECT_GT(totalOf(rep, "mpi_latesender"), 0.0);
  EXPECT_GT(totalOf(rep, "mpi_barrier_wait"), 0.0);
  EXPECT_GT(totalOf(rep, "mpi_rma_sync_late_post"), 0.0);
  expectCounts(rep, 0, 0, 0);
}

// Rank 0 receives every other rank's message before it was sent: one per receive.
TEST(ClockViolations, ReceiveCompletedBeforeItsSendStarted) {
  const Rank n = size();
  TraceBuilder b(n);
  beginFrame(b);
  for (Rank r = 1; r < n; ++r) {
    b.rank(r).send(5.0, 5.01, 0, 8, 1);
    b.rank(0).recv(1.0 + 0.1 * r, 1.05 + 0.1 * r, r, 8, 1);
  }
  endFrame(b);
  const report::Report rep = analyzeAndCorrect(b);
  if (!isRoot()) return;
  EXPECT_NEAR(valueOf(rep, "clock_violations_p2p", "main/MPI_Recv", 0), n - 1.0, kEps);
  // The Late Sender value of such a receive is clipped to its call.
  EXPECT_NEAR(valueOf(rep, "mpi_latesender", "main/MPI_Recv", 0), 0.05 * (n - 1), kEps);
  expectCounts(rep, n - 1, 0, 0);
}

// Barrier and allreduce: rank r enters at t + 0.1 r and leaves 0.05 s later, so every rank but
// the last leaves before the last has entered: N - 1 per operation.
TEST(ClockViolations, SynchronizingCollectiveLeftBeforeTheLastEntered) {
  const Rank n = size();
  TraceBuilder b(n);
  beginFrame(b);
  for (Rank r = 0; r < n; ++r)
    b.rank(r).barrier(2.0 + 0.1 * r, 2.05 + 0.1 * r).allreduce(3.0 + 0.1 * r, 3.05 + 0.1 * r, 8);
  endFrame(b);
  const report::Report rep = analyzeAndCorrect(b);
  if (!isRoot()) return;
  for (Rank r = 0; r < n; ++r) {
    const double expected = r + 1 < n ? 1.0 : 0.0;
    EXPECT_NEAR(valueOf(rep, "clock_violations_collective", "main/MPI_Barrier", r), expected, kEps) << r;
    EXPECT_NEAR(valueOf(rep, "clock_violations_collective", "main/MPI_Allreduce", r), expected, kEps) << r;
    // The wait (clipped to the call) and the completion never overlap: the completion starts
    // when the last rank entered, which only the last rank is still in the call for.
    EXPECT_NEAR(valueOf(rep, "mpi_barrier_wait", "main/MPI_Barrier", r), expected * 0.05, kEps) << r;
    EXPECT_NEAR(valueOf(rep, "mpi_barrier_completion", "main/MPI_Barrier", r), (1.0 - expected) * 0.05, kEps) << r;
    EXPECT_NEAR(valueOf(rep, "mpi_nxn_completion", "main/MPI_Allreduce", r), (1.0 - expected) * 0.05, kEps) << r;
  }
  expectCounts(rep, 0, 2 * (n - 1), 0);
}

// Broadcast from rank 0: the non-roots leave before the root entered (N - 1 violations). In a
// second one the root leaves before the others enter, which MPI allows.
TEST(ClockViolations, OneToNLeftByANonRootBeforeTheRootEntered) {
  const Rank n = size();
  TraceBuilder b(n);
  beginFrame(b);
  b.rank(0).bcast(3.0, 3.01, 0, 8).bcast(4.0, 4.01, 0, 8);
  for (Rank r = 1; r < n; ++r) b.rank(r).bcast(2.0, 2.5, 0, 8).bcast(4.5, 4.6, 0, 8);
  endFrame(b);
  const report::Report rep = analyzeAndCorrect(b);
  if (!isRoot()) return;
  EXPECT_NEAR(valueOf(rep, "clock_violations_collective", "main/MPI_Bcast", 0), 0.0, kEps);
  for (Rank r = 1; r < n; ++r)
    EXPECT_NEAR(valueOf(rep, "clock_violations_collective", "main/MPI_Bcast", r), 1.0, kEps) << r;
  expectCounts(rep, 0, n - 1, 0);
}

// Reduce to rank 0: the root leaves before the others enter (one violation). In a second one the
// others leave before the root enters, which MPI allows.
TEST(ClockViolations, NToOneLeftByTheRootBeforeTheLastEntered) {
  const Rank n = size();
  TraceBuilder b(n);
  beginFrame(b);
  b.rank(0).reduce(2.0, 2.5, 0, 8).reduce(4.5, 4.6, 0, 8);
  for (Rank r = 1; r < n; ++r) b.rank(r).reduce(3.0 + 0.1 * r, 3.05 + 0.1 * r, 0, 8).reduce(4.0, 4.1, 0, 8);
  endFrame(b);
  const report::Report rep = analyzeAndCorrect(b);
  if (!isRoot()) return;
  EXPECT_NEAR(valueOf(rep, "clock_violations_collective", "main/MPI_Reduce", 0), 1.0, kEps);
  expectCounts(rep, 0, 1, 0);
}

// GATS: every origin's epoch to rank 0, with its put, ends before rank 0 posts: one violation on
// each origin's MPI_Win_complete and one on its MPI_Put.
TEST(ClockViolations, AccessEpochEndedBeforeTheTargetPosted) {
  const Rank n = size();
  Scenario s;
  for (Rank r = 1; r < n; ++r)
    s.rank(r).start(2.0, 2.01, s.win, {0}).put(2.1, 2.2, s.win, 0, 8).complete(2.3, 2.4, s.win);
  s.rank(0).post(5.0, 5.01, s.win, othersThan(0)).wait(6.0, 6.1, s.win);
  const report::Report rep = analyzeAndCorrect(s);
  if (!isRoot()) return;
  for (Rank r = 1; r < n; ++r) {
    EXPECT_NEAR(valueOf(rep, "clock_violations_rma", "main/MPI_Win_complete", r), 1.0, kEps) << r;
    EXPECT_NEAR(valueOf(rep, "clock_violations_rma", "main/MPI_Put", r), 1.0, kEps) << r;
    EXPECT_NEAR(valueOf(rep, "clock_violations_rma", "main/MPI_Win_start", r), 0.0, kEps) << r;
  }
  expectCounts(rep, 0, 0, 2 * (n - 1));
}

// GATS: rank 0's MPI_Win_wait, and in a second epoch its completing MPI_Win_test, return before
// the last origin entered MPI_Win_complete: one violation each.
TEST(ClockViolations, ExposureEpochClosedBeforeTheLastOriginCompleted) {
  const Rank n = size();
  Scenario s;
  s.rank(0).post(2.0, 2.01, s.win, othersThan(0)).wait(2.5, 2.6, s.win);
  s.rank(0).post(4.0, 4.01, s.win, othersThan(0)).winTest(4.5, 4.6, s.win, true);
  for (Rank r = 1; r < n; ++r) {
    s.rank(r).start(2.0, 2.1, s.win, {0}).put(2.2, 2.3, s.win, 0, 8).complete(3.0 + 0.1 * r, 3.1 + 0.1 * r, s.win);
    s.rank(r).start(4.0, 4.1, s.win, {0}).complete(5.0, 5.1, s.win);
  }
  const report::Report rep = analyzeAndCorrect(s);
  if (!isRoot()) return;
  EXPECT_NEAR(valueOf(rep, "clock_violations_rma", "main/MPI_Win_wait", 0), 1.0, kEps);
  EXPECT_NEAR(valueOf(rep, "clock_violations_rma", "main/MPI_Win_test", 0), 1.0, kEps);
  expectCounts(rep, 0, 0, 2);
}

// Fences: every rank puts to its right neighbour, then rank r enters the closing fence at
// 3.0 + 0.1 r and leaves 0.05 s later: every rank but the last leaves before the last entered.
// The next fence, the same way skewed, closes an epoch without transfers: no violation.
TEST(ClockViolations, FenceLeftBeforeTheLastEnteredAfterTransfers) {
  const Rank n = size();
  Scenario s;
  for (Rank r = 0; r < n; ++r)
    s.rank(r)
        .fence(2.0, 2.1, s.win)
        .put(2.2, 2.3, s.win, (r + 1) % n, 8)
        .fence(3.0 + 0.1 * r, 3.05 + 0.1 * r, s.win)
        .fence(5.0 + 0.1 * r, 5.05 + 0.1 * r, s.win);
  const report::Report rep = analyzeAndCorrect(s);
  if (!isRoot()) return;
  for (Rank r = 0; r < n; ++r)
    EXPECT_NEAR(valueOf(rep, "clock_violations_rma", "main/MPI_Win_fence", r), r + 1 < n ? 1.0 : 0.0, kEps) << r;
  expectCounts(rep, 0, 0, n - 1);
}

// Scans: rank r enters at 3.0 - 0.1 r and leaves 0.05 s later, so every rank but 0 leaves before
// the ranks below it entered: N - 1. A second scan entered in rank order breaks nothing.
TEST(ClockViolations, ScanLeftBeforeALowerRankEntered) {
  const Rank n = size();
  TraceBuilder b(n);
  beginFrame(b);
  for (Rank r = 0; r < n; ++r) b.rank(r).scan(3.0 - 0.1 * r, 3.05 - 0.1 * r, 8).scan(4.0 + 0.1 * r, 4.5, 8);
  endFrame(b);
  const report::Report rep = analyzeAndCorrect(b);
  if (!isRoot()) return;
  for (Rank r = 0; r < n; ++r)
    EXPECT_NEAR(valueOf(rep, "clock_violations_collective", "main/MPI_Scan", r), r > 0 ? 1.0 : 0.0, kEps) << r;
  expectCounts(rep, 0, n - 1, 0);
}

// Orders the MPI standard does not promise, each the way a run on one clock can record it: rank
// r enters MPI_Init, the window's creation and free and MPI_Finalize 0.1 r after rank 0 and
// leaves each 0.05 s later (none has to synchronize); exclusive locks on rank 0's window whose
// MPI_Win_lock returns in rank order while the epochs end in reverse order (a lazy lock is
// granted in MPI_Win_unlock, in any order: Open MPI's osc pt2pt). No violation; nothing corrected.
TEST(ClockViolations, NoneWhereTheStandardPromisesNoOrder) {
  const Rank n = size();
  TraceBuilder b(n);
  std::vector<double> createEnter, createLeave, freeEnter, freeLeave;
  for (Rank r = 0; r < n; ++r) {
    b.rank(r).enter(0.0, "main").init(0.1 * r, 0.1 * r + 0.05);
    createEnter.push_back(1.0 + 0.1 * r);
    createLeave.push_back(1.05 + 0.1 * r);
    freeEnter.push_back(7.0 + 0.1 * r);
    freeLeave.push_back(7.05 + 0.1 * r);
  }
  const trace::WinId win = b.createWindow(b.world(), createEnter, createLeave);
  for (Rank r = 0; r < n; ++r)
    b.rank(r)
        .lock(2.0 + 0.01 * r, 2.01 + 0.01 * r, win, 0, trace::RmaLockType::Exclusive)
        .unlock(3.0 - 0.1 * r, 3.05 - 0.1 * r, win, 0);
  b.freeWindow(win, freeEnter, freeLeave);
  for (Rank r = 0; r < n; ++r) b.rank(r).finalize(9.0 + 0.1 * r, 9.05 + 0.1 * r).leave(10.0, "main");
  const report::Report rep = analyzeBuilt(b, recordedTimes());
  const report::Report corrected = analyzeBuilt(b);
  if (!isRoot()) return;
  expectCounts(rep, 0, 0, 0);
  expectNothingCorrected(rep, corrected);
}

}  // namespace
}  // namespace waitscope::test
