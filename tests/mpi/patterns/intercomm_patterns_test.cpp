// Point-to-point over an inter-communicator, with exact values, at any rank count N >= 2: the
// peer of a message is a rank of the other group (MPI_Intercomm_create), matched like messages
// over an intra-communicator. Collectives on the inter-communicator are not analyzed; those on
// the merged communicator (MPI_Intercomm_merge) are.
#include <gtest/gtest.h>
#include <mpi.h>
#include <stdlib.h>

#include <filesystem>
#include <string>
#include <vector>

#include "tests/mpi/patterns/scenario.h"

namespace waitscope::test {
namespace {

using trace::Rank;
using trace::TraceBuilder;
constexpr double kEps = 1e-9;

// The low half {0 .. h-1} and the high half {h .. N-1}, h = N / 2.
struct Halves {
  std::vector<Rank> low, high;
  Halves() {
    for (Rank r = 0; r < size(); ++r) (r < size() / 2 ? low : high).push_back(r);
  }
};

// High rank j (local rank j of the high half) receives from low rank j % |low|, which sends at
// 1 + 0.1 (j + 1): Late Sender 0.1 (j + 1) on world rank high[j]. Then high rank 0 sends
// synchronously to low rank 0, which posts its receive 0.3 late: Late Receiver 0.3 on high[0].
// Then a barrier on the inter-communicator with staggered enters (not analyzed) and one on the
// merged communicator, rank r entering at 5 + 0.1 r: Wait at Barrier 0.1 (N - 1 - r).
void build(TraceBuilder& b) {
  const Halves h;
  const auto nLow = static_cast<Rank>(h.low.size());
  const trace::CommId inter = b.defineInterComm("MPI_Intercomm_create", h.low, h.high);
  beginFrame(b);
  double sendAt = 1.0;
  for (Rank j = 0; j < h.high.size(); ++j) {
    sendAt = 1.0 + 0.1 * (j + 1);
    b.rank(h.low[j % nLow]).send(sendAt, sendAt + 0.01, j, 64, 5, inter);
  }
  for (Rank j = 0; j < h.high.size(); ++j) b.rank(h.high[j]).recv(1.0, 1.0 + 0.1 * (j + 1) + 0.02, j % nLow, 64, 5, inter);
  b.rank(h.high[0]).ssend(3.0, 3.5, 0, 8, 6, inter);
  b.rank(h.low[0]).recv(3.3, 3.5, 0, 8, 6, inter);
  for (Rank r = 0; r < size(); ++r) b.rank(r).barrier(4.0 + 0.1 * r, 4.0 + 0.1 * size(), inter);
  std::vector<Rank> all;
  for (Rank r = 0; r < size(); ++r) all.push_back(r);
  const trace::CommId merged = b.defineComm("MPI_Intercomm_merge", all, trace::kNone);
  for (Rank r = 0; r < size(); ++r) b.rank(r).barrier(5.0 + 0.1 * r, 5.0 + 0.1 * size(), merged);
  endFrame(b);
}

void expectWaits(const report::Report& rep) {
  const Halves h;
  double lateSender = 0;
  for (Rank j = 0; j < h.high.size(); ++j) {
    EXPECT_NEAR(valueOf(rep, "mpi_latesender", "main/MPI_Recv", h.high[j]), 0.1 * (j + 1), kEps) << "rank " << h.high[j];
    lateSender += 0.1 * (j + 1);
  }
  EXPECT_NEAR(valueOf(rep, "mpi_latesender", "main/MPI_Recv", h.low[0]), 0.0, kEps);
  EXPECT_NEAR(totalOf(rep, "mpi_latesender"), lateSender, kEps);
  EXPECT_NEAR(valueOf(rep, "mpi_latereceiver", "main/MPI_Ssend", h.high[0]), 0.3, kEps);
  EXPECT_NEAR(totalOf(rep, "mpi_latereceiver"), 0.3, kEps);
  double barrier = 0;
  for (Rank r = 0; r < size(); ++r) barrier += 0.1 * (size() - 1 - r);
  EXPECT_NEAR(totalOf(rep, "mpi_barrier_wait"), barrier, kEps);  // the merged communicator's only
  EXPECT_NEAR(valueOf(rep, "mpi_barrier_wait", "main/MPI_Barrier", 0), 0.1 * (size() - 1), kEps);
}

TEST(InterComm, MessagesMatchAcrossTheGroups) {
  TraceBuilder b(size());
  build(b);
  const report::Report rep = analyzeBuilt(b);
  if (!isRoot()) return;
  expectWaits(rep);
}

// The same through an OTF2 archive: InterComm definitions are written and read back.
TEST(InterComm, MessagesMatchAfterAnOtf2RoundTrip) {
  std::string name = (std::filesystem::temp_directory_path() / "waitscope-intercomm-XXXXXX").string();
  if (isRoot() && mkdtemp(name.data()) == nullptr) name.clear();
  int length = static_cast<int>(name.size());
  MPI_Bcast(&length, 1, MPI_INT, 0, MPI_COMM_WORLD);
  name.resize(static_cast<std::size_t>(length));
  MPI_Bcast(name.data(), length, MPI_CHAR, 0, MPI_COMM_WORLD);
  ASSERT_FALSE(name.empty());
  if (isRoot()) {
    TraceBuilder b(size());
    build(b);
    b.write(name);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  const report::Report rep = analyzeFile((std::filesystem::path(name) / "traces.otf2").string());
  MPI_Barrier(MPI_COMM_WORLD);
  if (!isRoot()) return;
  std::filesystem::remove_all(name);
  expectWaits(rep);
}

// A message to a rank the other group does not have is refused, like one outside an
// intra-communicator.
TEST(InterComm, APeerOutsideTheRemoteGroupIsRejected) {
  const Halves h;
  TraceBuilder b(size());
  const trace::CommId inter = b.defineInterComm("MPI_Intercomm_create", h.low, h.high);
  beginFrame(b);
  trace::MessageRecord m{static_cast<Rank>(h.high.size()), inter, 0, 8, 0};
  b.rank(h.low[0]).enter(1.0, "MPI_Send").event(trace::EventKind::MpiSend, 1.0, m).leave(1.1, "MPI_Send");
  endFrame(b);
  const std::string error = analysisError(b);
  EXPECT_NE(error.find("names a peer outside its communicator"), std::string::npos) << error;
}

}  // namespace
}  // namespace waitscope::test
