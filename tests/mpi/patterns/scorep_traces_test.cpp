// The MPI-1 Score-P traces of ../shared/traces, analyzed in parallel, against
// values derived by hand from their events (docs/patterns.md, "Checked on
// real traces"): differences of the recorded timestamps in clock ticks.
#include <gtest/gtest.h>

#include <string>

#include "tests/mpi/patterns/analysis_test_support.h"

namespace waitscope::test {
namespace {

constexpr double kEps = 1e-9;

std::string shared(const std::string& name) { return std::string(WAITSCOPE_SHARED_DIR) + "/traces/" + name; }

// casita_4_mpi_ls_barr: a Late Sender chain 0 -> 1 -> 2 -> 3, then a barrier
// that rank 0 enters last. Clock: 1e9 ticks/s.
TEST(ScorePTraces, CasitaLateSenderChainAndBarrier) {
  ASSERT_EQ(worldSize(), 4) << "a 4-rank trace: run with mpiexec -n 4 (ctest does)";
  const report::Report rep = analyzeFile(shared("casita_4_mpi_ls_barr/traces.otf2"));
  if (!isRoot()) return;
  const std::string recv = "main/late_sender/MPI_Recv";
  EXPECT_NEAR(valueOf(rep, "mpi_latesender", recv, 0), 0.0, kEps);
  // MPI_Send enter on the sender minus MPI_Recv enter on the receiver.
  EXPECT_NEAR(valueOf(rep, "mpi_latesender", recv, 1), (106116946908054 - 106107922094015) * 1e-9, kEps);
  EXPECT_NEAR(valueOf(rep, "mpi_latesender", recv, 2), (106117924094517 - 106107918769568) * 1e-9, kEps);
  EXPECT_NEAR(valueOf(rep, "mpi_latesender", recv, 3), (106118975541798 - 106107985107808) * 1e-9, kEps);
  // Barrier: rank 0 enters last (106126796092142) and leaves first (106126796138187).
  const std::string barrier = "main/barrier/MPI_Barrier";
  EXPECT_NEAR(valueOf(rep, "mpi_barrier_wait", barrier, 0), 0.0, kEps);
  EXPECT_NEAR(valueOf(rep, "mpi_barrier_wait", barrier, 1), (106126796092142 - 106118960929793) * 1e-9, kEps);
  EXPECT_NEAR(valueOf(rep, "mpi_barrier_wait", barrier, 2), (106126796092142 - 106119952296334) * 1e-9, kEps);
  EXPECT_NEAR(valueOf(rep, "mpi_barrier_wait", barrier, 3), (106126796092142 - 106120065783752) * 1e-9, kEps);
  EXPECT_NEAR(valueOf(rep, "mpi_barrier_completion", barrier, 1), 794e-9, kEps);
  EXPECT_NEAR(valueOf(rep, "mpi_barrier_completion", barrier, 2), 10755e-9, kEps);
  EXPECT_NEAR(valueOf(rep, "mpi_barrier_completion", barrier, 3), 56892e-9, kEps);
  // MPI_Finalize: rank 3 enters last (106126796202409).
  EXPECT_NEAR(valueOf(rep, "mpi_finalize_wait", "main/MPI_Finalize", 0), 57852e-9, kEps);
  EXPECT_NEAR(valueOf(rep, "mpi_finalize_wait", "main/MPI_Finalize", 1), 52592e-9, kEps);
  EXPECT_NEAR(valueOf(rep, "mpi_finalize_wait", "main/MPI_Finalize", 2), 45612e-9, kEps);
  // MPI_Init: rank 1 leaves first (106106850396620).
  EXPECT_NEAR(valueOf(rep, "mpi_init_completion", "main/MPI_Init", 3), 165e-9, kEps);
  EXPECT_NEAR(valueOf(rep, "mpi_init_completion", "main/MPI_Init", 0), 3906e-9, kEps);
  EXPECT_NEAR(totalOf(rep, "mpi_latereceiver"), 0.0, kEps);
  EXPECT_EQ(rep.metaValue("clock_violations"), "0");
  EXPECT_NEAR(totalOf(rep, "syncs_coll"), 4.0, kEps);
  EXPECT_NEAR(totalOf(rep, "comms_p2p"), 6.0, kEps);
  EXPECT_NEAR(totalOf(rep, "bytes_p2p"), 24.0, kEps);
}

// pipit ping-pong: 2 ranks, 8 round trips of growing messages with blocking
// MPI_Send / MPI_Recv. Expected values from an independent matching of the
// otf2-print output (2095197216 ticks/s).
TEST(ScorePTraces, PipitPingPong) {
  ASSERT_EQ(worldSize(), 2) << "a 2-rank trace: run with mpiexec -n 2 (ctest does)";
  const report::Report rep = analyzeFile(shared("pipit_ping-pong-otf2/traces.otf2"));
  if (!isRoot()) return;
  EXPECT_NEAR(totalOf(rep, "mpi_latesender", 0), 0.000011835640, kEps);
  EXPECT_NEAR(totalOf(rep, "mpi_latesender", 1), 0.000033287559, kEps);
  EXPECT_NEAR(totalOf(rep, "mpi_latereceiver", 0), 0.000602734669, kEps);
  EXPECT_NEAR(totalOf(rep, "mpi_latereceiver", 1), 0.000017825530, kEps);
  EXPECT_NEAR(totalOf(rep, "comms_p2p"), 32.0, kEps);
}

}  // namespace
}  // namespace waitscope::test
