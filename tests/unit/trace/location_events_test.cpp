// LocationEvents: the message side tables, full records and request-only ones.
#include <gtest/gtest.h>

#include <cstdint>

#include "analysis/trace/event_kind.h"
#include "analysis/trace/events.h"
#include "analysis/trace/ids.h"

using waitscope::trace::EventKind;
using waitscope::trace::kNone;
using waitscope::trace::LocationEvents;
using waitscope::trace::MessageRecord;

TEST(LocationEvents, RequestOnlyRecordsKeepTheirRequestInTheirOwnTable) {
  LocationEvents ev;
  ev.addMessage(EventKind::MpiIsend, 1.0, {3, 7, 42, 128, 11});
  // A request-only kind keeps only the request id, whatever else the record says.
  ev.addMessage(EventKind::MpiIrecvRequest, 2.0, {5, 7, 9, 64, 12});
  ev.addMessage(EventKind::MpiIsendComplete, 3.0, {kNone, kNone, 0, 0, 11});
  ev.addMessage(EventKind::MpiIrecv, 4.0, {5, 7, 9, 64, 12});
  ev.addMessage(EventKind::MpiRequestTest, 5.0, {kNone, kNone, 0, 0, 13});
  ev.addMessage(EventKind::MpiRequestCancelled, 6.0, {kNone, kNone, 0, 0, 13});
  ASSERT_EQ(ev.events.size(), 6u);
  EXPECT_EQ(ev.messages.records.size(), 2u);
  EXPECT_EQ(ev.messages.requests.size(), 4u);
  EXPECT_EQ(ev.messages.size(), 6u);  // one payload per message event

  const MessageRecord isend = ev.message(ev.events[0]);
  EXPECT_EQ(isend.peer, 3u);
  EXPECT_EQ(isend.comm, 7u);
  EXPECT_EQ(isend.tag, 42u);
  EXPECT_EQ(isend.bytes, 128u);
  EXPECT_EQ(isend.request, 11u);
  const MessageRecord irecv = ev.message(ev.events[3]);
  EXPECT_EQ(irecv.peer, 5u);
  EXPECT_EQ(irecv.bytes, 64u);
  EXPECT_EQ(irecv.request, 12u);

  const std::uint64_t requests[] = {0, 12, 11, 0, 13, 13};
  for (const std::size_t i : {1u, 2u, 4u, 5u}) {
    const MessageRecord m = ev.message(ev.events[i]);
    EXPECT_EQ(m.request, requests[i]) << i;
    EXPECT_EQ(m.peer, kNone) << i;
    EXPECT_EQ(m.comm, kNone) << i;
    EXPECT_EQ(m.tag, 0u) << i;
    EXPECT_EQ(m.bytes, 0u) << i;
  }
}
