// The POP efficiency metrics of an analyzed trace whose computation, runtime
// and waiting time per process are known by construction, at any N >= 2.
#include <gtest/gtest.h>

#include <algorithm>

#include "analysis/report/pop_metrics.h"
#include "tests/mpi/patterns/scenario.h"

namespace waitscope::test {
namespace {

constexpr double kEps = 1e-9;

// Every rank: main [0, 10], MPI_Init [0, 0.5], MPI_Finalize [9, 9.5], the rest computation but
// for two barriers that all ranks leave together 0.25 s after the last one entered:
//   phase 1: rank r computes 0.5 r from 1.0, so it waits 0.5 (N-1-r) at the first barrier;
//   phase 2: rank 0 computes 1.0, the others 0.5, so every rank but 0 waits 0.5 at the second.
// Hence T_p = 10, W_p = Wait at Barrier = 0.5 (N-1) for rank 0 and 0.5 (N-1-r) + 0.5 for the
// others, and U_p = 10 - 1 (init and finalize) - W_p - 2 x 0.25 = 8.5 - W_p.
TEST(PopMetrics, BarrierWaitsGiveLoadBalanceSerialisationAndTransfer) {
  const trace::Rank n = size();
  trace::TraceBuilder b(n);
  beginFrame(b);
  const double firstOut = 1.0 + 0.5 * (n - 1) + 0.25;
  const double secondOut = firstOut + 1.0 + 0.25;
  for (trace::Rank r = 0; r < n; ++r) {
    b.rank(r).barrier(1.0 + 0.5 * r, firstOut);
    b.rank(r).barrier(firstOut + (r == 0 ? 1.0 : 0.5), secondOut);
  }
  endFrame(b);
  const report::Report rep = analyzeBuilt(b);
  if (!isRoot()) return;

  std::vector<double> waited(n), useful(n);
  for (trace::Rank r = 0; r < n; ++r) {
    waited[r] = r == 0 ? 0.5 * (n - 1) : 0.5 * (n - 1 - r) + 0.5;
    useful[r] = 8.5 - waited[r];
    EXPECT_NEAR(totalOf(rep, "comp", r), useful[r], kEps) << "rank " << r;
    EXPECT_NEAR(totalOf(rep, "time", r), 10.0, kEps) << "rank " << r;
  }
  double usefulSum = 0.0, waitedSum = 0.0, ideal = 0.0;
  for (trace::Rank r = 0; r < n; ++r) {
    usefulSum += useful[r];
    waitedSum += waited[r];
    ideal = std::max(ideal, 10.0 - waited[r]);
  }
  EXPECT_NEAR(ideal, 9.5, kEps);  // rank N-1 waits only at the second barrier
  const double usefulMax = *std::max_element(useful.begin(), useful.end());
  EXPECT_NEAR(usefulMax, 8.0, kEps);
  const double usefulMean = usefulSum / n;

  const report::PopMetrics m = report::popMetrics(rep, "barriers");
  EXPECT_EQ(m.processes, n);
  EXPECT_NEAR(m.runtime, 10.0, kEps);
  EXPECT_NEAR(m.usefulSum, usefulSum, kEps);
  EXPECT_NEAR(m.waitingTime, waitedSum, kEps);
  EXPECT_NEAR(m.idealRuntime, 9.5, kEps);
  EXPECT_NEAR(m.loadBalance, usefulMean / 8.0, kEps);
  EXPECT_NEAR(m.communicationEfficiency, 8.0 / 10.0, kEps);
  EXPECT_NEAR(m.serialisationEfficiency, 8.0 / 9.5, kEps);
  EXPECT_NEAR(m.transferEfficiency, 9.5 / 10.0, kEps);
  EXPECT_NEAR(m.parallelEfficiency, usefulMean / 10.0, kEps);
}

}  // namespace
}  // namespace waitscope::test
