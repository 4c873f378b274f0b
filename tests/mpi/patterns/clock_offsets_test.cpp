// Recorded clock offsets: a trace whose ranks' clocks are shifted and drift,
// with the ClockOffset definitions that say by how much, analyzes exactly like
// the same run on one global clock (OTF2's event reader interpolates the
// offsets). Every event time of the skewed trace is a whole tick of each
// rank's own clock and the offsets are whole ticks, so the correction gives
// the global ticks back exactly.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <string>

#include "analysis/report/report_queries.h"
#include "tests/mpi/patterns/scenario.h"
#include "tests/support/test_support.h"

namespace waitscope::test {
namespace {

constexpr std::int64_t kTicksPerSecond = 1'000'000'000;

// Rank r's clock: `ahead` ticks ahead of the global clock at global time 0 and running
// `driftPerTenThousand` / 10^4 slower, so local = T - T * drift - (-ahead), in whole ticks
// for global times on a 10-microsecond grid.
struct RankClock {
  std::int64_t ahead = 0;
  std::int64_t driftPerTenThousand = 0;
  double local(double seconds) const {
    const std::int64_t t = std::llround(seconds * kTicksPerSecond);
    EXPECT_EQ(t % 10'000, 0) << "times of this test lie on a 10-us grid";
    return static_cast<double>(t - t / 10'000 * driftPerTenThousand + ahead) / kTicksPerSecond;
  }
  // The global clock's lead at global time `seconds`.
  double offset(double seconds) const { return seconds - local(seconds); }
};

RankClock clockOf(trace::Rank r, bool skewed) {
  if (!skewed) return {};
  return {static_cast<std::int64_t>(r) * 250'000'000 + 40'000, static_cast<std::int64_t>(r)};
}

// Late Sender, a barrier and an allreduce with imbalance, and fence and GATS epochs on one
// window, written in each rank's own clock; with `skewed`, ranks' clocks differ and drift.
std::string writeRun(const std::filesystem::path& dir, bool skewed, bool offsets = true) {
  const trace::Rank n = size();
  trace::TraceBuilder b(n);
  std::vector<RankClock> clocks;
  for (trace::Rank r = 0; r < n; ++r) clocks.push_back(clockOf(r, skewed));
  const auto at = [&](trace::Rank r, double t) { return clocks[r].local(t); };
  const auto each = [&](double t) {
    std::vector<double> times;
    for (trace::Rank r = 0; r < n; ++r) times.push_back(at(r, t));
    return times;
  };
  for (trace::Rank r = 0; r < n; ++r) {
    if (offsets)
      b.rank(r).clockOffset(at(r, 0.0), clocks[r].offset(0.0)).clockOffset(at(r, 10.0), clocks[r].offset(10.0));
    b.rank(r).enter(at(r, 0.0), "main").init(at(r, 0.0), at(r, 0.5));
  }
  // Late Sender: rank 1 sends at 2.0 what rank 0 waits for from 1.0.
  b.rank(1).send(at(1, 2.0), at(1, 2.01), 0, 64, 3);
  b.rank(0).recv(at(0, 1.0), at(0, 2.02), 1, 64, 3);
  // A barrier each rank enters 0.1 s after the one before it; an allreduce the other way round.
  for (trace::Rank r = 0; r < n; ++r) b.rank(r).barrier(at(r, 2.5 + 0.1 * r), at(r, 2.6 + 0.1 * (n - 1)));
  for (trace::Rank r = 0; r < n; ++r)
    b.rank(r).allreduce(at(r, 3.5 + 0.05 * (n - 1 - r)), at(r, 3.7 + 0.05 * (n - 1)), 8);
  const trace::WinId win = b.createWindow(b.world(), each(4.0), each(4.1));
  // Fences: rank r enters the closing fence at 4.6 + 0.02 r, after a put to its neighbour.
  for (trace::Rank r = 0; r < n; ++r)
    b.rank(r)
        .fence(at(r, 4.2), at(r, 4.3), win)
        .put(at(r, 4.4), at(r, 4.45), win, (r + 1) % n, 128)
        .fence(at(r, 4.6 + 0.02 * r), at(r, 4.7 + 0.02 * (n - 1)), win);
  // GATS: rank 0 exposes to every other rank late (post at 5.5); they start at 5.0.
  std::vector<trace::Rank> origins;
  for (trace::Rank r = 1; r < n; ++r) origins.push_back(r);
  b.rank(0).post(at(0, 5.5), at(0, 5.51), win, origins).wait(at(0, 5.6), at(0, 6.3), win);
  for (trace::Rank r = 1; r < n; ++r)
    b.rank(r)
        .start(at(r, 5.0), at(r, 5.52), win, {0})
        .put(at(r, 5.6), at(r, 5.65), win, 0, 256)
        .complete(at(r, 6.0 + 0.05 * r), at(r, 6.3), win);
  b.freeWindow(win, each(8.0), each(8.1));
  for (trace::Rank r = 0; r < n; ++r) b.rank(r).finalize(at(r, 9.0), at(r, 9.5)).leave(at(r, 10.0), "main");
  return b.write(dir.string());
}

// A new directory named by rank 0, where rank 0 writes the traces every rank reads.
std::filesystem::path sharedDir() {
  const std::filesystem::path dir = [] {
    std::string name = (std::filesystem::temp_directory_path() / "waitscope-clock-offsets-XXXXXX").string();
    if (isRoot() && mkdtemp(name.data()) == nullptr) name.clear();
    int length = static_cast<int>(name.size());
    MPI_Bcast(&length, 1, MPI_INT, 0, MPI_COMM_WORLD);
    name.resize(static_cast<std::size_t>(length));
    MPI_Bcast(name.data(), length, MPI_CHAR, 0, MPI_COMM_WORLD);
    return std::filesystem::path(name);
  }();
  return dir;
}

TEST(ClockOffsets, SkewedClocksWithTheirOffsetsAnalyzeLikeOneClock) {
  const std::filesystem::path dir = sharedDir();
  ASSERT_FALSE(dir.empty());
  std::string global, skewed;
  if (isRoot()) {
    global = writeRun(dir / "global", false);
    skewed = writeRun(dir / "skewed", true);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  global = (dir / "global" / "traces.otf2").string();
  skewed = (dir / "skewed" / "traces.otf2").string();
  const report::Report expected = analyzeFile(global);
  const report::Report actual = analyzeFile(skewed);
  MPI_Barrier(MPI_COMM_WORLD);
  if (!isRoot()) return;
  std::filesystem::remove_all(dir);
  // The run has wait states of every paradigm, so the comparison below compares something.
  for (const char* metric : {"mpi_latesender", "mpi_barrier_wait", "mpi_rma_wait_at_fence", "mpi_rma_sync_late_post"})
    EXPECT_GT(totalOf(expected, metric), 0.0) << metric;
  EXPECT_EQ(expected.metaValue("clock_violations"), "0");
  EXPECT_EQ(actual.metaValue("clock_violations"), "0");
  EXPECT_NEAR(totalOf(actual, "clock_violations"), 0.0, 1e-9);
  ASSERT_EQ(actual.severities.size(), expected.severities.size());
  for (std::size_t i = 0; i < expected.severities.size(); ++i) {
    const report::SeverityRow& e = expected.severities[i];
    const report::SeverityRow& a = actual.severities[i];
    SCOPED_TRACE(expected.metrics[e.metric].uniqueName + " at " + report::callPathString(expected, e.callPath));
    EXPECT_EQ(a.metric, e.metric);
    EXPECT_EQ(a.callPath, e.callPath);
    EXPECT_EQ(a.values, e.values);
  }
  ASSERT_EQ(actual.instances.size(), expected.instances.size());
  for (std::size_t i = 0; i < expected.instances.size(); ++i) {
    EXPECT_EQ(actual.instances[i].start, expected.instances[i].start);
    EXPECT_EQ(actual.instances[i].end, expected.instances[i].end);
  }
}

// Processes that leave a call (global times `leave`, per rank) before the last enters it (`enter`)
// on the raw clocks of the skewed run.
unsigned leftBeforeLast(const std::function<double(trace::Rank)>& enter, const std::function<double(trace::Rank)>& leave) {
  const trace::Rank n = size();
  double last = -1.0;
  for (trace::Rank r = 0; r < n; ++r) last = std::max(last, clockOf(r, true).local(enter(r)));
  unsigned count = 0;
  for (trace::Rank r = 0; r < n; ++r) count += clockOf(r, true).local(leave(r)) < last;
  return count;
}

// The same skewed trace without its offsets is analyzed on the raw clocks: rank 1's clock runs a
// quarter second ahead, so its send seems to start after rank 0's receive has completed, and the
// later ranks seem to enter the barrier, the allreduce and the closing fence after the earlier
// ones have left them (clock-condition violations, docs/patterns.md). MPI_Init, MPI_Finalize and
// the window's creation and free seem out of order too, but the standard does not promise that
// they synchronize: no violation.
TEST(ClockOffsets, WithoutTheOffsetsTheSkewedRunDiffers) {
  const std::filesystem::path dir = sharedDir();
  ASSERT_FALSE(dir.empty());
  if (isRoot()) {
    writeRun(dir / "global", false);
    writeRun(dir / "raw", true, false);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  const report::Report expected = analyzeFile((dir / "global" / "traces.otf2").string());
  analyzer::AnalysisOptions recorded;  // the recorded times, not corrected
  recorded.timeCorrection = false;
  const report::Report raw = analyzeFile((dir / "raw" / "traces.otf2").string(), recorded);
  const report::Report corrected = analyzeFile((dir / "raw" / "traces.otf2").string());
  MPI_Barrier(MPI_COMM_WORLD);
  if (!isRoot()) return;
  std::filesystem::remove_all(dir);
  EXPECT_EQ(expected.metaValue("clock_violations"), "0");
  const trace::Rank n = size();
  const unsigned collective =
      leftBeforeLast([](trace::Rank r) { return 2.5 + 0.1 * r; }, [n](trace::Rank) { return 2.6 + 0.1 * (n - 1); }) +
      leftBeforeLast([n](trace::Rank r) { return 3.5 + 0.05 * (n - 1 - r); },
                     [n](trace::Rank) { return 3.7 + 0.05 * (n - 1); });
  // Every rank is the target of its left neighbour's put before the closing fence. In the GATS
  // epoch the origins' MPI_Win_complete returns after rank 0's post on every clock (rank 0's is
  // the earliest), but rank 0's MPI_Win_wait returns before a complete whose clock is far enough ahead.
  unsigned rma =
      leftBeforeLast([](trace::Rank r) { return 4.6 + 0.02 * r; }, [n](trace::Rank) { return 4.7 + 0.02 * (n - 1); });
  double lastComplete = -1.0;
  for (trace::Rank r = 1; r < n; ++r) lastComplete = std::max(lastComplete, clockOf(r, true).local(6.0 + 0.05 * r));
  rma += clockOf(0, true).local(6.3) < lastComplete;
  EXPECT_EQ(raw.metaValue("clock_violations_p2p"), "1");
  EXPECT_EQ(raw.metaValue("clock_violations_collective"), std::to_string(collective));
  EXPECT_EQ(raw.metaValue("clock_violations_rma"), std::to_string(rma));
  EXPECT_EQ(raw.metaValue("clock_violations"), std::to_string(1 + collective + rma));
  EXPECT_GT(collective, 0u);
  EXPECT_GT(rma, 0u);
  // The time correction finds the same violations and leaves none.
  EXPECT_EQ(corrected.metaValue("time_correction_violations"), std::to_string(1 + collective + rma));
  EXPECT_EQ(corrected.metaValue("clock_violations"), "0");
  EXPECT_NEAR(totalOf(expected, "mpi_latesender"), 1.0, 1e-9);
}

}  // namespace
}  // namespace waitscope::test
