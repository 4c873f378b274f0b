// The checker every analysis in the tests goes through (tests/support/report_invariants.h), on
// hand-made reports: it passes a consistent one and names each broken invariant.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/support/report_invariants.h"

namespace waitscope::test {
namespace {

// Two ranks, main/MPI_Barrier taking 1 s on each: 0.4 s Wait at Barrier and 0.3 s Barrier
// Completion at rank 0, nothing at rank 1; one wait instance.
struct Barrier {
  report::Report r;
  enum : std::uint32_t { kTime, kMpi, kWait, kCompletion, kClock };
  Barrier() {
    r.metrics = {{"time", "Time", "", report::MetricUnit::Seconds, report::kNoId},
                 {"mpi", "MPI", "", report::MetricUnit::Seconds, kTime},
                 {"mpi_barrier_wait", "Wait at Barrier", "", report::MetricUnit::Seconds, kMpi},
                 {"mpi_barrier_completion", "Barrier Completion", "", report::MetricUnit::Seconds, kMpi},
                 {"clock_violations", "Clock Condition Violations", "", report::MetricUnit::Occurrences,
                  report::kNoId}};
    r.regions = {{"main", "", 0, 0, "user"}, {"MPI_Barrier", "", 0, 0, "mpi"}};
    r.callPaths = {{report::kNoId, 0, "", 0}, {0, 1, "", 0}};
    r.locations = {{"Rank 0", 0, report::kNoId}, {"Rank 1", 1, report::kNoId}};
    r.severities = {{kMpi, 1, {0.3, 1.0}}, {kWait, 1, {0.4, 0.0}}, {kCompletion, 1, {0.3, 0.0}}};
    r.instances = {{kWait, 0, 1, 2.0, 2.4, 1}};
  }
  void set(std::uint32_t metric, double rank0) {
    for (report::SeverityRow& row : r.severities)
      if (row.metric == metric) row.values[0] = rank0;
  }
};

bool mentions(const std::vector<std::string>& problems, const std::string& phrase) {
  for (const std::string& p : problems)
    if (p.find(phrase) != std::string::npos) return true;
  return false;
}

TEST(ReportInvariants, AConsistentReportPasses) {
  const Barrier b;
  EXPECT_EQ(invariantViolations(b.r), std::vector<std::string>{});
}

TEST(ReportInvariants, AnInstanceLongerThanItsCall) {
  Barrier b;
  b.r.instances[0].end = 3.5;
  const auto problems = invariantViolations(b.r);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("instance of mpi_barrier_wait on main/MPI_Barrier at rank 0 lasts 1.5 s"),
            std::string::npos)
      << problems[0];
}

TEST(ReportInvariants, AnInstanceEndingBeforeItStarts) {
  Barrier b;
  b.r.instances[0].end = 1.0;
  EXPECT_TRUE(mentions(invariantViolations(b.r), "ends before it starts"));
}

// Wait 0.7 s and completion 0.6 s of a 1 s call: they overlap, which leaves MPI's exclusive
// value at -0.3. A clock-condition violation on the call path excuses the negative value only.
TEST(ReportInvariants, ACompletionOverlappingItsWait) {
  Barrier b;
  b.set(Barrier::kWait, 0.7);
  b.set(Barrier::kCompletion, 0.6);
  b.set(Barrier::kMpi, -0.3);
  auto problems = invariantViolations(b.r);
  EXPECT_EQ(problems.size(), 2u);
  EXPECT_TRUE(mentions(problems, "negative exclusive value -0.3 of mpi on main/MPI_Barrier at rank 0"));
  EXPECT_TRUE(mentions(problems, "mpi_barrier_wait (0.7) and mpi_barrier_completion (0.6) on main/MPI_Barrier at "
                                 "rank 0 overlap"));
  b.r.severities.push_back({Barrier::kClock, 1, {0.0, 1.0}});
  problems = invariantViolations(b.r);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("overlap"), std::string::npos) << problems[0];
}

// A pattern larger than its parent: Wait at Barrier 1.2 s in a call of 1 s (MPI's exclusive value
// is negative, which the clock-condition violation excuses; the wait also outgrows the call).
TEST(ReportInvariants, ASubPatternLargerThanItsParent) {
  Barrier b;
  b.r.severities = {{Barrier::kMpi, 1, {-0.2, 1.0}}, {Barrier::kWait, 1, {1.2, 0.0}},
                    {Barrier::kClock, 1, {1.0, 0.0}}};
  const auto problems = invariantViolations(b.r);
  EXPECT_EQ(problems.size(), 2u);
  EXPECT_TRUE(mentions(problems, "mpi_barrier_wait on main/MPI_Barrier at rank 0 is 1.2, more than its parent mpi (1)"));
  EXPECT_TRUE(mentions(problems, "mpi_barrier_wait (1.2) and mpi_barrier_completion (0) on main/MPI_Barrier"));
}

TEST(ReportInvariants, RoundingIsNoViolation) {
  Barrier b;
  b.set(Barrier::kMpi, -5e-10);
  b.set(Barrier::kCompletion, 0.3 + 5e-10);
  EXPECT_EQ(invariantViolations(b.r), std::vector<std::string>{});
}

}  // namespace
}  // namespace waitscope::test
