// The communication matrix on the hand-made traces of timeline_scenarios.h:
// exact counts and bytes of messages and RMA transfers (a get counted from its
// target to its origin), the time window, the kinds switched off, and waiting
// time from the report's instances by causing and waiting location.
#include <gtest/gtest.h>

#include "analysis/timeline/communication_matrix.h"
#include "tests/unit/timeline/timeline_scenarios.h"

namespace waitscope::timeline {
namespace {

using Q = MatrixQuantity;

TEST(communication_matrix, MessagesCountedOnceWithTheirBytes) {
  trace::TraceBuilder b(2);
  test::buildMessages(b);
  report::Report report = test::reportSkeleton(b.trace());
  const std::uint32_t recv = test::callPathOf(report, "main/MPI_Recv");
  const std::uint32_t lateSender = report.findMetric("mpi_latesender");
  // A Late Sender instance on rank 1 caused by rank 0, another without a cause (not counted).
  report.instances.push_back({lateSender, 1, recv, 2.0 + 1.0 / 64, 2.0 + 1.0 / 64 + 1.0 / 128, 0});
  report.instances.push_back({lateSender, 1, recv, 3.0, 3.5, report::kNoId});
  const TimelineIndex index = buildTimelineIndex(b.trace(), report);

  const CommunicationMatrix all = communicationMatrix(index, report, {});
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all.value(Q::Count, 0, 1), 8.0);
  EXPECT_EQ(all.value(Q::Bytes, 0, 1), 8.0 * 1024);
  EXPECT_EQ(all.value(Q::Count, 1, 0), 0.0);
  EXPECT_EQ(all.value(Q::Count, 0, 0), 0.0);
  EXPECT_EQ(all.value(Q::WaitingTime, 0, 1), 1.0 / 128);  // rank 0 made rank 1 wait
  EXPECT_EQ(all.value(Q::WaitingTime, 1, 0), 0.0);
  EXPECT_EQ(all.total(Q::Count), 8.0);
  EXPECT_EQ(all.largest(Q::Bytes), 8.0 * 1024);

  // Sends at 2 + k/16: [2, 2.25) holds k = 0..3; the instance's first quarter lies in [2, 2 + 1.25/64).
  MatrixFilter window;
  window.from = 2.0;
  window.to = 2.25;
  EXPECT_EQ(communicationMatrix(index, report, window).value(Q::Count, 0, 1), 4.0);
  EXPECT_EQ(communicationMatrix(index, report, window).value(Q::Bytes, 0, 1), 4.0 * 1024);
  window.to = 2.0 + 1.25 / 64;
  EXPECT_EQ(communicationMatrix(index, report, window).value(Q::WaitingTime, 0, 1), 1.0 / 256);

  MatrixFilter noP2p;
  noP2p.pointToPoint = false;
  EXPECT_EQ(communicationMatrix(index, report, noP2p).total(Q::Count), 0.0);
  EXPECT_EQ(communicationMatrix(index, report, noP2p).total(Q::WaitingTime), 0.0);

  // Waiting time follows the picked metrics and call paths.
  MatrixFilter otherMetric;
  otherMetric.metrics.assign(report.metrics.size(), 0);
  otherMetric.metrics[report.findMetric("mpi_rma_sync_late_post")] = 1;
  EXPECT_EQ(communicationMatrix(index, report, otherMetric).total(Q::WaitingTime), 0.0);
  EXPECT_EQ(communicationMatrix(index, report, otherMetric).total(Q::Count), 8.0);  // counts do not
  MatrixFilter thisPath;
  thisPath.callPaths.assign(report.callPaths.size(), 0);
  thisPath.callPaths[recv] = 1;
  EXPECT_EQ(communicationMatrix(index, report, thisPath).value(Q::WaitingTime, 0, 1), 1.0 / 128);
}

TEST(communication_matrix, RmaTransfersFromWhereTheDataLeaves) {
  trace::TraceBuilder b(3);
  test::buildRma(b);
  report::Report report = test::reportSkeleton(b.trace());
  const std::uint32_t start = test::callPathOf(report, "main/MPI_Win_start");
  ASSERT_NE(start, report::kNoId);
  // Late Post: rank 1 waited in MPI_Win_start for rank 0's post.
  report.instances.push_back({report.findMetric("mpi_rma_sync_late_post"), 1, start, 4.0, 4.125, 0});
  const TimelineIndex index = buildTimelineIndex(b.trace(), report);

  const CommunicationMatrix all = communicationMatrix(index, report, {});
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all.value(Q::Count, 0, 1), 1.0);  // put 64 bytes 0 -> 1
  EXPECT_EQ(all.value(Q::Bytes, 0, 1), 64.0);
  EXPECT_EQ(all.value(Q::Count, 1, 0), 1.0);  // put 32 bytes 1 -> 0
  EXPECT_EQ(all.value(Q::Bytes, 1, 0), 32.0);
  EXPECT_EQ(all.value(Q::Count, 0, 2), 1.0);  // rank 2 gets 128 bytes from rank 0
  EXPECT_EQ(all.value(Q::Bytes, 0, 2), 128.0);
  EXPECT_EQ(all.value(Q::Count, 2, 0), 0.0);
  EXPECT_EQ(all.total(Q::Count), 3.0);
  EXPECT_EQ(all.value(Q::WaitingTime, 0, 1), 0.125);

  MatrixFilter later;  // from 4 s on: the GATS put and the get
  later.from = 4.0;
  const CommunicationMatrix l = communicationMatrix(index, report, later);
  EXPECT_EQ(l.total(Q::Count), 2.0);
  EXPECT_EQ(l.total(Q::Bytes), 160.0);

  MatrixFilter noRma;
  noRma.rma = false;
  EXPECT_EQ(communicationMatrix(index, report, noRma).total(Q::Bytes), 0.0);
  EXPECT_EQ(communicationMatrix(index, report, noRma).total(Q::WaitingTime), 0.0);
}

}  // namespace
}  // namespace waitscope::timeline
