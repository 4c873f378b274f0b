// CallIndex: the call around each communication event, with times read from the events,
// the MPI environment calls (MPI_Init, MPI_Finalize) and the time per call path
// the same pass collects for the patterns and causes.
#include <gtest/gtest.h>

#include <optional>

#include "analysis/replay/call_index.h"
#include "tests/support/trace_builder.h"

using waitscope::replay::Call;
using waitscope::replay::CallIndex;
using waitscope::trace::EventKind;
using waitscope::trace::TraceBuilder;

namespace {

std::string regionOf(const waitscope::trace::Trace& t, const Call& call) {
  return t.defs->regions[t.callTree[call.path].region].name;
}

}  // namespace

TEST(CallIndex, ListsCommunicationEventsWithTheirCallAndTheEnvironmentCalls) {
  TraceBuilder b(2);
  b.rank(0).enter(0.0, "main").init(0.1, 0.2).send(1.0, 1.5, 1, 8, 7).finalize(5.0, 6.0).leave(7.0, "main");
  b.rank(1).enter(0.0, "main").init(0.1, 0.3).recv(0.5, 1.6, 0, 8, 7).finalize(5.0, 6.5).leave(7.0, "main");
  const auto& t = b.trace();
  const CallIndex index(t.locations[0], t.callTree, t.defs);

  ASSERT_EQ(index.nonRegionEvents().size(), 1u);
  const std::uint32_t send = index.nonRegionEvents()[0];
  EXPECT_EQ(t.locations[0].events[send].kind, EventKind::MpiSend);
  const std::optional<Call> call = index.callOfEntry(0);
  ASSERT_TRUE(call.has_value());
  EXPECT_EQ(call, index.callOf(send));
  ASSERT_EQ(index.callCount(), 1u);
  EXPECT_EQ(index.callIdOfEntry(0), 0u);
  EXPECT_EQ(index.callIdOf(send), 0u);
  EXPECT_EQ(call, index.callById(0));
  EXPECT_EQ(regionOf(t, *call), "MPI_Send");
  EXPECT_EQ(call->enter, 1.0);
  EXPECT_EQ(call->leave, 1.5);
  EXPECT_EQ(t.locations[0].events[call->enterEvent].kind, EventKind::Enter);
  EXPECT_EQ(t.locations[0].events[call->leaveEvent].kind, EventKind::Leave);
  EXPECT_EQ(call->leaveEvent, send + 1);
  // An enter has no call around it in the index.
  EXPECT_FALSE(index.callOf(call->enterEvent).has_value());
  EXPECT_EQ(index.callIdOf(call->enterEvent), waitscope::trace::kNone);
  EXPECT_FALSE(index.callById(waitscope::trace::kNone).has_value());

  ASSERT_EQ(index.initCalls().size(), 1u);
  EXPECT_EQ(regionOf(t, index.initCalls()[0]), "MPI_Init");
  EXPECT_EQ(index.initCalls()[0].enter, 0.1);
  EXPECT_EQ(index.initCalls()[0].leave, 0.2);
  EXPECT_TRUE(CallIndex::left(index.initCalls()[0]));
  ASSERT_EQ(index.finalizeCalls().size(), 1u);
  EXPECT_EQ(regionOf(t, index.finalizeCalls()[0]), "MPI_Finalize");
  EXPECT_EQ(index.finalizeCalls()[0].enter, 5.0);
  EXPECT_EQ(index.finalizeCalls()[0].leave, 6.0);
  EXPECT_EQ(t.locations[0].events[index.finalizeCalls()[0].leaveEvent].kind, EventKind::Leave);
}

TEST(CallIndex, AnEnvironmentCallTheTraceNeverLeavesIsListedAsNotLeft) {
  TraceBuilder b(1);
  b.rank(0).enter(0.0, "main").init(0.1, 0.2).enter(5.0, "MPI_Finalize");  // the run was killed in it
  const auto& t = b.trace();
  const CallIndex index(t.locations[0], t.callTree, t.defs);
  ASSERT_EQ(index.finalizeCalls().size(), 1u);
  EXPECT_FALSE(CallIndex::left(index.finalizeCalls()[0]));
  EXPECT_EQ(index.finalizeCalls()[0].enter, 5.0);
  EXPECT_EQ(index.finalizeCalls()[0].leave, 5.0);  // its enter stands for the leave it never had
  EXPECT_TRUE(CallIndex::left(index.initCalls()[0]));
}

TEST(CallIndex, ListsEveryCommunicationEventWithItsCall) {
  TraceBuilder b(2);
  b.rank(0).enter(0.0, "main").send(1.0, 1.5, 1, 8, 7).send(2.0, 2.5, 1, 16, 7).leave(3.0, "main");
  b.rank(1).enter(0.0, "main").recv(0.5, 1.6, 0, 8, 7).recv(1.7, 2.6, 0, 16, 7).leave(3.0, "main");
  const auto& t = b.trace();
  const auto& events = t.locations[1].events;
  const CallIndex index(t.locations[1], t.callTree, t.defs);

  ASSERT_EQ(index.nonRegionEvents().size(), 2u);
  const double enters[] = {0.5, 1.7}, completions[] = {1.6, 2.6};
  for (std::size_t k = 0; k < 2; ++k) {
    EXPECT_EQ(&index.nonRegionEvent(k), &events[index.nonRegionEvents()[k]]);
    EXPECT_EQ(index.nonRegionEvent(k).kind, EventKind::MpiRecv);
    EXPECT_EQ(index.nonRegionEvent(k).time, completions[k]);
    const std::optional<Call> call = index.callOfEntry(k);
    ASSERT_TRUE(call.has_value());
    EXPECT_EQ(call->enter, enters[k]);
    EXPECT_EQ(call->leave, completions[k]);  // a receive is written at its call's leave
    EXPECT_EQ(call, index.callOf(index.nonRegionEvents()[k]));
  }
  EXPECT_EQ(t.locations[1].message(index.nonRegionEvent(1)).bytes, 16u);
}

// A clock correction moves the events' times in place: the calls read the new
// times, and retime() sums the region times again.
TEST(CallIndex, CallsFollowTheEventsAfterTheirTimesMove) {
  TraceBuilder b(2);
  b.rank(0).enter(0.0, "main").init(0.1, 0.2).send(1.0, 1.5, 1, 8, 7).finalize(5.0, 6.0).leave(7.0, "main");
  b.rank(1).enter(0.0, "main").init(0.1, 0.3).recv(0.5, 1.6, 0, 8, 7).finalize(5.0, 6.5).leave(7.0, "main");
  waitscope::trace::Trace t = b.trace();
  auto& location = t.locations[0];
  CallIndex index(location, t.callTree, t.defs);
  for (auto& e : location.events) e.time *= 2.0;  // keeps their order, and exact
  index.retime(location, t.callTree);

  const std::optional<Call> call = index.callOfEntry(0);
  ASSERT_TRUE(call.has_value());
  EXPECT_EQ(call->enter, 2.0);
  EXPECT_EQ(call->leave, 3.0);
  EXPECT_EQ(call, index.callOf(index.nonRegionEvents()[0]));
  EXPECT_EQ(index.initCalls()[0].enter, 0.2);
  EXPECT_EQ(index.initCalls()[0].leave, 0.4);
  EXPECT_EQ(index.finalizeCalls()[0].enter, 10.0);
  EXPECT_EQ(index.finalizeCalls()[0].leave, 12.0);
  std::uint32_t main = 0;
  while (t.defs->regions[t.callTree[main].region].name != "main") ++main;
  EXPECT_EQ(index.regionTimes().visits[main], 1.0);
  // main 0-14 s minus MPI_Init (0.2 s), MPI_Send (1 s) and MPI_Finalize (2 s).
  EXPECT_NEAR(index.regionTimes().exclusive[main], 14.0 - 0.2 - 1.0 - 2.0, 1e-12);
}

// The time metrics' sums come from the same pass: main 0-10 s calls foo twice
// (1-3 s and 4-5 s), and foo calls bar once (1.5-2 s).
TEST(CallIndex, SumsVisitsExclusiveTimeAndStretchesPerCallPath) {
  TraceBuilder b(1);
  b.rank(0)
      .enter(0.0, "main")
      .enter(1.0, "foo")
      .enter(1.5, "bar")
      .leave(2.0, "bar")
      .leave(3.0, "foo")
      .enter(4.0, "foo")
      .leave(5.0, "foo")
      .leave(10.0, "main");
  const auto& t = b.trace();
  const CallIndex index(t.locations[0], t.callTree, t.defs);
  const auto& times = index.regionTimes();

  auto pathOf = [&](const std::string& region) {
    for (std::uint32_t p = 0; p < t.callTree.size(); ++p)
      if (t.defs->regions[t.callTree[p].region].name == region) return p;
    ADD_FAILURE() << "no call path for " << region;
    return 0u;
  };
  const std::uint32_t main = pathOf("main"), foo = pathOf("foo"), bar = pathOf("bar");
  ASSERT_EQ(times.visits.size(), t.callTree.size());
  EXPECT_EQ(times.visits[main], 1.0);
  EXPECT_EQ(times.visits[foo], 2.0);
  EXPECT_EQ(times.visits[bar], 1.0);
  EXPECT_DOUBLE_EQ(times.exclusive[main], 7.0);  // 10 s minus foo's 3 s
  EXPECT_DOUBLE_EQ(times.exclusive[foo], 2.5);   // 2 s + 1 s minus bar's 0.5 s
  EXPECT_DOUBLE_EQ(times.exclusive[bar], 0.5);
  EXPECT_DOUBLE_EQ(times.stretches[main], 7.0);
  EXPECT_DOUBLE_EQ(times.stretches[foo], 2.5);
  EXPECT_DOUBLE_EQ(times.stretches[bar], 0.5);
}
