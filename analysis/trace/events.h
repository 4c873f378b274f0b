#pragma once
// Per-location event storage: one 16-byte record per event in time order, and
// side tables for the payload of the (comparatively rare) communication events.
// Region enter/leave, the bulk of every trace, need no side table. The events
// are reserved from the location's definition; how many of them are messages is
// known only once they are read, so the side tables grow in chunks (a vector's
// doubling would hold up to three times a message-heavy trace's table).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "analysis/trace/chunked_vector.h"
#include "analysis/trace/event_kind.h"
#include "analysis/trace/ids.h"

namespace waitscope::trace {

struct Event {
  double time;           // seconds since the trace's global offset
  EventKind kind;
  std::uint32_t ref;     // Enter/Leave: call path; others: index into the payload table of its family
};
static_assert(sizeof(Event) == 16, "events must stay compact");

// Point-to-point records (send, isend, recv, irecv and the request records).
struct MessageRecord {
  Rank peer = kNone;        // receiver for sends, sender for receives; rank in `comm`
  CommId comm = kNone;
  std::uint32_t tag = 0;
  std::uint64_t bytes = 0;
  std::uint64_t request = 0;  // request id for the non-blocking kinds, 0 otherwise
};

// The message records that carry nothing but a request id (MPI_Isend complete, MPI_Irecv
// request, request test and cancel): about half the point-to-point records of a program that
// uses non-blocking calls, so they take 8 bytes in a table of their own, not a MessageRecord.
constexpr bool requestOnly(EventKind kind) {
  return kind == EventKind::MpiIsendComplete || kind == EventKind::MpiIrecvRequest ||
         kind == EventKind::MpiRequestTest || kind == EventKind::MpiRequestCancelled;
}

// The point-to-point payloads: full records, and the request ids of the request-only ones.
struct MessageTables {
  ChunkedVector<MessageRecord> records;
  ChunkedVector<std::uint64_t> requests;
  // Message-family events of the location.
  std::size_t size() const { return records.size() + requests.size(); }
};

// MPI collective end and RMA collective end (fence, window create/free).
struct CollectiveRecord {
  CollectiveOp op = CollectiveOp::Barrier;
  std::uint8_t syncLevel = 0;  // RmaSyncLevel bits, RMA collectives only
  std::uint32_t object = kNone;  // communicator (MPI) or window (RMA)
  Rank root = kNone;              // rank in the communicator, kNone if none
  std::uint64_t sent = 0;
  std::uint64_t received = 0;
};

// Every other RMA record. Field use by kind:
//   WinCreate/WinDestroy:  win
//   GroupSync:             win, group, syncLevel
//   RequestLock/AcquireLock/TryLock: win, remote, lockId, lockType
//   ReleaseLock:           win, remote, lockId
//   Sync:                  win, remote, syncType (in lockType)
//   WaitChange:            win
//   Put/Get:               win, remote, bytes, matchingId
//   Atomic:                win, remote, atomicType (in lockType), bytes (sent), received, matchingId
//   OpComplete*/OpTest:    win, matchingId
struct RmaRecord {
  WinId win = kNone;
  std::uint32_t remote = kNone;   // rank in the window's communicator, or kNone for "all"
  GroupId group = kNone;
  std::uint8_t syncLevel = 0;     // RmaSyncLevel bits
  std::uint8_t lockType = 0;      // RmaLockType / RmaAtomicType / RmaSyncType by kind
  std::uint64_t lockId = 0;
  std::uint64_t bytes = 0;
  std::uint64_t received = 0;
  std::uint64_t matchingId = 0;
};

// The events of one location. Payload accessors assume the kind's family.
struct LocationEvents {
  LocationId location = kNone;
  std::vector<Event> events;
  MessageTables messages;
  ChunkedVector<CollectiveRecord> collectives;
  ChunkedVector<RmaRecord> rma;

  // A request-only record reads as one with just its request id.
  MessageRecord message(const Event& e) const {
    if (requestOnly(e.kind)) return {kNone, kNone, 0, 0, messages.requests[e.ref]};
    return messages.records[e.ref];
  }
  const CollectiveRecord& collective(const Event& e) const { return collectives[e.ref]; }
  const RmaRecord& rmaRecord(const Event& e) const { return rma[e.ref]; }

  void addRegion(EventKind kind, double time, CallPathId path) { events.push_back({time, kind, path}); }
  // Of a request-only kind (requestOnly()), only r.request is kept.
  void addMessage(EventKind kind, double time, const MessageRecord& r) {
    if (requestOnly(kind)) {
      events.push_back({time, kind, static_cast<std::uint32_t>(messages.requests.size())});
      messages.requests.push_back(r.request);
      return;
    }
    events.push_back({time, kind, static_cast<std::uint32_t>(messages.records.size())});
    messages.records.push_back(r);
  }
  void addCollective(EventKind kind, double time, const CollectiveRecord& r) {
    events.push_back({time, kind, static_cast<std::uint32_t>(collectives.size())});
    collectives.push_back(r);
  }
  void addRma(EventKind kind, double time, const RmaRecord& r) {
    events.push_back({time, kind, static_cast<std::uint32_t>(rma.size())});
    rma.push_back(r);
  }
  void addMarker(EventKind kind, double time) { events.push_back({time, kind, kNone}); }

  // Frees the payload tables, keeping the events (time, kind, call path of enters and leaves):
  // for an analysis whose later phases read only those. Payload accessors must not be used
  // afterwards.
  void releasePayloads() {
    messages = {};
    collectives = {};
    rma = {};
  }
  // Frees the events as well, keeping their number (releasedEvents, counted by
  // Trace::eventCount): for a caller that reads only the analysis' results afterwards.
  void releaseEvents() {
    releasedEvents += events.size();
    events = std::vector<Event>();  // `= {}` would keep the capacity
  }
  std::uint64_t releasedEvents = 0;

  // Bytes held by this location's arrays (capacity, as resident memory counts it).
  std::size_t memoryBytes() const {
    return events.capacity() * sizeof(Event) + messages.records.capacity() * sizeof(MessageRecord) +
           messages.requests.capacity() * sizeof(std::uint64_t) +
           collectives.capacity() * sizeof(CollectiveRecord) + rma.capacity() * sizeof(RmaRecord);
  }
};

}  // namespace waitscope::trace
