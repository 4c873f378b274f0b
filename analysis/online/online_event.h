#pragma once
// What travels in an online run: events from application ranks to their first-layer place, and
// the packets places exchange. Plain structs sent as MPI_BYTE (every process of a run is the
// same build on the same kind of node). Times are seconds on CLOCK_MONOTONIC, like the traces.
#include <cstdint>
#include <type_traits>

namespace waitscope::online {

// Message tags on the tool communicator (a duplicate of the job's MPI_COMM_WORLD).
enum Tag : int {
  kTagEvents = 1,   // application -> first-layer place: an event batch
  kTagTree = 2,     // application -> first-layer place: its call tree (profile record)
  kTagAck = 3,      // place -> application: one batch received (a channel slot is free again)
  kTagControl = 4,  // place -> application: pause / resume
  kTagUp = 5,       // place -> parent place
  kTagDown = 6,     // place -> child place (root direction)
  kTagIntra = 7,    // first-layer place -> first-layer place (intralayer direction)
};

enum class EventKind : std::uint8_t { Send, Recv, Collective, Finish };
// The collective families the online analysis knows (as in the trace analysis).
enum class CollectiveKind : std::uint8_t { Barrier, NxN, OneToN, NToOne, Other };

struct Event {
  EventKind kind = EventKind::Send;
  CollectiveKind collective = CollectiveKind::Other;
  std::uint8_t blocking = 0;   // Send: MPI_Send/Ssend/Rsend (a Late Receiver candidate)
  std::uint8_t pad = 0;
  std::uint32_t group = 1;     // Recv: receives completed by the same call (a Waitall completes several)
  std::uint32_t rank = 0;      // the application rank that produced it
  std::uint32_t node = 0;      // the MPI call's call-path node on that rank (its profile tree)
  std::uint32_t comm = 0;      // communicator key (see online_runtime.cpp)
  std::int32_t peer = -1;      // Send: destination; Recv: source; Collective: root (all application ranks) or -1
  std::int32_t tag = 0;        // Send/Recv: the tag; Collective: the communicator's size
  std::uint32_t pad2 = 0;
  std::uint64_t seq = 0;       // Collective: instance number on the communicator; Recv: the completing call
  double t0 = 0.0;             // Send: enter of the send call; Recv: posting; Collective: enter
  double t1 = 0.0;             // Send: leave of the send call; Recv: enter of the completing call; Collective: leave
  double t2 = 0.0;             // Recv: leave of the completing call
};
static_assert(std::is_trivially_copyable_v<Event> && sizeof(Event) == 64);

// Packets between places: a header and `count` items of the type the kind implies.
enum class PacketKind : std::uint32_t {
  Partial,        // up: collective partials (Partial)
  Tree,           // up: one application rank's call tree (bytes; `count` is the rank)
  Metrics,        // up: wait-state totals gathered since the last one (MetricValue)
  PauseRequest,   // up
  ResumeRequest,  // up
  SubtreeDone,    // up: nothing more will come from below (PlaceStats)
  FinalMetrics,   // up: after Shutdown: the last totals of the subtree (MetricValue)
  Result,         // down: completed collective instances (Partial)
  Pause,          // down
  Resume,         // down
  Shutdown,       // down: every result has been sent
  Sends,          // intra: send events for the destination's place (Event)
  IntraDone,      // intra: the sender forwards nothing more
};

struct PacketHeader {
  PacketKind kind;
  std::uint32_t count;
};

// The aggregate of one collective instance over the members seen so far (merged up the tree).
struct Partial {
  std::uint32_t comm = 0;
  std::uint32_t size = 0;      // members of the communicator
  std::uint64_t seq = 0;
  std::uint32_t count = 0;     // members merged
  std::int32_t lastRank = -1;  // who entered last
  double maxEnter = -1e300;
  double minLeave = 1e300;
  double rootEnter = -1e300;   // the root's enter (rooted operations), -inf until the root is merged
};
static_assert(std::is_trivially_copyable_v<Partial>);

// One wait-state total: metric (metrics::Metric), application rank, call-path node on it.
struct MetricValue {
  std::uint32_t metric = 0;
  std::uint32_t rank = 0;
  std::uint32_t node = 0;
  std::uint32_t pad = 0;
  double value = 0.0;
};
static_assert(std::is_trivially_copyable_v<MetricValue>);

// What a place reports about itself when its subtree is done (the benchmark's figures).
struct PlaceStats {
  std::uint64_t peakMemory = 0;    // entries the place's analysis held at most
  std::uint64_t peakMatching = 0;  // of which point-to-point matching entries
  std::uint64_t messages = 0;      // messages received
  std::uint64_t emptyProbes = 0;   // probes that found nothing
  std::uint64_t pauseRequests = 0;
};
static_assert(std::is_trivially_copyable_v<PlaceStats>);

}  // namespace waitscope::online
