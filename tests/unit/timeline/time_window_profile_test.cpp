// A report restricted to a time window, on the hand-made message trace with a
// report whose values follow the analyzer's rules by construction
// (time_window_scenario.h): exact expected values per call path and location.
#include <gtest/gtest.h>

#include <vector>

#include "analysis/timeline/time_window_profile.h"
#include "tests/unit/timeline/time_window_scenario.h"
#include "tests/unit/timeline/timeline_scenarios.h"

namespace waitscope::timeline {
namespace {

using namespace test;  // the metrics of time_window_scenario.h
enum : std::uint32_t {
  kTime = kTwTime, kExecution = kTwExecution, kComp = kTwComp, kMpi = kTwMpi, kComm = kTwComm, kP2p = kTwP2p,
  kLateSender = kTwLateSender, kVisits = kTwVisits, kBytes = kTwBytes, kPath = kTwPath, kImbalance = kTwImbalance
};

class TimeWindow : public ::testing::Test {
 protected:
  void SetUp() override {
    test::buildMessages(builder_);
    report_ = test::timeWindowReport(builder_.trace());
    main_ = test::callPathOf(report_, "main");
    foo_ = test::callPathOf(report_, "main/foo");
    bar_ = test::callPathOf(report_, "main/bar");
    send_ = test::callPathOf(report_, "main/MPI_Send");
    recv_ = test::callPathOf(report_, "main/MPI_Recv");
    ASSERT_NE(recv_, report::kNoId);
    index_ = buildTimelineIndex(builder_.trace(), report_);
  }
  static std::vector<double> valuesOf(const report::Report& r, std::uint32_t metric, std::uint32_t callPath) {
    for (const report::SeverityRow& s : r.severities)
      if (s.metric == metric && s.callPath == callPath) return s.values;
    return {0.0, 0.0};
  }
  trace::TraceBuilder builder_{2};
  report::Report report_;
  TimelineIndex index_;
  std::uint32_t main_ = 0, foo_ = 0, bar_ = 0, send_ = 0, recv_ = 0;
};

using V = std::vector<double>;

TEST_F(TimeWindow, WholeTraceCheckKeepsWhatTheIndexReproduces) {
  const TimeWindowProfiler profiler(report_, index_);
  const std::vector<char>& a = profiler.available();
  for (std::uint32_t m : {kTime, kExecution, kComp, kMpi, kComm, kP2p, kLateSender, kVisits, kPath, kImbalance})
    EXPECT_TRUE(a[m]) << report_.metrics[m].uniqueName;
  EXPECT_FALSE(a[kBytes]);  // no rule restricts bytes to a window
  // Over the whole trace the restricted report is the report (available metrics).
  const TimeWindowProfile whole = profiler.restrict(0.0, 8.0);
  for (const report::SeverityRow& s : report_.severities) {
    if (a[s.metric]) {
      EXPECT_EQ(valuesOf(whole.report, s.metric, s.callPath), s.values) << s.metric << "/" << s.callPath;
    }
  }
}

TEST_F(TimeWindow, WindowCutsRegionsInstancesAndThePath) {
  const TimeWindowProfiler profiler(report_, index_);
  const TimeWindowProfile w = profiler.restrict(1.5, 4.5);
  const report::Report& r = w.report;
  const double ls = 1.0 / 128;
  // Rank 0 in [1.5, 4.5]: foo 0.5, 8 sends 0.375, bar 0.5, main the rest (1.625); rank 1: 8 receives 0.125.
  EXPECT_EQ(valuesOf(r, kComp, main_), (V{1.625, 2.875}));
  EXPECT_EQ(valuesOf(r, kComp, foo_), (V{0.5, 0}));
  EXPECT_EQ(valuesOf(r, kComp, bar_), (V{0.5, 0}));
  EXPECT_EQ(valuesOf(r, kP2p, send_), (V{0.375, 0}));
  EXPECT_EQ(valuesOf(r, kP2p, recv_), (V{0, 0.125 - ls}));
  EXPECT_EQ(valuesOf(r, kLateSender, recv_), (V{0, ls}));
  // Visits entered in the window: main and foo began before it.
  EXPECT_EQ(valuesOf(r, kVisits, main_), (V{0, 0}));
  EXPECT_EQ(valuesOf(r, kVisits, foo_), (V{0, 0}));
  EXPECT_EQ(valuesOf(r, kVisits, send_), (V{8, 0}));
  EXPECT_EQ(valuesOf(r, kVisits, bar_), (V{1, 0}));
  EXPECT_EQ(valuesOf(r, kVisits, recv_), (V{0, 8}));
  // The path lies on rank 0 for the whole window; imbalance against 4.5 s of main, 0.5 of foo
  // and bar, 0.375 of MPI_Send over 2 locations: foo and bar 0.25, MPI_Send 0.1875.
  EXPECT_EQ(valuesOf(r, kPath, main_), (V{1.625, 0}));
  EXPECT_EQ(valuesOf(r, kPath, foo_), (V{0.25, 0}));
  EXPECT_EQ(valuesOf(r, kPath, bar_), (V{0.25, 0}));
  EXPECT_EQ(valuesOf(r, kPath, send_), (V{0.1875, 0}));
  EXPECT_EQ(valuesOf(r, kImbalance, bar_), (V{0.25, 0}));
  // Not available: no rows at all.
  for (const report::SeverityRow& s : r.severities) EXPECT_NE(s.metric, kBytes);
  ASSERT_EQ(r.instances.size(), 1u);
  ASSERT_EQ(r.criticalPath.size(), 1u);  // rank 1's segment begins where the window ends
  EXPECT_EQ(r.criticalPath[0].start, 1.5);
  EXPECT_EQ(r.criticalPath[0].end, 4.5);
  EXPECT_EQ(r.callPaths.size(), report_.callPaths.size());
}

TEST_F(TimeWindow, WindowCutsCallsInTwo) {
  const TimeWindowProfiler profiler(report_, index_);
  // [2 + 2/64, 2 + 6/64]: the end of send 0 (1/64), main (1/64), the start of send 1 (2/64);
  // on rank 1 main (3/64) and the first 1/64 of receive 1. The Late Sender instance lies before it.
  const TimeWindowProfile w = profiler.restrict(2.0 + 2.0 / 64, 2.0 + 6.0 / 64);
  EXPECT_EQ(valuesOf(w.report, kP2p, send_), (V{3.0 / 64, 0}));
  EXPECT_EQ(valuesOf(w.report, kP2p, recv_), (V{0, 1.0 / 64}));
  EXPECT_EQ(valuesOf(w.report, kLateSender, recv_), (V{0, 0}));
  EXPECT_EQ(valuesOf(w.report, kComp, main_), (V{1.0 / 64, 3.0 / 64}));
  EXPECT_EQ(valuesOf(w.report, kVisits, send_), (V{1, 0}));
  EXPECT_EQ(valuesOf(w.report, kVisits, recv_), (V{0, 1}));
  EXPECT_TRUE(w.report.instances.empty());
}

TEST_F(TimeWindow, MetricTheIndexContradictsIsNotAvailableNorAnythingAboveIt) {
  report_.severities[0].values[0] += 0.5;  // comp of main on rank 0: not what the trace says
  const TimeWindowProfiler profiler(report_, index_);
  const std::vector<char>& a = profiler.available();
  EXPECT_FALSE(a[kComp]);
  EXPECT_FALSE(a[kExecution]);
  EXPECT_FALSE(a[kTime]);
  EXPECT_TRUE(a[kMpi]);
  EXPECT_TRUE(a[kP2p]);
  EXPECT_TRUE(a[kVisits]);
  for (const report::SeverityRow& s : profiler.restrict(0.0, 8.0).report.severities) EXPECT_NE(s.metric, kComp);
}

TEST_F(TimeWindow, SubPatternCountsInItsParentUnlessTheParentHasItsOwnInstance) {
  // Messages in Wrong Order below Late Sender on rank 1: one instance inside the Late Sender
  // instance of receive 0 (same call, same start: Late Sender covers it already), one of ls in
  // receive 1 (no Late Sender instance there: it counts in Late Sender too). Late Sender holds
  // ls + ls, point-to-point 0.125 s of receives minus that; stored metric-exclusive.
  const double ls = 1.0 / 128, receive1 = 2.0 + 1.0 / 16 + 1.0 / 64;
  const auto wo = static_cast<std::uint32_t>(report_.metrics.size());
  report_.metrics.push_back({"mpi_latesender_wo", "Messages in Wrong Order", "", report::MetricUnit::Seconds, kLateSender});
  report_.instances.push_back({wo, 1, recv_, 2.0 + 1.0 / 64, 2.0 + 1.0 / 64 + ls / 2, 0});
  report_.instances.push_back({wo, 1, recv_, receive1, receive1 + ls, 0});
  for (report::SeverityRow& s : report_.severities) {
    if (s.callPath == recv_ && s.metric == kP2p) s.values = {0, 0.125 - 2 * ls};
    if (s.callPath == recv_ && s.metric == kLateSender) s.values = {0, ls / 2};
  }
  report_.severities.push_back({wo, recv_, {0, 1.5 * ls}});
  const TimeWindowProfiler profiler(report_, index_);
  for (const std::uint32_t m : std::vector<std::uint32_t>{kTime, kP2p, kLateSender, wo})
    EXPECT_TRUE(profiler.available()[m]) << m;
  // Up to half of receive 1's instance: Wrong Order ls/2 + ls/2, Late Sender ls + ls/2 inclusive;
  // receives 1/64 + 1/256.
  const TimeWindowProfile w = profiler.restrict(2.0, receive1 + ls / 2);
  EXPECT_EQ(valuesOf(w.report, wo, recv_), (V{0, ls}));
  EXPECT_EQ(valuesOf(w.report, kLateSender, recv_), (V{0, ls / 2}));
  EXPECT_EQ(valuesOf(w.report, kP2p, recv_), (V{0, 1.0 / 64 + 1.0 / 256 - 1.5 * ls}));
}

}  // namespace
}  // namespace waitscope::timeline
