#pragma once
// The kinds of events the trace model keeps: one per OTF2 event record the
// analysis understands (the MPI and RMA records of OTF2 3, plus region enter/leave).
#include <array>
#include <cstdint>
#include <string_view>

namespace waitscope::trace {

enum class EventKind : std::uint8_t {
  Enter,
  Leave,
  MpiSend,
  MpiIsend,
  MpiIsendComplete,
  MpiIrecvRequest,
  MpiRecv,
  MpiIrecv,
  MpiRequestTest,
  MpiRequestCancelled,
  MpiCollectiveBegin,
  MpiCollectiveEnd,
  RmaWinCreate,
  RmaWinDestroy,
  RmaCollectiveBegin,
  RmaCollectiveEnd,
  RmaGroupSync,
  RmaRequestLock,
  RmaAcquireLock,
  RmaTryLock,
  RmaReleaseLock,
  RmaSync,
  RmaWaitChange,
  RmaPut,
  RmaGet,
  RmaAtomic,
  RmaOpCompleteBlocking,
  RmaOpCompleteNonBlocking,
  RmaOpTest,
  RmaOpCompleteRemote,
};

inline constexpr std::size_t kEventKindCount = static_cast<std::size_t>(EventKind::RmaOpCompleteRemote) + 1;

// Stable snake_case names, used in `waitscope-report stats --json` and in docs.
inline constexpr std::array<std::string_view, kEventKindCount> kEventKindNames = {
    "enter",
    "leave",
    "send",
    "isend",
    "isend_complete",
    "irecv_request",
    "recv",
    "irecv",
    "request_test",
    "request_cancelled",
    "collective_begin",
    "collective_end",
    "rma_win_create",
    "rma_win_destroy",
    "rma_collective_begin",
    "rma_collective_end",
    "rma_group_sync",
    "rma_request_lock",
    "rma_acquire_lock",
    "rma_try_lock",
    "rma_release_lock",
    "rma_sync",
    "rma_wait_change",
    "rma_put",
    "rma_get",
    "rma_atomic",
    "rma_op_complete_blocking",
    "rma_op_complete_non_blocking",
    "rma_op_test",
    "rma_op_complete_remote",
};

constexpr std::string_view name(EventKind kind) { return kEventKindNames[static_cast<std::size_t>(kind)]; }
constexpr std::size_t index(EventKind kind) { return static_cast<std::size_t>(kind); }

// Which side table of LocationEvents holds an event's payload.
enum class PayloadFamily : std::uint8_t { None, Region, Message, Collective, Rma };

constexpr PayloadFamily payloadFamily(EventKind kind) {
  switch (kind) {
    case EventKind::Enter:
    case EventKind::Leave:
      return PayloadFamily::Region;
    case EventKind::MpiSend:
    case EventKind::MpiIsend:
    case EventKind::MpiIsendComplete:
    case EventKind::MpiIrecvRequest:
    case EventKind::MpiRecv:
    case EventKind::MpiIrecv:
    case EventKind::MpiRequestTest:
    case EventKind::MpiRequestCancelled:
      return PayloadFamily::Message;
    case EventKind::MpiCollectiveBegin:
    case EventKind::RmaCollectiveBegin:
      return PayloadFamily::None;
    case EventKind::MpiCollectiveEnd:
    case EventKind::RmaCollectiveEnd:
      return PayloadFamily::Collective;
    default:
      return PayloadFamily::Rma;
  }
}

}  // namespace waitscope::trace
