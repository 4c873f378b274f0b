// Point-to-point patterns with exact values, at any rank count N >= 2.
#include <gtest/gtest.h>

#include "tests/mpi/patterns/scenario.h"

namespace waitscope::test {
namespace {

using trace::TraceBuilder;
constexpr double kEps = 1e-9;


TEST(PointToPoint, LateSenderPerReceiver) {
  const auto n = static_cast<trace::Rank>(worldSize());
  TraceBuilder b(n);
  beginFrame(b);
  // Rank 0 sends to rank r at 1 + 0.1 r; rank r waits in MPI_Recv from 1.0.
  for (trace::Rank r = 1; r < n; ++r) {
    b.rank(0).send(1.0 + 0.1 * r, 1.0 + 0.1 * r + 0.01, r, 800, 7);
    b.rank(r).recv(1.0, 1.0 + 0.1 * r + 0.02, 0, 800, 7);
  }
  endFrame(b);
  const report::Report rep = analyzeBuilt(b);
  if (!isRoot()) return;
  for (trace::Rank r = 1; r < n; ++r) {
    EXPECT_NEAR(valueOf(rep, "mpi_latesender", "main/MPI_Recv", r), 0.1 * r, kEps) << "rank " << r;
    EXPECT_NEAR(valueOf(rep, "mpi_point2point", "main/MPI_Recv", r), 0.1 * r + 0.02, kEps);
    EXPECT_NEAR(valueOf(rep, "bytes_p2p", "main/MPI_Recv", r), 800, kEps);
    EXPECT_NEAR(valueOf(rep, "comms_p2p", "main/MPI_Recv", r), 1, kEps);
  }
  double expected = 0;
  for (trace::Rank r = 1; r < n; ++r) expected += 0.1 * r;
  EXPECT_NEAR(totalOf(rep, "mpi_latesender"), expected, kEps);
  EXPECT_NEAR(totalOf(rep, "mpi_latesender_wo"), 0.0, kEps);
  EXPECT_NEAR(totalOf(rep, "mpi_latereceiver"), 0.0, kEps);
  EXPECT_NEAR(totalOf(rep, "comms_p2p"), 2.0 * (n - 1), kEps);
  EXPECT_EQ(instancesOf(rep, "mpi_latesender"), n - 1);
  for (const auto& i : rep.instances) {
    if (rep.metrics[i.metric].uniqueName == "mpi_latesender") {
      EXPECT_EQ(i.cause, 0u);
    }
  }
}

TEST(PointToPoint, WaitallWaitsForTheLatestSender) {
  const auto n = static_cast<trace::Rank>(worldSize());
  TraceBuilder b(n);
  beginFrame(b);
  std::vector<trace::Request> requests;
  for (trace::Rank r = 1; r < n; ++r) {
    requests.push_back(b.rank(0).irecv(1.0 + 0.001 * r, 1.0 + 0.001 * r + 0.0001, r, 8, 0));
    b.rank(r).send(2.0 + 0.1 * r, 2.0 + 0.1 * r + 0.01, 0, 8, 0);
  }
  b.rank(0).waitAll(1.5, 2.0 + 0.1 * (n - 1) + 0.05, requests);
  endFrame(b);
  const report::Report rep = analyzeBuilt(b);
  if (!isRoot()) return;
  EXPECT_NEAR(valueOf(rep, "mpi_latesender", "main/MPI_Waitall", 0), 0.5 + 0.1 * (n - 1), kEps);
  EXPECT_NEAR(totalOf(rep, "mpi_latesender"), 0.5 + 0.1 * (n - 1), kEps);
  ASSERT_EQ(instancesOf(rep, "mpi_latesender"), 1u);
}

TEST(PointToPoint, LateReceiverBlocksASynchronousSend) {
  const auto n = static_cast<trace::Rank>(worldSize());
  TraceBuilder b(n);
  beginFrame(b);
  b.rank(0).ssend(1.0, 1.5, 1, 4096, 3);
  b.rank(1).recv(1.3, 1.5, 0, 4096, 3);
  endFrame(b);
  const report::Report rep = analyzeBuilt(b);
  if (!isRoot()) return;
  EXPECT_NEAR(valueOf(rep, "mpi_latereceiver", "main/MPI_Ssend", 0), 0.3, kEps);
  EXPECT_NEAR(totalOf(rep, "mpi_latereceiver"), 0.3, kEps);
  EXPECT_NEAR(totalOf(rep, "mpi_latesender"), 0.0, kEps);
}

TEST(PointToPoint, NoLateReceiverWhenTheSendReturnedFirst) {
  const auto n = static_cast<trace::Rank>(worldSize());
  TraceBuilder b(n);
  beginFrame(b);
  b.rank(0).send(1.0, 1.01, 1, 8, 3);  // eager: returns before the receive is posted
  b.rank(1).recv(1.3, 1.31, 0, 8, 3);
  endFrame(b);
  const report::Report rep = analyzeBuilt(b);
  if (!isRoot()) return;
  EXPECT_NEAR(totalOf(rep, "mpi_latereceiver"), 0.0, kEps);
}

TEST(PointToPoint, LateReceiverInTheWaitOfANonBlockingSend) {
  const auto n = static_cast<trace::Rank>(worldSize());
  TraceBuilder b(n);
  beginFrame(b);
  // Rank 0: MPI_Isend [1.0, 1.01] of a large message, MPI_Wait [1.1, 1.6]; rank 1 posts MPI_Recv
  // at 1.4 (rendezvous: the wait returns after it). Scalasca charges the completing MPI_Wait:
  // from its enter to the posting, 1.4 - 1.1 = 0.3; the MPI_Isend itself waited for nothing.
  const trace::Request req = b.rank(0).isend(1.0, 1.01, 1, 4u << 20, 3);
  b.rank(0).wait(1.1, 1.6, req);
  b.rank(1).recv(1.4, 1.6, 0, 4u << 20, 3);
  endFrame(b);
  const report::Report rep = analyzeBuilt(b);
  if (!isRoot()) return;
  EXPECT_NEAR(valueOf(rep, "mpi_latereceiver", "main/MPI_Wait", 0), 0.3, kEps);
  EXPECT_NEAR(valueOf(rep, "mpi_latereceiver", "main/MPI_Isend", 0), 0.0, kEps);
  EXPECT_NEAR(totalOf(rep, "mpi_latereceiver"), 0.3, kEps);
  ASSERT_EQ(instancesOf(rep, "mpi_latereceiver"), 1u);
  for (const auto& i : rep.instances) {
    if (rep.metrics[i.metric].uniqueName == "mpi_latereceiver") {
      EXPECT_EQ(i.cause, 1u);
    }
  }
}

TEST(PointToPoint, LateReceiverInAWaitallCountsTheLatestReceiver) {
  const auto n = static_cast<trace::Rank>(worldSize());
  TraceBuilder b(n);
  beginFrame(b);
  // Rank 0 sends to every other rank with MPI_Isend and completes all in one MPI_Waitall entered
  // at 1.5; rank r posts its receive at 1.5 + 0.1 r. As for Late Sender, Scalasca counts the
  // longest wait of the call, for the last receiver: 0.1 (n - 1).
  std::vector<trace::Request> requests;
  for (trace::Rank r = 1; r < n; ++r) {
    requests.push_back(b.rank(0).isend(1.0 + 0.001 * r, 1.0 + 0.001 * r + 0.0001, r, 4u << 20, 0));
    b.rank(r).recv(1.5 + 0.1 * r, 1.5 + 0.1 * n, 0, 4u << 20, 0);
  }
  b.rank(0).waitAll(1.5, 1.5 + 0.1 * n, requests);
  endFrame(b);
  const report::Report rep = analyzeBuilt(b);
  if (!isRoot()) return;
  EXPECT_NEAR(valueOf(rep, "mpi_latereceiver", "main/MPI_Waitall", 0), 0.1 * (n - 1), kEps);
  EXPECT_NEAR(totalOf(rep, "mpi_latereceiver"), 0.1 * (n - 1), kEps);
  ASSERT_EQ(instancesOf(rep, "mpi_latereceiver"), 1u);
}

TEST(PointToPoint, NoLateReceiverInAWaitallThatWaitedForALateSender) {
  const auto n = static_cast<trace::Rank>(worldSize());
  TraceBuilder b(n);
  beginFrame(b);
  // Rank 0 completes an MPI_Isend to rank 1 (received at 1.4) and an MPI_Irecv from rank 1 (sent
  // at 1.3) in one MPI_Waitall entered at 1.1. Scalasca files that call's wait as Late Sender,
  // 1.3 - 1.1 = 0.2, and counts no Late Receiver in it.
  const trace::Request out = b.rank(0).isend(1.0, 1.01, 1, 4u << 20, 3);
  const trace::Request in = b.rank(0).irecv(1.02, 1.03, 1, 8, 4);
  b.rank(0).waitAll(1.1, 1.6, {out, in});
  b.rank(1).send(1.3, 1.31, 0, 8, 4).recv(1.4, 1.6, 0, 4u << 20, 3);
  endFrame(b);
  const report::Report rep = analyzeBuilt(b);
  if (!isRoot()) return;
  EXPECT_NEAR(valueOf(rep, "mpi_latesender", "main/MPI_Waitall", 0), 0.2, kEps);
  EXPECT_NEAR(totalOf(rep, "mpi_latereceiver"), 0.0, kEps);
}

TEST(PointToPoint, NoLateReceiverForAReadySend) {
  const auto n = static_cast<trace::Rank>(worldSize());
  TraceBuilder b(n);
  beginFrame(b);
  // MPI_Rsend [1.0, 1.5] with the receive posted at 1.3: an MPI_Send so timed would count 0.3, but
  // a ready send may only start after the posting, and Scalasca's Late Receiver leaves it out.
  b.rank(0)
      .enter(1.0, "MPI_Rsend")
      .event(trace::EventKind::MpiSend, 1.0, trace::MessageRecord{1, 0, 3, 4096, 0})
      .leave(1.5, "MPI_Rsend");
  b.rank(1).recv(1.3, 1.5, 0, 4096, 3);
  endFrame(b);
  const report::Report rep = analyzeBuilt(b);
  if (!isRoot()) return;
  EXPECT_NEAR(valueOf(rep, "mpi_point2point", "main/MPI_Rsend", 0), 0.5, kEps);
  EXPECT_NEAR(totalOf(rep, "mpi_latereceiver"), 0.0, kEps);
}

TEST(PointToPoint, MessagesInWrongOrderFromTheSameSource) {
  const auto n = static_cast<trace::Rank>(worldSize());
  TraceBuilder b(n);
  beginFrame(b);
  b.rank(1).send(1.0, 1.01, 0, 8, 1).send(2.0, 2.01, 0, 8, 2);
  // Rank 0 asks for tag 2 first: waits 0.5 s for a message sent after the one it takes next.
  b.rank(0).recv(1.5, 2.02, 1, 8, 2).recv(2.1, 2.11, 1, 8, 1);
  endFrame(b);
  const report::Report rep = analyzeBuilt(b);
  if (!isRoot()) return;
  EXPECT_NEAR(valueOf(rep, "mpi_latesender", "main/MPI_Recv", 0), 0.5, kEps);
  EXPECT_NEAR(valueOf(rep, "mpi_latesender_wo", "main/MPI_Recv", 0), 0.5, kEps);
  EXPECT_NEAR(valueOf(rep, "mpi_lswo_same", "main/MPI_Recv", 0), 0.5, kEps);
  EXPECT_NEAR(totalOf(rep, "mpi_lswo_different"), 0.0, kEps);
  EXPECT_EQ(instancesOf(rep, "mpi_lswo_same"), 1u);
}

TEST(PointToPoint, MessagesInWrongOrderFromDifferentSources) {
  const auto n = static_cast<trace::Rank>(worldSize());
  if (n < 3) GTEST_SKIP() << "needs three ranks";
  TraceBuilder b(n);
  beginFrame(b);
  b.rank(2).send(1.0, 1.01, 0, 8, 0);
  b.rank(1).send(2.0, 2.01, 0, 8, 0);
  b.rank(0).recv(1.5, 2.02, 1, 8, 0).recv(2.1, 2.11, 2, 8, 0);
  endFrame(b);
  const report::Report rep = analyzeBuilt(b);
  if (!isRoot()) return;
  EXPECT_NEAR(valueOf(rep, "mpi_lswo_different", "main/MPI_Recv", 0), 0.5, kEps);
  EXPECT_NEAR(totalOf(rep, "mpi_lswo_same"), 0.0, kEps);
  EXPECT_NEAR(totalOf(rep, "mpi_latesender"), 0.5, kEps);
}

TEST(PointToPoint, ClockConditionViolationsAreCounted) {
  const auto n = static_cast<trace::Rank>(worldSize());
  TraceBuilder b(n);
  beginFrame(b);
  b.rank(1).send(2.0, 2.01, 0, 8, 0);
  b.rank(0).recv(1.0, 1.5, 1, 8, 0);  // completes before the send starts
  endFrame(b);
  analyzer::AnalysisOptions recorded;
  recorded.timeCorrection = false;
  const report::Report rep = analyzeBuilt(b, recorded);
  if (!isRoot()) return;
  EXPECT_NEAR(valueOf(rep, "clock_violations", "main/MPI_Recv", 0), 1.0, kEps);
  EXPECT_EQ(rep.metaValue("clock_violations"), "1");
  EXPECT_NEAR(totalOf(rep, "mpi_latesender"), 0.5, kEps);  // clipped to the receive
}

TEST(PointToPoint, TimeCategoriesAndVisits) {
  const auto n = static_cast<trace::Rank>(worldSize());
  TraceBuilder b(n);
  beginFrame(b);
  b.rank(0).enter(1.0, "work").leave(3.0, "work");
  endFrame(b);
  const report::Report rep = analyzeBuilt(b);
  if (!isRoot()) return;
  EXPECT_NEAR(valueOf(rep, "comp", "main/work", 0), 2.0, kEps);
  EXPECT_NEAR(valueOf(rep, "visits", "main/work", 0), 1.0, kEps);
  EXPECT_NEAR(valueOf(rep, "mpi_init_exit", "main/MPI_Init", 1), 0.5, kEps);
  EXPECT_NEAR(totalOf(rep, "time", 0), 10.0, kEps);
  EXPECT_NEAR(totalOf(rep, "time"), 10.0 * n, 1e-6);
  EXPECT_NEAR(totalOf(rep, "mpi"), 1.0 * n, 1e-6);
}

TEST(PointToPoint, MessagesToItselfOnCommSelf) {
  const auto n = static_cast<trace::Rank>(worldSize());
  TraceBuilder b(n);
  beginFrame(b);
  for (trace::Rank r = 0; r < n; ++r) {
    const trace::Request req = b.rank(r).irecv(1.0, 1.01, 0, 8, 1, b.self());
    b.rank(r).send(1.5, 1.51, 0, 8, 1, b.self()).wait(1.6, 1.7, req);
  }
  endFrame(b);
  const report::Report rep = analyzeBuilt(b);  // matched, not rejected
  if (!isRoot()) return;
  for (trace::Rank r = 0; r < n; ++r) EXPECT_NEAR(totalOf(rep, "comms_p2p", r), 2.0, kEps);
  EXPECT_NEAR(totalOf(rep, "mpi_latesender"), 0.0, kEps);
}

TEST(PointToPoint, AReceiveWithoutSendIsRejected) {
  const auto n = static_cast<trace::Rank>(worldSize());
  TraceBuilder b(n);
  beginFrame(b);
  b.rank(0).recv(1.0, 1.5, 1, 8, 9);
  endFrame(b);
  const std::string error = analysisError(b);
  EXPECT_NE(error.find("rank 0"), std::string::npos) << error;
  EXPECT_NE(error.find("no matching send"), std::string::npos) << error;
  EXPECT_NE(error.find("1.000000000 s"), std::string::npos) << error;
}

TEST(PointToPoint, ASendWithoutReceiveIsRejected) {
  const auto n = static_cast<trace::Rank>(worldSize());
  TraceBuilder b(n);
  beginFrame(b);
  b.rank(1).send(1.0, 1.5, 0, 8, 9);
  endFrame(b);
  const std::string error = analysisError(b);
  EXPECT_NE(error.find("rank 1: send to rank 0"), std::string::npos) << error;
  EXPECT_NE(error.find("no matching receive"), std::string::npos) << error;
}

}  // namespace
}  // namespace waitscope::test
