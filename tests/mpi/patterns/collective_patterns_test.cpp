// Collective patterns with exact values, at any rank count N >= 2.
#include <gtest/gtest.h>

#include <cstdint>

#include "tests/mpi/patterns/scenario.h"

namespace waitscope::test {
namespace {

using trace::TraceBuilder;
constexpr double kEps = 1e-9;


TEST(Collectives, WaitAtBarrierAndCompletion) {
  const auto n = static_cast<trace::Rank>(worldSize());
  TraceBuilder b(n);
  beginFrame(b);
  const double last = 1.0 + 0.1 * (n - 1);
  for (trace::Rank r = 0; r < n; ++r) b.rank(r).barrier(1.0 + 0.1 * r, last + 0.01 + 0.001 * r);
  endFrame(b);
  const report::Report rep = analyzeBuilt(b);
  if (!isRoot()) return;
  double waits = 0, completions = 0;
  for (trace::Rank r = 0; r < n; ++r) {
    EXPECT_NEAR(valueOf(rep, "mpi_barrier_wait", "main/MPI_Barrier", r), 0.1 * (n - 1 - r), kEps) << r;
    EXPECT_NEAR(valueOf(rep, "mpi_barrier_completion", "main/MPI_Barrier", r), 0.001 * r, kEps) << r;
    waits += 0.1 * (n - 1 - r);
    completions += 0.001 * r;
  }
  EXPECT_NEAR(totalOf(rep, "mpi_barrier_wait"), waits, kEps);
  EXPECT_NEAR(totalOf(rep, "mpi_sync_collective"), totalOf(rep, "mpi_sync_collective"), kEps);
  EXPECT_NEAR(totalOf(rep, "syncs_coll"), n, kEps);
  for (const auto& i : rep.instances) {
    if (rep.metrics[i.metric].uniqueName == "mpi_barrier_wait") {
      EXPECT_EQ(i.cause, n - 1);
    }
  }
  (void)completions;
}

TEST(Collectives, WaitAtNxNAndCompletion) {
  const auto n = static_cast<trace::Rank>(worldSize());
  TraceBuilder b(n);
  beginFrame(b);
  for (trace::Rank r = 0; r < n; ++r) b.rank(r).allreduce(1.0 + 0.2 * (n - 1 - r), 2.0 + 0.01 * r, 8);
  endFrame(b);
  const report::Report rep = analyzeBuilt(b);
  if (!isRoot()) return;
  for (trace::Rank r = 0; r < n; ++r) {
    EXPECT_NEAR(valueOf(rep, "mpi_wait_nxn", "main/MPI_Allreduce", r), 0.2 * r, kEps) << r;
    EXPECT_NEAR(valueOf(rep, "mpi_nxn_completion", "main/MPI_Allreduce", r), 0.01 * r, kEps) << r;
  }
  EXPECT_NEAR(totalOf(rep, "comms_coll"), n, kEps);
}

TEST(Collectives, LateBroadcastFromANonZeroRoot) {
  const auto n = static_cast<trace::Rank>(worldSize());
  TraceBuilder b(n);
  beginFrame(b);
  const trace::Rank root = n - 1;
  for (trace::Rank r = 0; r < n; ++r) b.rank(r).bcast(r == root ? 1.5 : 1.0, 1.6, root, 64);
  endFrame(b);
  const report::Report rep = analyzeBuilt(b);
  if (!isRoot()) return;
  for (trace::Rank r = 0; r < n; ++r)
    EXPECT_NEAR(valueOf(rep, "mpi_latebroadcast", "main/MPI_Bcast", r), r == root ? 0.0 : 0.5, kEps) << r;
  EXPECT_NEAR(totalOf(rep, "mpi_latebroadcast"), 0.5 * (n - 1), kEps);
}

TEST(Collectives, EarlyReduce) {
  const auto n = static_cast<trace::Rank>(worldSize());
  TraceBuilder b(n);
  beginFrame(b);
  for (trace::Rank r = 0; r < n; ++r) b.rank(r).reduce(r == 0 ? 1.0 : 1.2 + 0.1 * r, 2.0, 0, 8);
  endFrame(b);
  const report::Report rep = analyzeBuilt(b);
  if (!isRoot()) return;
  // Scalasca's Early Reduce: the root waits from its enter (1.0) until the latest sender enters,
  // rank n - 1 at 1.2 + 0.1 (n - 1); not until the first one (rank 1 at 1.3).
  const double wait = 0.2 + 0.1 * (n - 1);
  EXPECT_NEAR(valueOf(rep, "mpi_earlyreduce", "main/MPI_Reduce", 0), wait, kEps);
  EXPECT_NEAR(totalOf(rep, "mpi_earlyreduce"), wait, kEps);
  for (const auto& i : rep.instances) {
    if (rep.metrics[i.metric].uniqueName == "mpi_earlyreduce") {
      EXPECT_EQ(i.cause, n - 1);
    }
  }
}

TEST(Collectives, EarlyReduceIgnoresProcessesThatSendNothing) {
  const auto n = static_cast<trace::Rank>(worldSize());
  TraceBuilder b(n);
  beginFrame(b);
  // MPI_Gatherv to root 0 (enter 1.0): rank r >= 1 enters at 1.0 + 0.1 r, and the last rank sends
  // no data (a zero count). Scalasca counts only processes that send data: the root waits for the
  // latest of those, rank n - 2 at 1.0 + 0.1 (n - 2) (the root itself, 1.0, when n = 2: no wait).
  for (trace::Rank r = 0; r < n; ++r) {
    const std::uint64_t sent = r == n - 1 && r != 0 ? 0 : 8;
    b.rank(r).collective(1.0 + 0.1 * r, 2.0, "MPI_Gatherv", trace::CollectiveOp::Gatherv, 0, sent,
                         r == 0 ? 8 * (n - 1) : 0);
  }
  endFrame(b);
  const report::Report rep = analyzeBuilt(b);
  if (!isRoot()) return;
  const double wait = 0.1 * (n - 2);
  EXPECT_NEAR(valueOf(rep, "mpi_earlyreduce", "main/MPI_Gatherv", 0), wait, kEps);
  EXPECT_NEAR(totalOf(rep, "mpi_earlyreduce"), wait, kEps);
}

TEST(Collectives, EarlyScan) {
  const auto n = static_cast<trace::Rank>(worldSize());
  TraceBuilder b(n);
  beginFrame(b);
  for (trace::Rank r = 0; r < n; ++r) b.rank(r).scan(1.0 + 0.1 * (n - 1 - r), 2.0, 8);
  endFrame(b);
  const report::Report rep = analyzeBuilt(b);
  if (!isRoot()) return;
  for (trace::Rank r = 0; r < n; ++r)
    EXPECT_NEAR(valueOf(rep, "mpi_earlyscan", "main/MPI_Scan", r), 0.1 * r, kEps) << r;
}

TEST(Collectives, InitCompletionAndWaitAtFinalize) {
  const auto n = static_cast<trace::Rank>(worldSize());
  TraceBuilder b(n);
  for (trace::Rank r = 0; r < n; ++r)
    b.rank(r).enter(0.0, "main").init(0.0, 0.5 + 0.01 * r).finalize(3.0 + 0.1 * r, 4.0).leave(4.0, "main");
  const report::Report rep = analyzeBuilt(b);
  if (!isRoot()) return;
  for (trace::Rank r = 0; r < n; ++r) {
    EXPECT_NEAR(valueOf(rep, "mpi_init_completion", "main/MPI_Init", r), 0.01 * r, kEps) << r;
    EXPECT_NEAR(valueOf(rep, "mpi_finalize_wait", "main/MPI_Finalize", r), 0.1 * (n - 1 - r), kEps) << r;
  }
}

TEST(Collectives, BarrierOnASubCommunicatorWithReorderedRanks) {
  const auto n = static_cast<trace::Rank>(worldSize());
  TraceBuilder b(n);
  const trace::CommId pair = b.defineComm("pair", {n - 1, 0});
  beginFrame(b);
  b.rank(n - 1).barrier(1.0, 1.41, pair);
  b.rank(0).barrier(1.4, 1.41, pair);
  endFrame(b);
  const report::Report rep = analyzeBuilt(b);
  if (!isRoot()) return;
  EXPECT_NEAR(valueOf(rep, "mpi_barrier_wait", "main/MPI_Barrier", n - 1), 0.4, kEps);
  EXPECT_NEAR(totalOf(rep, "mpi_barrier_wait"), 0.4, kEps);
  for (const auto& i : rep.instances) {
    if (rep.metrics[i.metric].uniqueName == "mpi_barrier_wait") {
      EXPECT_EQ(i.cause, 0u);
    }
  }
}

TEST(Collectives, DifferentCollectiveCountsAreRejected) {
  const auto n = static_cast<trace::Rank>(worldSize());
  TraceBuilder b(n);
  beginFrame(b);
  for (trace::Rank r = 0; r < n; ++r) b.rank(r).barrier(1.0, 1.1);
  b.rank(0).barrier(2.0, 2.1);
  endFrame(b);
  const std::string error = analysisError(b);
  EXPECT_NE(error.find("different numbers of collective operations"), std::string::npos) << error;
}

}  // namespace
}  // namespace waitscope::test
