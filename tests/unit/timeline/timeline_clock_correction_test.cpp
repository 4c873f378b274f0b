// The timeline at the analysis's corrected times: a rank's events moved by its clock
// correction (controlled logical clock, Becker et al., Parallel Computing 35(12), 2009), its
// threads by the rank's shift at their time; the side file REPORT.clock-correction used only
// when the report records a correction, a missing or damaged one said in one line naming it
// (and the recorded times drawn); and a trace waitscope-analyze corrected drawn without a
// message that arrives before it was sent.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "analysis/report/report_io.h"
#include "analysis/timeline/clock_corrected_trace.h"
#include "analysis/timeline/timeline_index_file.h"
#include "analysis/trace/clock_correction_file.h"
#include "tests/support/test_support.h"
#include "tests/unit/timeline/timeline_scenarios.h"

namespace waitscope::timeline {
namespace {

namespace fs = std::filesystem;

constexpr double kOffset = 0.5;  // rank 0's correction at its event 1 (enter foo, recorded at 1)

// Two ranks, main [0, 4]. Rank 0: foo [1, 2], MPI_Send to 1 at [2.5, 2.75]; its OpenMP thread:
// work [1.5, 3]. Rank 1: MPI_Recv from 0 at [2.5, 3].
void buildScenario(trace::TraceBuilder& b) {
  b.rank(0).enter(0.0, "main").enter(1.0, "foo").leave(2.0, "foo").send(2.5, 2.75, 1, 8, 0).leave(4.0, "main");
  b.rank(1).enter(0.0, "main").recv(2.5, 3.0, 0, 8, 0).leave(4.0, "main");
  b.addThread(0, "OMP thread 1").enter(1.5, "work").leave(3.0, "work");
}

report::Report scenarioReport(trace::TraceBuilder& b) {
  report::Report r = test::reportSkeleton(b.trace());
  r.locations.push_back({"MPI Rank 0 / OMP thread 1", 0, 0, report::LocationKind::Thread});
  return r;
}

// Rank 0: from its event 1 on, kOffset later, decaying at (1 - kClockRate) per second; rank 1 as recorded.
std::vector<trace::LocationClockCorrection> scenarioCorrections() {
  std::vector<trace::LocationClockCorrection> c(2);
  c[0].anchors.push_back({1, kOffset});
  return c;
}

// Where the forward clock puts a rank-0 event recorded at t >= 1 (clock_correction.h).
double corrected(double t) { return t + kOffset - (1.0 - trace::kClockRate) * (t - 1.0); }

std::vector<double> pointTimes(const TimelineIndex& index, std::uint32_t row) {
  std::vector<double> out;
  for (const RegionPoint& p : index.locations.at(row).levels.at(0).points()) out.push_back(p.start);
  return out;
}

void expectTimes(const std::vector<double>& got, const std::vector<double>& expected) {
  ASSERT_EQ(got.size(), expected.size());
  for (std::size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], expected[i], 1e-12) << "point " << i;
}

TEST(timeline_clock_correction, RanksAndTheirThreadsAreDrawnAtCorrectedTimes) {
  trace::TraceBuilder b(2);
  buildScenario(b);
  const report::Report report = scenarioReport(b);
  const auto corrections = scenarioCorrections();
  const TimelineIndex raw = buildTimelineIndex(b.trace(), report);
  const TimelineIndex index = buildTimelineIndex(b.trace(), report, &corrections);
  expectTimes(pointTimes(raw, 0), {0.0, 1.0, 2.0, 2.5, 2.75, 4.0});
  // Rank 0: main at 0 (before the anchor), then foo, main, MPI_Send, main, the end, all moved.
  expectTimes(pointTimes(index, 0), {0.0, corrected(1.0), corrected(2.0), corrected(2.5), corrected(2.75), corrected(4.0)});
  // Rank 1 has no correction.
  expectTimes(pointTimes(index, 1), pointTimes(raw, 1));
  // The thread shares rank 0's clock: the same shift at its times (between rank 0's events).
  expectTimes(pointTimes(raw, 2), {1.5, 3.0});
  expectTimes(pointTimes(index, 2), {corrected(1.5), corrected(3.0)});
  // The message leaves at the send's corrected time and arrives as recorded.
  ASSERT_EQ(index.locations[0].sends.size(), 1u);
  const Message& m = index.locations[0].sends.items()[0];
  EXPECT_NEAR(m.start, corrected(2.5), 1e-12);
  EXPECT_DOUBLE_EQ(m.end, 3.0);
  EXPECT_NEAR(index.end, corrected(4.0), 1e-12);
}

class timeline_clock_side_file : public ::testing::Test {
 protected:
  void SetUp() override {
    buildScenario(builder_);
    report_ = scenarioReport(builder_);
    tracePath_ = builder_.write((dir_ / "trace").string());
    reportPath_ = (dir_ / "run.waitscope").string();
    side_ = trace::clockCorrectionPath(reportPath_);
  }
  void writeReport(bool corrected) {
    report_.meta.clear();
    if (corrected) {
      report_.meta = {{"time_correction", "controlled logical clock"},
                      {"time_correction_moved_events", "5"},
                      {"time_correction_largest_shift", "0.5"}};
    }
    report::writeReport(report_, reportPath_);
  }
  // The index as the app opens it; what it noted in notes_.
  OpenedIndex open() {
    notes_.clear();
    const auto note = [this](const std::string& line) { notes_.push_back(line); };
    return openTimelineIndex(tracePath_, reportPath_, report_, note);
  }

  trace::TraceBuilder builder_{2};
  report::Report report_;
  std::vector<std::string> notes_;
  test::TempDir dir_;
  std::string tracePath_, reportPath_, side_;
};

TEST_F(timeline_clock_side_file, UsedWhenTheReportWasCorrected) {
  writeReport(true);
  trace::writeClockCorrections(side_, scenarioCorrections());
  const OpenedIndex opened = open();
  EXPECT_TRUE(opened.built);
  EXPECT_EQ(opened.clockWarning, "");
  EXPECT_NEAR(pointTimes(opened.index, 0)[1], corrected(1.0), 1e-12);
  // Loaded from the index file next time, still corrected.
  const OpenedIndex again = open();
  EXPECT_FALSE(again.built);
  EXPECT_NEAR(pointTimes(again.index, 0)[1], corrected(1.0), 1e-12);
  EXPECT_TRUE(notes_.empty());
}

TEST_F(timeline_clock_side_file, IgnoredWhenTheReportWasNotCorrected) {
  writeReport(false);
  trace::writeClockCorrections(side_, scenarioCorrections());  // left from another analysis
  const OpenedIndex opened = open();
  EXPECT_EQ(opened.clockWarning, "");
  EXPECT_DOUBLE_EQ(pointTimes(opened.index, 0)[1], 1.0);
}

TEST_F(timeline_clock_side_file, MissingOrDamagedGivesOneLineAndRecordedTimes) {
  writeReport(true);
  OpenedIndex opened = open();  // no side file
  EXPECT_EQ(opened.clockWarning, side_ + ": cannot be opened; analyze the trace again to write it (the timeline shows "
                                         "the recorded times)");
  ASSERT_EQ(notes_.size(), 1u);
  EXPECT_EQ(notes_[0], opened.clockWarning);
  EXPECT_DOUBLE_EQ(pointTimes(opened.index, 0)[1], 1.0);
  // Another kind of file by that name.
  { std::ofstream(side_) << "not a correction"; }
  opened = open();
  EXPECT_EQ(opened.clockWarning, side_ + ": not a Waitscope clock-correction file (the timeline shows the recorded times)");
  EXPECT_DOUBLE_EQ(pointTimes(opened.index, 0)[1], 1.0);
  // Truncated after its header.
  fs::remove(side_);  // the writer refuses to replace another kind of file
  trace::writeClockCorrections(side_, scenarioCorrections());
  fs::resize_file(side_, fs::file_size(side_) - 4);
  opened = open();
  EXPECT_NE(opened.clockWarning.find(side_ + ": the clock-correction file is truncated"), std::string::npos)
      << opened.clockWarning;
  EXPECT_DOUBLE_EQ(pointTimes(opened.index, 0)[1], 1.0);
  // Back intact: the index of recorded times is not trusted any more, it is built corrected.
  trace::writeClockCorrections(side_, scenarioCorrections());
  opened = open();
  EXPECT_EQ(opened.clockWarning, "");
  EXPECT_TRUE(opened.built);
  EXPECT_NEAR(pointTimes(opened.index, 0)[1], corrected(1.0), 1e-12);
}

// Rank 0's clock runs 0.4 s ahead: its message seems to reach rank 1 before it was sent.
TEST(timeline_clock_correction, AnAnalyzedTracesMessagesArriveAfterTheyLeave) {
  test::TempDir dir;
  const double skew[2] = {0.4, 0.0};
  trace::TraceBuilder b(2);
  for (const trace::Rank r : {0u, 1u}) b.rank(r).enter(skew[r], "main").init(skew[r], skew[r] + 0.5);
  b.rank(0).send(1.4, 1.41, 1, 8, 1);
  b.rank(1).recv(1.0, 1.000001, 0, 8, 1);
  for (const trace::Rank r : {0u, 1u}) b.rank(r).finalize(skew[r] + 9.0, skew[r] + 9.5).leave(skew[r] + 10.0, "main");
  const std::string anchor = b.write((dir / "trace").string());
  const std::string reportPath = (dir / "run.waitscope").string();
  const test::CommandResult analyzed =
      test::run("OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout 120 " + std::string(WAITSCOPE_MPIEXEC) +
                " -n 2 " + test::tool("waitscope-analyze") + " " + anchor + " -o " + reportPath + " --quiet");
  ASSERT_EQ(analyzed.exitCode, 0) << analyzed.err;
  const report::Report report = report::readReport(reportPath);
  ASSERT_EQ(report.metaValue("time_correction"), "controlled logical clock");
  const auto messageOf = [](const TimelineIndex& index) {
    EXPECT_EQ(index.locations.at(1).receives.size(), 1u);
    return index.locations.at(1).receives.items().at(0);
  };
  const Message raw = messageOf(buildTimelineIndex(anchor, report));
  EXPECT_LT(raw.end, raw.start);
  const OpenedIndex opened = openTimelineIndex(anchor, reportPath, report, {});
  EXPECT_EQ(opened.clockWarning, "");
  const Message m = messageOf(opened.index);
  EXPECT_GE(m.end, m.start);
  EXPECT_DOUBLE_EQ(m.start, raw.start);  // corrections only move events later: the receiver moved
  // The corrected index agrees with the analysis: each wait state lies within its location's span.
  for (const report::Instance& i : report.instances) {
    const auto points = opened.index.locations.at(i.location).levels.at(0).points();
    EXPECT_GE(i.start, points.front().start);
    EXPECT_LE(i.end, points.back().start);
  }
}

}  // namespace
}  // namespace waitscope::timeline
