// CallIndex: the call around each communication event, and the MPI environment
// calls (MPI_Init, MPI_Finalize) the same pass lists for the patterns and causes.
#include <gtest/gtest.h>

#include "replay/call_index.h"
#include "trace/trace_builder.h"

using waitscope::replay::Call;
using waitscope::replay::CallIndex;
using waitscope::trace::EventKind;
using waitscope::trace::TraceBuilder;

namespace {

std::string regionOf(const waitscope::trace::Trace& t, const Call& call) {
  return t.defs.regions[t.callTree[call.path].region].name;
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
  const Call* call = index.callOfEntry(0);
  ASSERT_NE(call, nullptr);
  EXPECT_EQ(call, index.callOf(send));
  EXPECT_EQ(call, index.callById(index.callIdOfEntry(0)));
  EXPECT_EQ(regionOf(t, *call), "MPI_Send");
  EXPECT_EQ(call->enter, 1.0);
  EXPECT_EQ(call->leave, 1.5);
  EXPECT_EQ(index.callOf(call->enterEvent), nullptr);  // an enter has no call around it in the index

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
  EXPECT_TRUE(CallIndex::left(index.initCalls()[0]));
}
