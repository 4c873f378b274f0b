// The places' analysis with exact expected seconds: point-to-point matching (Late Sender, Late
// Receiver, a Waitall's receives together) and collective aggregation over any grouping of
// partials (Wait at Barrier, Barrier Completion, Wait at NxN, Late Broadcast, Early Reduce).
#include <gtest/gtest.h>

#include "analysis/online/collective_aggregation.h"
#include "analysis/online/message_matcher.h"
#include "analysis/online/wait_totals.h"

using namespace waitscope::online;
using waitscope::metrics::Metric;

namespace {

// A point-to-point event of `rank` with `peer` on communicator 7.
Event p2p(EventKind kind, std::uint32_t rank, int peer, int tag, std::uint32_t node) {
  Event e;
  e.kind = kind;
  e.rank = rank;
  e.peer = peer;
  e.tag = tag;
  e.comm = 7;
  e.node = node;
  return e;
}

Event send(std::uint32_t from, int to, double enter, double leave, bool blocking = false, int tag = 0) {
  Event e = p2p(EventKind::Send, from, to, tag, 11);
  e.blocking = blocking;
  e.t0 = enter;
  e.t1 = leave;
  return e;
}

Event recv(std::uint32_t at, int from, double post, double enter, double leave, std::uint32_t group = 1,
           std::uint64_t call = 0, int tag = 0) {
  Event e = p2p(EventKind::Recv, at, from, tag, 22);
  e.group = group;
  e.seq = call;
  e.t0 = post;
  e.t1 = enter;
  e.t2 = leave;
  return e;
}

Event collective(std::uint32_t rank, CollectiveKind kind, double enter, double leave, int root = -1,
                 std::uint32_t size = 4) {
  Event e;
  e.kind = EventKind::Collective;
  e.collective = kind;
  e.rank = rank;
  e.node = 30 + rank;
  e.comm = 5;
  e.seq = 1;
  e.tag = static_cast<std::int32_t>(size);
  e.peer = root;
  e.t0 = enter;
  e.t1 = leave;
  return e;
}

double valueOf(const WaitTotals& t, Metric m, std::uint32_t rank) {
  double v = 0;
  for (const MetricValue& x : t.values())
    if (x.metric == static_cast<std::uint32_t>(m) && x.rank == rank) v += x.value;
  return v;
}

}  // namespace

TEST(MessageMatcher, LateSenderInEitherArrivalOrder) {
  WaitTotals totals;
  MessageMatcher m(totals);
  m.receive(recv(1, 0, 1.0, 1.0, 4.0));  // waits from 1.0 ...
  EXPECT_EQ(m.entries(), 1u);
  m.send(send(0, 1, 3.0, 3.1));          // ... until the send starts at 3.0
  EXPECT_EQ(m.entries(), 0u);
  m.send(send(0, 1, 5.0, 5.1));
  m.receive(recv(1, 0, 6.0, 6.0, 6.5));  // sender was early: no wait
  EXPECT_DOUBLE_EQ(valueOf(totals, Metric::MpiLateSender, 1), 2.0);
  EXPECT_DOUBLE_EQ(valueOf(totals, Metric::MpiLateReceiver, 0), 0.0);
}

TEST(MessageMatcher, LateSenderEndsWhenTheCallLeaves) {
  WaitTotals totals;
  MessageMatcher m(totals);
  m.send(send(0, 1, 9.0, 9.1));
  m.receive(recv(1, 0, 1.0, 2.0, 3.5));  // an MPI_Wait from 2.0 to 3.5 (clock skew: send "at 9")
  EXPECT_DOUBLE_EQ(valueOf(totals, Metric::MpiLateSender, 1), 1.5);
}

TEST(MessageMatcher, LateReceiverOnlyForBlockingSends) {
  WaitTotals totals;
  MessageMatcher m(totals);
  m.send(send(0, 1, 1.0, 4.0, true));   // MPI_Ssend waiting from 1.0 ...
  m.receive(recv(1, 0, 3.0, 3.0, 4.0)); // ... until the receive is posted at 3.0
  m.send(send(0, 1, 5.0, 8.0, false));  // MPI_Isend: never a Late Receiver
  m.receive(recv(1, 0, 7.0, 7.0, 7.1));
  EXPECT_DOUBLE_EQ(valueOf(totals, Metric::MpiLateReceiver, 0), 2.0);
}

TEST(MessageMatcher, EnvelopesMatchInOrderPerSourceAndTag) {
  WaitTotals totals;
  MessageMatcher m(totals);
  m.send(send(0, 2, 1.0, 1.1, false, 5));
  m.send(send(0, 2, 4.0, 4.1, false, 5));
  m.send(send(1, 2, 8.0, 8.1, false, 5));
  EXPECT_EQ(m.entries(), 3u);
  m.receive(recv(2, 1, 2.0, 2.0, 9.0, 1, 0, 5));  // from rank 1: waits 2.0 -> 8.0
  m.receive(recv(2, 0, 3.0, 3.0, 3.5, 1, 0, 5));  // first message of rank 0 (sent at 1.0): no wait
  m.receive(recv(2, 0, 3.5, 3.5, 4.5, 1, 0, 5));  // second (sent at 4.0): 0.5
  EXPECT_EQ(m.entries(), 0u);
  EXPECT_DOUBLE_EQ(valueOf(totals, Metric::MpiLateSender, 2), 6.5);
}

TEST(MessageMatcher, WaitallReceivesWaitTogetherForTheLatestSender) {
  WaitTotals totals;
  MessageMatcher m(totals);
  // one MPI_Waitall (enter 1.0, leave 6.0) completes receives from ranks 0 and 2
  m.receive(recv(1, 0, 0.5, 1.0, 6.0, 2, 42));
  m.receive(recv(1, 2, 0.5, 1.0, 6.0, 2, 42));
  m.send(send(0, 1, 3.0, 3.1));
  EXPECT_DOUBLE_EQ(valueOf(totals, Metric::MpiLateSender, 1), 0.0);  // waits for the other one too
  EXPECT_EQ(m.entries(), 2u);  // one unmatched receive and the open call
  m.send(send(2, 1, 5.0, 5.1));
  EXPECT_DOUBLE_EQ(valueOf(totals, Metric::MpiLateSender, 1), 4.0);  // 1.0 -> 5.0, once
  EXPECT_EQ(m.entries(), 0u);
}

namespace {

// Four members of one instance: partials merged in the grouping `groups` (a tree), then the
// total applied to every member.
WaitTotals aggregate(const std::vector<Event>& members, const std::vector<std::vector<int>>& groups) {
  WaitTotals totals;
  CollectiveTable leaf;
  CollectiveCompletion root;
  for (const Event& e : members) leaf.addMember(e);
  std::vector<Partial> deltas;
  for (const auto& g : groups) {
    Partial p;
    for (const int i : g) mergePartial(p, partialOf(members[static_cast<std::size_t>(i)]));
    deltas.push_back(p);
  }
  Partial total;
  int completed = 0;
  for (const Partial& d : deltas) completed += root.add(d, total) ? 1 : 0;
  EXPECT_EQ(completed, 1);
  EXPECT_EQ(root.entries(), 0u);
  EXPECT_TRUE(leaf.applyResult(total, totals));
  EXPECT_EQ(leaf.takeDeltas().size(), 1u);
  EXPECT_FALSE(leaf.applyResult(total, totals));  // applied once
  return totals;
}

}  // namespace

TEST(CollectiveAggregation, WaitAtBarrierAndCompletionInAnyGrouping) {
  const std::vector<Event> m = {collective(0, CollectiveKind::Barrier, 1.0, 4.5),
                                collective(1, CollectiveKind::Barrier, 2.0, 4.2),
                                collective(2, CollectiveKind::Barrier, 4.0, 4.1),
                                collective(3, CollectiveKind::Barrier, 3.0, 4.3)};
  for (const auto& groups : {std::vector<std::vector<int>>{{0, 1, 2, 3}}, {{0}, {1, 3}, {2}}, {{3}, {2}, {1}, {0}}}) {
    const WaitTotals t = aggregate(m, groups);
    EXPECT_DOUBLE_EQ(valueOf(t, Metric::MpiBarrierWait, 0), 3.0);  // until the last enter, 4.0
    EXPECT_DOUBLE_EQ(valueOf(t, Metric::MpiBarrierWait, 1), 2.0);
    EXPECT_DOUBLE_EQ(valueOf(t, Metric::MpiBarrierWait, 2), 0.0);
    EXPECT_DOUBLE_EQ(valueOf(t, Metric::MpiBarrierWait, 3), 1.0);
    EXPECT_NEAR(valueOf(t, Metric::MpiBarrierCompletion, 0), 0.4, 1e-12);  // after the first leave, 4.1
    EXPECT_NEAR(valueOf(t, Metric::MpiBarrierCompletion, 3), 0.2, 1e-12);
  }
}

TEST(CollectiveAggregation, WaitAtNxN) {
  const std::vector<Event> m = {collective(0, CollectiveKind::NxN, 0.0, 2.0), collective(1, CollectiveKind::NxN, 0.5, 2.0),
                                collective(2, CollectiveKind::NxN, 1.5, 2.0), collective(3, CollectiveKind::NxN, 1.0, 2.0)};
  const WaitTotals t = aggregate(m, {{0, 1}, {2, 3}});
  EXPECT_DOUBLE_EQ(t.total(Metric::MpiWaitNxN), 1.5 + 1.0 + 0.0 + 0.5);
}

TEST(CollectiveAggregation, LateBroadcastAndEarlyReduce) {
  // MPI_Bcast with root 2, which enters at 3.0
  const std::vector<Event> b = {collective(0, CollectiveKind::OneToN, 1.0, 3.5, 2),
                                collective(1, CollectiveKind::OneToN, 2.5, 3.5, 2),
                                collective(2, CollectiveKind::OneToN, 3.0, 3.2, 2),
                                collective(3, CollectiveKind::OneToN, 4.0, 4.5, 2)};
  const WaitTotals tb = aggregate(b, {{0, 3}, {1, 2}});
  EXPECT_DOUBLE_EQ(valueOf(tb, Metric::MpiLateBroadcast, 0), 2.0);
  EXPECT_DOUBLE_EQ(valueOf(tb, Metric::MpiLateBroadcast, 1), 0.5);
  EXPECT_DOUBLE_EQ(valueOf(tb, Metric::MpiLateBroadcast, 2), 0.0);  // the root does not wait for itself
  EXPECT_DOUBLE_EQ(valueOf(tb, Metric::MpiLateBroadcast, 3), 0.0);
  // MPI_Reduce with root 0 entering at 1.0; the latest sender (rank 2) enters at 5.0. Scalasca's
  // Early Reduce: the root waits for the latest sender, 5.0 - 1.0 = 4.0 (not for the first, 2.5).
  const std::vector<Event> r = {collective(0, CollectiveKind::NToOne, 1.0, 6.0, 0),
                                collective(1, CollectiveKind::NToOne, 2.5, 2.6, 0),
                                collective(2, CollectiveKind::NToOne, 5.0, 5.1, 0),
                                collective(3, CollectiveKind::NToOne, 3.0, 3.1, 0)};
  const WaitTotals tr = aggregate(r, {{0}, {1, 2, 3}});
  EXPECT_DOUBLE_EQ(valueOf(tr, Metric::MpiEarlyReduce, 0), 4.0);
  EXPECT_DOUBLE_EQ(tr.total(Metric::MpiEarlyReduce), 4.0);
}

TEST(WaitTotals, TakeEmptiesAndSumsPerKey) {
  WaitTotals t;
  t.add(Metric::MpiLateSender, 1, 4, 0.25);
  t.add(Metric::MpiLateSender, 1, 4, 0.5);
  t.add(Metric::MpiLateSender, 2, 4, 1.0);
  t.add(Metric::MpiLateSender, 2, 4, 0.0);
  EXPECT_EQ(t.values().size(), 2u);
  EXPECT_DOUBLE_EQ(valueOf(t, Metric::MpiLateSender, 1), 0.75);
  EXPECT_EQ(t.take().size(), 2u);
  EXPECT_TRUE(t.empty());
}
