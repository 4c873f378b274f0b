#pragma once
// The metric tree every Waitscope report uses: one table, read by the analyzer
// (ids, parents, units), written into every report, and used to generate the
// pattern reference in docs/ so the two cannot drift apart.
#include <array>
#include <cstdint>
#include <string_view>

namespace waitscope::metrics {

enum class Metric : std::uint8_t {
  Time,
  Execution,
  Comp,
  Mpi,
  MpiManagement,
  MpiInitExit,
  MpiInitCompletion,
  MpiFinalizeWait,
  MpiMgmtComm,
  MpiMgmtWin,
  MpiRmaWaitAtCreate,
  MpiRmaWaitAtFree,
  MpiSynchronization,
  MpiSyncCollective,
  MpiBarrierWait,
  MpiBarrierCompletion,
  MpiRmaSynchronization,
  MpiRmaSyncActive,
  MpiRmaSyncLatePost,
  MpiRmaEarlyWait,
  MpiRmaLateComplete,
  MpiRmaWaitAtFence,
  MpiRmaEarlyFence,
  MpiRmaSyncPassive,
  MpiRmaSyncLockCompetition,
  MpiRmaSyncWaitForProgress,
  MpiCommunication,
  MpiPoint2Point,
  MpiLateSender,
  MpiLateSenderWo,
  MpiLswoDifferent,
  MpiLswoSame,
  MpiLateReceiver,
  MpiCollective,
  MpiEarlyReduce,
  MpiEarlyScan,
  MpiLateBroadcast,
  MpiWaitNxN,
  MpiNxNCompletion,
  MpiRmaCommunication,
  MpiRmaEarlyTransfer,
  MpiRmaCommLockCompetition,
  MpiIo,
  Visits,
  Syncs,
  SyncsP2p,
  SyncsColl,
  SyncsRma,
  SyncsRmaActive,
  SyncsRmaPassive,
  RmaPairsyncCount,
  RmaPairsyncUnneededCount,
  RmaEpochPairsyncCount,
  RmaEpochPairsyncUnneededCount,
  Comms,
  CommsP2p,
  CommsColl,
  CommsRma,
  CommsRmaPuts,
  CommsRmaGets,
  CommsRmaAtomics,
  Bytes,
  BytesP2p,
  BytesColl,
  BytesRma,
  BytesPut,
  BytesGet,
  ClockViolations,
  ClockViolationsP2p,
  ClockViolationsCollective,
  ClockViolationsRma,
  Delay,
  DelayMpi,
  DelayP2p,
  DelayP2pLongterm,
  DelayCollective,
  DelayCollectiveLongterm,
  DelayRma,
  DelayRmaLongterm,
  WaitstatesDirectVsIndirect,
  MpiWaitDirect,
  MpiWaitIndirect,
  WaitstatesPropagatingVsTerminal,
  MpiWaitPropagating,
  MpiWaitTerminal,
  CriticalPath,
  CriticalPathImbalance,
};

inline constexpr std::size_t kMetricCount = static_cast<std::size_t>(Metric::CriticalPathImbalance) + 1;
inline constexpr Metric kNoParent = static_cast<Metric>(0xff);

enum class Unit : std::uint8_t { Seconds, Occurrences, Bytes };

struct MetricDefinition {
  Metric id;
  Metric parent;              // kNoParent for a root
  std::string_view uniqueName;
  std::string_view displayName;
  Unit unit;
  // True for wait-state patterns and other metrics whose value is already part
  // of the parent's value by construction (Late Sender time is MPI_Recv time,
  // counted in point-to-point). False for roll-ups, whose parent is the sum of
  // its children (computation time adds to execution time).
  bool partOfParent;
  std::string_view description;
};

// The family of a wait-state pattern whose instances name the location that
// caused them; None for every other metric (completion patterns included: the
// first process to leave causes nothing). The causes analysis reads it.
enum class WaitFamily : std::uint8_t { None, PointToPoint, Collective, RmaActive, RmaPassive };
WaitFamily waitFamily(Metric metric);

const MetricDefinition& definition(Metric metric);
const std::array<MetricDefinition, kMetricCount>& metricTable();
constexpr std::size_t index(Metric metric) { return static_cast<std::size_t>(metric); }

}  // namespace waitscope::metrics
