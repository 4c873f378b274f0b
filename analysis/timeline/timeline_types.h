#pragma once
// The items a timeline draws, as stored in the timeline index and as returned
// by a slice query. Plain, padding-free records (the index file holds them
// byte for byte); times are seconds as in the trace and the report; location
// ids are indices into Report::locations (= MPI_COMM_WORLD ranks), call paths
// and metrics are the report's.
#include <cstdint>
#include <limits>
#include <string_view>

namespace waitscope::timeline {

inline constexpr std::uint32_t kNoId = std::numeric_limits<std::uint32_t>::max();
// A region interval whose call path the report does not know (drawn as "MPI other").
inline constexpr std::uint32_t kUnknownCallPath = kNoId - 1;

// What a region's colour says (Vampir's function groups).
enum class RegionGroup : std::uint8_t {
  UserCode,
  MpiPointToPoint,
  MpiCollective,
  RmaSynchronization,
  RmaCommunication,
  MpiOther,
};
inline constexpr std::size_t kRegionGroupCount = 6;
constexpr std::string_view name(RegionGroup g) {
  constexpr std::string_view names[] = {"user", "mpi_p2p", "mpi_collective", "rma_sync", "rma_comm", "mpi_other"};
  return names[static_cast<std::size_t>(g)];
}

// One boundary of a location's region sequence: from `start` to the next
// point's start the innermost region is `callPath` (kNoId: outside any region).
// `merged` counts the original intervals this one stands for (1 = exact).
struct RegionPoint {
  double start = 0.0;
  std::uint32_t callPath = kNoId;
  std::uint32_t merged = 1;
};
static_assert(sizeof(RegionPoint) == 16);

// A region interval of a slice: exact (merged == 1 and at least a pixel wide,
// or alone in its pixel) or the dominant call path of merged short intervals.
struct RegionSpan {
  double start = 0.0;
  double end = 0.0;
  std::uint32_t callPath = kNoId;
  std::uint32_t merged = 1;
  RegionGroup group = RegionGroup::UserCode;
  std::uint8_t pad[7] = {};
};
static_assert(sizeof(RegionSpan) == 32);

// A point-to-point message: start = send record time, end = receive record time.
struct Message {
  double start = 0.0;
  double end = 0.0;
  std::uint32_t sender = kNoId;
  std::uint32_t receiver = kNoId;
  std::uint32_t tag = 0;
  std::uint32_t comm = kNoId;
  std::uint64_t bytes = 0;
  std::uint32_t count = 1;  // messages merged into this line (same peer, same pixel)
  std::uint32_t pad = 0;
};
static_assert(sizeof(Message) == 48);

// An MPI collective call on one location (COLLECTIVE_BEGIN to _END).
struct Collective {
  double start = 0.0;
  double end = 0.0;
  std::uint32_t comm = kNoId;
  std::uint32_t root = kNoId;      // rank in comm, kNoId if none
  std::uint64_t sequence = 0;      // n-th collective of this location on comm (0-based): the same n is one operation
  std::uint64_t bytes = 0;         // sent + received
  std::uint8_t op = 0;             // trace::CollectiveOp
  std::uint8_t pad[3] = {};
  std::uint32_t count = 1;
};
static_assert(sizeof(Collective) == 48);

enum class EpochKind : std::uint8_t { Fence, Access, Exposure, Lock, LockAll };
constexpr std::string_view name(EpochKind k) {
  constexpr std::string_view names[] = {"fence", "access", "exposure", "lock", "lock_all"};
  return names[static_cast<std::size_t>(k)];
}

// An RMA epoch on one location: from the enter of the opening call to the leave
// of the closing call (docs/timeline.md).
struct Epoch {
  double start = 0.0;
  double end = 0.0;
  std::uint32_t window = kNoId;
  std::uint32_t peer = kNoId;   // Lock: the target location; otherwise kNoId
  EpochKind kind = EpochKind::Fence;
  std::uint8_t lockType = 0;    // Lock/LockAll: trace::RmaLockType
  std::uint8_t pad[6] = {};
};
static_assert(sizeof(Epoch) == 32);

enum class TransferKind : std::uint8_t { Put, Get, Atomic };
constexpr std::string_view name(TransferKind k) {
  constexpr std::string_view names[] = {"put", "get", "atomic"};
  return names[static_cast<std::size_t>(k)];
}

// An RMA transfer: start = the operation record on the origin, end = its last
// completion record (start when never completed).
struct Transfer {
  double start = 0.0;
  double end = 0.0;
  std::uint32_t origin = kNoId;
  std::uint32_t target = kNoId;
  std::uint32_t window = kNoId;
  TransferKind kind = TransferKind::Put;
  std::uint8_t pad[3] = {};
  std::uint64_t bytes = 0;
  std::uint32_t count = 1;
  std::uint32_t pad2 = 0;
};
static_assert(sizeof(Transfer) == 48);

// A wait-state instance of the report on this location.
struct InstanceMark {
  double start = 0.0;
  double end = 0.0;
  std::uint32_t metric = kNoId;
  std::uint32_t callPath = kNoId;
  std::uint32_t cause = kNoId;
  std::uint32_t count = 1;
};
static_assert(sizeof(InstanceMark) == 32);

// A critical-path segment on this location; `order` is its position on the
// whole path (segments sorted by start), so a view can connect them across rows.
struct PathMark {
  double start = 0.0;
  double end = 0.0;
  std::uint32_t callPath = kNoId;
  std::uint32_t order = 0;
};
static_assert(sizeof(PathMark) == 24);

}  // namespace waitscope::timeline
