#pragma once
// Per-location event storage: one 16-byte record per event in time order, and
// side tables for the payload of the (comparatively rare) communication events.
// Region enter/leave, the bulk of every trace, need no side table. The events
// are reserved from the location's definition; how many of them are messages is
// known only once they are read, so the side tables grow in chunks (a vector's
// doubling would hold up to three times a message-heavy trace's table).
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
  ChunkedVector<MessageRecord> messages;
  ChunkedVector<CollectiveRecord> collectives;
  ChunkedVector<RmaRecord> rma;

  const MessageRecord& message(const Event& e) const { return messages[e.ref]; }
  const CollectiveRecord& collective(const Event& e) const { return collectives[e.ref]; }
  const RmaRecord& rmaRecord(const Event& e) const { return rma[e.ref]; }

  void addRegion(EventKind kind, double time, CallPathId path) { events.push_back({time, kind, path}); }
  void addMessage(EventKind kind, double time, const MessageRecord& r) {
    events.push_back({time, kind, static_cast<std::uint32_t>(messages.size())});
    messages.push_back(r);
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

  // Bytes held by this location's arrays (capacity, as resident memory counts it).
  std::size_t memoryBytes() const {
    return events.capacity() * sizeof(Event) + messages.capacity() * sizeof(MessageRecord) +
           collectives.capacity() * sizeof(CollectiveRecord) + rma.capacity() * sizeof(RmaRecord);
  }
};

}  // namespace waitscope::trace
