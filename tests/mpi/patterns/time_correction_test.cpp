// The correction of clock-condition violations with the controlled logical clock
// (analysis/analyzer/time_correction.h), at any rank count N >= 2. Every run is written twice
// from the same global times: once as it happened, once with rank 1's clock 0.3 s ahead and no
// offsets recorded. The first thing every scenario does (region "sync") is a message or a barrier
// that rank 1 enters last and the others leave 1 us later, which tells the correction the skew
// exactly; after it (region "work") the corrected run's wait states must match the run as it
// happened, to 1% (point-to-point, collective) or 5% (RMA).
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdlib>
#include <filesystem>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "analysis/trace/clock_correction_file.h"
#include "tests/mpi/patterns/scenario.h"

namespace waitscope::test {
namespace {

using trace::Rank;
using trace::TraceBuilder;

constexpr double kSkew = 0.3;  // rank 1's clock is this far ahead
constexpr double kTight = 1e-6;  // the sync messages arrive this long after they were sent

// Times of rank r as its clock shows them.
struct Clocks {
  bool skewed;
  double operator()(Rank r, double t) const { return t + (skewed && r == 1 ? kSkew : 0.0); }
};

analyzer::AnalysisOptions recordedTimes() {
  analyzer::AnalysisOptions options;
  options.timeCorrection = false;
  return options;
}

// Sum over ranks of `metric` on `path`.
double sumOf(const report::Report& rep, const std::string& metric, const std::string& path) {
  double sum = 0.0;
  for (Rank r = 0; r < size(); ++r) sum += valueOf(rep, metric, path, r);
  return sum;
}

// The wait states of `paths` in the corrected run against the run as it happened: within
// `tolerance` of the expected value, where that is 0 within `tolerance` of the scenario's total.
void expectClose(const report::Report& expected, const report::Report& corrected,
                 const std::vector<std::pair<std::string, std::string>>& metricPaths, double tolerance) {
  double total = 0.0;
  for (const auto& [metric, path] : metricPaths) total += sumOf(expected, metric, path);
  ASSERT_GT(total, 0.0);
  for (const auto& [metric, path] : metricPaths) {
    const double e = sumOf(expected, metric, path), a = sumOf(corrected, metric, path);
    EXPECT_NEAR(a, e, tolerance * (e > 0.0 ? e : total)) << metric << " at " << path;
  }
}

// A scenario written as it happened and skewed; the skewed one analyzed with the recorded times
// and corrected.
struct Runs {
  report::Report expected, raw, corrected;
};
Runs analyzeRuns(const std::function<void(TraceBuilder&, const Clocks&)>& write) {
  TraceBuilder global(size()), skewed(size());
  write(global, Clocks{false});
  write(skewed, Clocks{true});
  Runs runs;
  runs.expected = analyzeBuilt(global);
  runs.raw = analyzeBuilt(skewed, recordedTimes());
  runs.corrected = analyzeBuilt(skewed);
  return runs;
}

// The corrected run: corrected, nothing left to correct.
void expectCorrected(const report::Report& rep, unsigned violations) {
  EXPECT_EQ(rep.metaValue("time_correction"), "controlled logical clock");
  EXPECT_EQ(rep.metaValue("time_correction_violations"), std::to_string(violations));
  EXPECT_EQ(rep.metaValue("clock_violations"), "0");
}

// A run analyzed as recorded and corrected, with every location's correction (rank 0 only).
struct CorrectedRun {
  report::Report raw, corrected;
  std::vector<trace::LocationClockCorrection> corrections;
};
CorrectedRun analyzeCorrected(TraceBuilder& b) {
  CorrectedRun run;
  run.raw = analyzeBuilt(b, recordedTimes());
  forEachLocation(b.trace(), [&](trace::Trace& local, const replay::LocationComm& world) {
    const replay::LocalResult result = analyzer::analyzeLocation(local, world);
    report::Report corrected = analyzer::gatherReport(local, result, world);
    std::vector<trace::LocationClockCorrection> corrections = analyzer::gatherClockCorrections(result, world);
    if (world.rank() != 0) return;
    run.corrected = std::move(corrected);
    run.corrections = std::move(corrections);
  });
  return run;
}

// Rank 1 (0.3 s ahead) sends rank 0 a message that arrives 1 us after it was sent, and nothing
// else happens: rank 0's receive is the one violation. Rank 0's events are main and MPI_Init
// entered at 0, MPI_Init left, the receive's enter, record and leave, MPI_Finalize's enter and
// leave, main's leave. The first two stay (the amortization stretches from the first event on);
// the receive's record jumps by exactly the skew, the events before it are stretched into the
// jump, the ones after keep the shift (decaying by 0.01% per second): 7 events move, on no other
// rank. One round finds the violation, a second one finds nothing more to change.
TEST(TimeCorrection, ExactlyTheEventsAtAndAroundTheJumpMove) {
  const Rank n = size();
  const Clocks at{true};
  TraceBuilder b(n);
  for (Rank r = 0; r < n; ++r) b.rank(r).enter(at(r, 0.0), "main").init(at(r, 0.0), at(r, 0.5));
  b.rank(1).send(at(1, 1.0), at(1, 1.01), 0, 8, 1);
  b.rank(0).recv(at(0, 1.0), at(0, 1.0 + kTight), 1, 8, 1);
  for (Rank r = 0; r < n; ++r) b.rank(r).finalize(at(r, 9.0), at(r, 9.5)).leave(at(r, 10.0), "main");

  const auto [raw, rep, all] = analyzeCorrected(b);
  if (!isRoot()) return;
  EXPECT_EQ(raw.metaValue("clock_violations_p2p"), "1");
  EXPECT_EQ(raw.metaValue("time_correction"), "");
  expectCorrected(rep, 1);
  EXPECT_EQ(rep.metaValue("time_correction_moved_events"), "7");
  EXPECT_NEAR(std::stod(rep.metaValue("time_correction_largest_shift")), kSkew, 1e-9);
  EXPECT_EQ(rep.metaValue("time_correction_rounds"), "2");

  // The corrected times as the views get them: rank 0's correction applied to its recorded events.
  ASSERT_EQ(all.size(), static_cast<std::size_t>(n));
  for (Rank r = 1; r < n; ++r) EXPECT_TRUE(all[r].empty()) << r;
  const std::vector<trace::Event>& events = b.trace().locations[0].events;
  ASSERT_EQ(events.size(), 9u);
  const std::vector<double> c = all[0].correctedTimes(events);
  const double jumpAt = 1.0 + kTight, arrived = 1.0 + kSkew + kTight;  // the record, recorded and corrected
  EXPECT_DOUBLE_EQ(c[0], 0.0);
  EXPECT_DOUBLE_EQ(c[1], 0.0);
  EXPECT_NEAR(c[2], 0.5 + kSkew * 0.5 / jumpAt, 1e-12);  // stretched: MPI_Init's leave
  EXPECT_NEAR(c[3], 1.0 + kSkew * 1.0 / jumpAt, 1e-12);  // the receive's enter
  EXPECT_NEAR(c[4], arrived, 1e-12);
  EXPECT_NEAR(c[5], arrived, 1e-12);
  EXPECT_NEAR(c[6], 9.0 + kSkew - 1e-4 * (9.0 - jumpAt), 1e-12);  // the shift decays after the jump
  EXPECT_NEAR(c[8], 10.0 + kSkew - 1e-4 * (10.0 - jumpAt), 1e-12);

  // Written beside a report and read back, the same.
  std::string dir = (std::filesystem::temp_directory_path() / "waitscope-time-correction-XXXXXX").string();
  ASSERT_NE(mkdtemp(dir.data()), nullptr);
  const std::string side = trace::clockCorrectionPath(dir + "/run.waitscope");
  trace::writeClockCorrections(side, all);
  const std::vector<trace::LocationClockCorrection> back = trace::readClockCorrections(side);
  ASSERT_EQ(back.size(), all.size());
  EXPECT_EQ(back[0].correctedTimes(events), c);
  std::filesystem::remove_all(dir);
}

// Rank 1 -> 0, then 0 -> 2, 2 -> 3, ...: each message arrives 1 us after it was sent, so the
// correction carries rank 1's skew to every rank. Then each rank r > 0 sends rank 0 a message
// 0.5 s late and receives one 0.2 s late (Late Sender on both sides).
void writeMessages(TraceBuilder& b, const Clocks& at) {
  const Rank n = size();
  for (Rank r = 0; r < n; ++r) b.rank(r).enter(at(r, 0.0), "main").init(at(r, 0.0), at(r, 0.5)).enter(at(r, 0.9), "sync");
  b.rank(1).send(at(1, 1.0), at(1, 1.01), 0, 8, 1);
  b.rank(0).recv(at(0, 1.0), at(0, 1.0 + kTight), 1, 8, 1);
  for (Rank r = 2; r < n; ++r) {
    const Rank from = r == 2 ? 0 : r - 1;
    const double t = 1.0 + 0.05 * (r - 1);
    b.rank(from).send(at(from, t), at(from, t + 0.01), r, 8, 1);
    b.rank(r).recv(at(r, t), at(r, t + kTight), from, 8, 1);
  }
  for (Rank r = 0; r < n; ++r) b.rank(r).leave(at(r, 1.5), "sync").enter(at(r, 1.9), "work");
  for (Rank r = 1; r < n; ++r) {
    const double base = 2.0 + (r - 1);
    b.rank(0).recv(at(0, base), at(0, base + 0.6), r, 8, 2).send(at(0, base + 0.8), at(0, base + 0.81), r, 8, 3);
    b.rank(r).send(at(r, base + 0.5), at(r, base + 0.51), 0, 8, 2).recv(at(r, base + 0.6), at(r, base + 1.0), 0, 8, 3);
  }
  for (Rank r = 0; r < n; ++r)
    b.rank(r).leave(at(r, 8.5), "work").finalize(at(r, 9.0), at(r, 9.5)).leave(at(r, 10.0), "main");
}

TEST(TimeCorrection, PointToPointWaitsMatchTheUnskewedRun) {
  const auto [expected, raw, corrected] = analyzeRuns(writeMessages);
  if (!isRoot()) return;
  EXPECT_EQ(expected.metaValue("time_correction"), "");
  EXPECT_NEAR(sumOf(expected, "mpi_latesender", "main/work/MPI_Recv"), 0.7 * (size() - 1), 1e-9);
  // The sync message and rank 1's late message in the work seem to arrive before they were sent.
  EXPECT_EQ(raw.metaValue("clock_violations"), "2");
  expectCorrected(corrected, 2);
  // Each round carries the skew one message further along the chain 1 -> 0 -> 2 -> ... (N - 1
  // rounds after the first); one more finds that nothing changes.
  EXPECT_EQ(corrected.metaValue("time_correction_rounds"), std::to_string(size() + 1));
  expectClose(expected, corrected, {{"mpi_latesender", "main/work/MPI_Recv"}}, 0.01);
}

// A barrier rank 1 enters last and everybody leaves 1 us later; then a barrier and an allreduce
// with imbalance, a broadcast whose root comes late and a reduce whose root comes early.
void writeCollectives(TraceBuilder& b, const Clocks& at) {
  const Rank n = size();
  for (Rank r = 0; r < n; ++r) {
    b.rank(r).enter(at(r, 0.0), "main").init(at(r, 0.0), at(r, 0.5)).enter(at(r, 0.9), "sync");
    b.rank(r).barrier(at(r, r == 1 ? 1.0 : 0.95), at(r, 1.0 + kTight)).leave(at(r, 1.5), "sync");
  }
  const double last = 0.1 * (n - 1);
  for (Rank r = 0; r < n; ++r) {
    b.rank(r).enter(at(r, 1.9), "work");
    b.rank(r).barrier(at(r, 2.0 + 0.1 * r), at(r, 2.01 + last));
    b.rank(r).allreduce(at(r, 3.0 + 0.1 * (n - 1 - r)), at(r, 3.02 + last), 8);
    b.rank(r).bcast(at(r, r == 0 ? 4.3 : 4.0), at(r, 4.31), 0, 8);
    b.rank(r).reduce(at(r, r == 0 ? 5.0 : 5.1 + 0.05 * r), at(r, r == 0 ? 5.31 : 5.11 + 0.05 * r), 0, 8);
    b.rank(r).leave(at(r, 8.5), "work").finalize(at(r, 9.0), at(r, 9.5)).leave(at(r, 10.0), "main");
  }
}

TEST(TimeCorrection, CollectiveWaitsMatchTheUnskewedRun) {
  const Rank n = size();
  const auto [expected, raw, corrected] = analyzeRuns(writeCollectives);
  if (!isRoot()) return;
  EXPECT_EQ(expected.metaValue("time_correction"), "");
  // At least the sync barrier: every rank but 1 seems to leave before rank 1 entered. The
  // correction finds the same violations as the pattern search on the recorded times.
  const unsigned found = static_cast<unsigned>(std::stoul(raw.metaValue("clock_violations")));
  EXPECT_GE(found, n - 1);
  expectCorrected(corrected, found);
  expectClose(expected, corrected,
              {{"mpi_barrier_wait", "main/work/MPI_Barrier"},
               {"mpi_barrier_completion", "main/work/MPI_Barrier"},
               {"mpi_wait_nxn", "main/work/MPI_Allreduce"},
               {"mpi_nxn_completion", "main/work/MPI_Allreduce"},
               {"mpi_latebroadcast", "main/work/MPI_Bcast"},
               {"mpi_earlyreduce", "main/work/MPI_Reduce"}},
              0.01);
}

// The sync barrier, then a window, a fence epoch with a put to the right neighbour and a closing
// fence the ranks enter one after another, and a GATS epoch rank 0 exposes late.
void writeRma(TraceBuilder& b, const Clocks& at) {
  const Rank n = size();
  for (Rank r = 0; r < n; ++r) {
    b.rank(r).enter(at(r, 0.0), "main").init(at(r, 0.0), at(r, 0.5)).enter(at(r, 0.9), "sync");
    b.rank(r).barrier(at(r, r == 1 ? 1.0 : 0.95), at(r, 1.0 + kTight));
  }
  std::vector<double> enter, leave;
  for (Rank r = 0; r < n; ++r) {
    enter.push_back(at(r, 1.2));
    leave.push_back(at(r, 1.3));
  }
  const trace::WinId win = b.createWindow(b.world(), enter, leave);
  for (Rank r = 0; r < n; ++r) b.rank(r).leave(at(r, 1.5), "sync").enter(at(r, 1.9), "work");
  for (Rank r = 0; r < n; ++r)
    b.rank(r)
        .fence(at(r, 2.0), at(r, 2.1), win)
        .put(at(r, 2.2), at(r, 2.3), win, (r + 1) % n, 128)
        .fence(at(r, 2.6 + 0.05 * r), at(r, 2.7 + 0.05 * (n - 1)), win);
  b.rank(0).post(at(0, 3.5), at(0, 3.51), win, othersThan(0)).wait(at(0, 3.6), at(0, 4.5), win);
  for (Rank r = 1; r < n; ++r)
    b.rank(r)
        .start(at(r, 3.0), at(r, 3.52), win, {0})
        .put(at(r, 3.6), at(r, 3.65), win, 0, 256)
        .complete(at(r, 4.0 + 0.05 * r), at(r, 4.45), win);
  for (Rank r = 0; r < n; ++r) b.rank(r).leave(at(r, 8.0), "work");
  std::vector<double> freeEnter, freeLeave;
  for (Rank r = 0; r < n; ++r) {
    freeEnter.push_back(at(r, 8.1));
    freeLeave.push_back(at(r, 8.2));
  }
  b.freeWindow(win, freeEnter, freeLeave);
  for (Rank r = 0; r < n; ++r) b.rank(r).finalize(at(r, 9.0), at(r, 9.5)).leave(at(r, 10.0), "main");
}

TEST(TimeCorrection, RmaWaitsMatchTheUnskewedRun) {
  const Rank n = size();
  const auto [expected, raw, corrected] = analyzeRuns(writeRma);
  if (!isRoot()) return;
  EXPECT_EQ(expected.metaValue("time_correction"), "");
  EXPECT_EQ(expected.metaValue("clock_violations"), "0");
  const unsigned found = static_cast<unsigned>(std::stoul(raw.metaValue("clock_violations")));
  EXPECT_GE(found, n - 1);
  expectCorrected(corrected, found);
  expectClose(expected, corrected,
              {{"mpi_rma_wait_at_fence", "main/work/MPI_Win_fence"},
               {"mpi_rma_early_fence", "main/work/MPI_Win_fence"},
               {"mpi_rma_sync_late_post", "main/work/MPI_Win_start"},
               {"mpi_rma_early_wait", "main/work/MPI_Win_wait"},
               {"mpi_rma_late_complete", "main/work/MPI_Win_wait"}},
              0.05);
}

}  // namespace
}  // namespace waitscope::test
