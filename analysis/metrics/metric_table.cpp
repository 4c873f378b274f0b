#include "analysis/metrics/metric_table.h"

namespace waitscope::metrics {
namespace {

using M = Metric;
using U = Unit;
constexpr bool kPart = true;   // value already included in the parent's
constexpr bool kSum = false;   // parent is the sum of its children

constexpr std::array<MetricDefinition, kMetricCount> kTable = {{
    {M::Time, kNoParent, "time", "Time", U::Seconds, kSum,
     "Total time of all locations: the wall-clock time each process spent between the first and last event."},
    {M::Execution, M::Time, "execution", "Execution", U::Seconds, kSum,
     "Time spent executing the program, in its own code and in MPI."},
    {M::Comp, M::Execution, "comp", "Computation", U::Seconds, kSum,
     "Time spent outside MPI: the program's own code."},
    {M::Mpi, M::Execution, "mpi", "MPI", U::Seconds, kSum,
     "Time spent in MPI calls. Calls that fit no category below (MPI_Comm_rank, MPI_Wtime, ...) count here."},
    {M::MpiManagement, M::Mpi, "mpi_management", "Management", U::Seconds, kSum,
     "Time spent in MPI calls that set up and tear down the environment, communicators and windows."},
    {M::MpiInitExit, M::MpiManagement, "mpi_init_exit", "Init/Exit", U::Seconds, kSum,
     "Time spent in MPI_Init, MPI_Init_thread and MPI_Finalize."},
    {M::MpiInitCompletion, M::MpiInitExit, "mpi_init_completion", "Initialization Completion", U::Seconds, kPart,
     "Time spent in MPI initialization after the first process has left it: the processes leave MPI_Init at "
     "different times."},
    {M::MpiFinalizeWait, M::MpiInitExit, "mpi_finalize_wait", "Wait at Finalize", U::Seconds, kPart,
     "Time spent in MPI_Finalize waiting for the last process to enter it: the processes finish their work at "
     "different times."},
    {M::MpiMgmtComm, M::MpiManagement, "mpi_mgmt_comm", "Communicator Management", U::Seconds, kSum,
     "Time spent creating, duplicating, splitting and freeing communicators and groups."},
    {M::MpiMgmtWin, M::MpiManagement, "mpi_mgmt_win", "Window Management", U::Seconds, kSum,
     "Time spent creating, allocating and freeing RMA windows."},
    {M::MpiRmaWaitAtCreate, M::MpiMgmtWin, "mpi_rma_wait_at_create", "Wait at Create", U::Seconds, kPart,
     "Time spent in a synchronizing window creation waiting for the last process of the communicator to enter it."},
    {M::MpiRmaWaitAtFree, M::MpiMgmtWin, "mpi_rma_wait_at_free", "Wait at Free", U::Seconds, kPart,
     "Time spent in a synchronizing MPI_Win_free waiting for the last process of the communicator to enter it."},
    {M::MpiSynchronization, M::Mpi, "mpi_synchronization", "Synchronization", U::Seconds, kSum,
     "Time spent in MPI calls that only synchronize: barriers and RMA synchronization."},
    {M::MpiSyncCollective, M::MpiSynchronization, "mpi_sync_collective", "Collective Synchronization", U::Seconds, kSum,
     "Time spent in MPI_Barrier."},
    {M::MpiBarrierWait, M::MpiSyncCollective, "mpi_barrier_wait", "Wait at Barrier", U::Seconds, kPart,
     "Time spent in MPI_Barrier waiting for the last process to enter it."},
    {M::MpiBarrierCompletion, M::MpiSyncCollective, "mpi_barrier_completion", "Barrier Completion", U::Seconds, kPart,
     "Time spent in MPI_Barrier after the first process has left it."},
    {M::MpiRmaSynchronization, M::MpiSynchronization, "mpi_rma_synchronization", "RMA Synchronization", U::Seconds,
     kSum, "Time spent in MPI one-sided synchronization calls."},
    {M::MpiRmaSyncActive, M::MpiRmaSynchronization, "mpi_rma_sync_active", "Active Target", U::Seconds, kSum,
     "Time spent in active-target synchronization: MPI_Win_fence, _post, _start, _complete, _wait and _test."},
    {M::MpiRmaSyncLatePost, M::MpiRmaSyncActive, "mpi_rma_sync_late_post", "Late Post", U::Seconds, kPart,
     "Time an origin spent in MPI_Win_start or MPI_Win_complete waiting for a target to post its exposure epoch "
     "(MPI_Win_post entered within the blocking call)."},
    {M::MpiRmaEarlyWait, M::MpiRmaSyncActive, "mpi_rma_early_wait", "Early Wait", U::Seconds, kPart,
     "Time a target spent in MPI_Win_wait (or a completing MPI_Win_test) before the last origin entered "
     "MPI_Win_complete."},
    {M::MpiRmaLateComplete, M::MpiRmaEarlyWait, "mpi_rma_late_complete", "Late Complete", U::Seconds, kPart,
     "The part of Early Wait after the origins' last RMA operation: the access epoch was closed later than its "
     "transfers needed."},
    {M::MpiRmaWaitAtFence, M::MpiRmaSyncActive, "mpi_rma_wait_at_fence", "Wait at Fence", U::Seconds, kPart,
     "Time spent in a synchronizing MPI_Win_fence waiting for the last process of the window to enter it."},
    {M::MpiRmaEarlyFence, M::MpiRmaWaitAtFence, "mpi_rma_early_fence", "Early Fence", U::Seconds, kPart,
     "Time spent in MPI_Win_fence before the last RMA operation targeting this process had finished."},
    {M::MpiRmaSyncPassive, M::MpiRmaSynchronization, "mpi_rma_sync_passive", "Passive Target", U::Seconds, kSum,
     "Time spent in passive-target synchronization: MPI_Win_lock, _unlock, _lock_all, _unlock_all, _flush*, _sync."},
    {M::MpiRmaSyncLockCompetition, M::MpiRmaSyncPassive, "mpi_rma_sync_lock_competition", "Lock Competition",
     U::Seconds, kPart,
     "Time spent in MPI_Win_lock or MPI_Win_lock_all while another process held a conflicting lock on the same "
     "target and window."},
    {M::MpiRmaSyncWaitForProgress, M::MpiRmaSyncPassive, "mpi_rma_sync_wait_for_progress", "Wait for Progress",
     U::Seconds, kPart,
     "Time an origin spent completing a passive-target epoch (unlock, flush) while the target was outside MPI and "
     "the call returned only after the target entered MPI: the MPI library made no progress without it."},
    {M::MpiCommunication, M::Mpi, "mpi_communication", "Communication", U::Seconds, kSum,
     "Time spent in MPI calls that move data."},
    {M::MpiPoint2Point, M::MpiCommunication, "mpi_point2point", "Point-to-point", U::Seconds, kSum,
     "Time spent in point-to-point calls, including request completion (MPI_Wait, MPI_Test, ...)."},
    {M::MpiLateSender, M::MpiPoint2Point, "mpi_latesender", "Late Sender", U::Seconds, kPart,
     "Time a receiving call spent waiting for the matching send to start."},
    {M::MpiLateSenderWo, M::MpiLateSender, "mpi_latesender_wo", "Messages in Wrong Order", U::Seconds, kPart,
     "Late Sender time waiting for a message while a message sent earlier to this process was received later."},
    {M::MpiLswoDifferent, M::MpiLateSenderWo, "mpi_lswo_different", "From Different Sources", U::Seconds, kPart,
     "Messages in Wrong Order where the earlier-sent message came from another process."},
    {M::MpiLswoSame, M::MpiLateSenderWo, "mpi_lswo_same", "From Same Source", U::Seconds, kPart,
     "Messages in Wrong Order where the earlier-sent message came from the same process."},
    {M::MpiLateReceiver, M::MpiPoint2Point, "mpi_latereceiver", "Late Receiver", U::Seconds, kPart,
     "Time the call completing a send (a blocking MPI_Send or MPI_Ssend, or the MPI_Wait* of an MPI_Isend) "
     "spent waiting for the receiver to post the matching receive."},
    {M::MpiCollective, M::MpiCommunication, "mpi_collective", "Collective", U::Seconds, kSum,
     "Time spent in collective operations that move data."},
    {M::MpiEarlyReduce, M::MpiCollective, "mpi_earlyreduce", "Early Reduce", U::Seconds, kPart,
     "Time the root of an N-to-1 operation (reduce, gather) spent waiting for the last process that sends it data "
     "to enter."},
    {M::MpiEarlyScan, M::MpiCollective, "mpi_earlyscan", "Early Scan", U::Seconds, kPart,
     "Time a process spent in MPI_Scan or MPI_Exscan waiting for the last lower-ranked process to enter."},
    {M::MpiLateBroadcast, M::MpiCollective, "mpi_latebroadcast", "Late Broadcast", U::Seconds, kPart,
     "Time a process spent in a 1-to-N operation (broadcast, scatter) waiting for the root to enter."},
    {M::MpiWaitNxN, M::MpiCollective, "mpi_wait_nxn", "Wait at N x N", U::Seconds, kPart,
     "Time spent in an N-to-N operation (allreduce, alltoall, allgather, ...) waiting for the last process to "
     "enter."},
    {M::MpiNxNCompletion, M::MpiCollective, "mpi_nxn_completion", "N x N Completion", U::Seconds, kPart,
     "Time spent in an N-to-N operation after the first process has left it."},
    {M::MpiRmaCommunication, M::MpiCommunication, "mpi_rma_communication", "RMA Communication", U::Seconds, kSum,
     "Time spent in one-sided transfer calls: put, get, accumulate and atomics."},
    {M::MpiRmaEarlyTransfer, M::MpiRmaCommunication, "mpi_rma_early_transfer", "Early Transfer", U::Seconds, kPart,
     "Time an RMA transfer call spent waiting for the target to post its exposure epoch (Scalasca 2.6 calls this "
     "mpi_rma_comm_late_post)."},
    {M::MpiRmaCommLockCompetition, M::MpiRmaCommunication, "mpi_rma_comm_lock_competition", "Lock Competition",
     U::Seconds, kPart,
     "Time an RMA transfer call inside a passive-target epoch spent while another process held a conflicting lock "
     "on the same target that was granted before this epoch's own lock and not yet being released."},
    {M::MpiIo, M::Mpi, "mpi_io", "File I/O", U::Seconds, kSum, "Time spent in MPI file I/O calls."},
    {M::Visits, kNoParent, "visits", "Visits", U::Occurrences, kSum, "Number of times a call path was entered."},
    {M::Syncs, kNoParent, "syncs", "Synchronizations", U::Occurrences, kSum,
     "Number of synchronization operations: calls that synchronize without moving data."},
    {M::SyncsP2p, M::Syncs, "syncs_p2p", "Point-to-point", U::Occurrences, kSum,
     "Number of zero-byte point-to-point sends and receives."},
    {M::SyncsColl, M::Syncs, "syncs_coll", "Collective", U::Occurrences, kSum,
     "Number of collective operations that move no data (MPI_Barrier)."},
    {M::SyncsRma, M::Syncs, "syncs_rma", "RMA", U::Occurrences, kSum, "Number of RMA synchronization calls."},
    {M::SyncsRmaActive, M::SyncsRma, "syncs_rma_active", "Active Target", U::Occurrences, kSum,
     "Number of fence, post, start, complete, wait and completing test calls."},
    {M::SyncsRmaPassive, M::SyncsRma, "syncs_rma_passive", "Passive Target", U::Occurrences, kSum,
     "Number of lock, unlock, flush and sync calls."},
    {M::RmaPairsyncCount, kNoParent, "mpi_rma_pairsync_count", "Pairwise RMA Synchronizations", U::Occurrences,
     kSum,
     "Number of processes an active-target synchronization call may wait for, as Scalasca counts them: at every "
     "MPI_Win_fence the members of the window's communicator (itself included), at MPI_Win_complete the access "
     "group, at MPI_Win_wait the exposure group."},
    {M::RmaPairsyncUnneededCount, M::RmaPairsyncCount, "mpi_rma_pairsync_unneeded_count",
     "Unneeded Pairwise Synchronizations", U::Occurrences, kPart,
     "Pairwise synchronizations (as Scalasca counts them) with a process between which and this one no RMA "
     "operation went in the epoch."},
    {M::RmaEpochPairsyncCount, kNoParent, "rma_epoch_pairsync_count", "Pairwise RMA Synchronizations per Epoch",
     U::Occurrences, kSum,
     "Number of origin-target pairs that synchronized when an active-target epoch closed, counted once, at the "
     "target: a fence that closes an epoch (not the first on the window) with each other member, MPI_Win_wait or "
     "a completing MPI_Win_test with each other member of the post group."},
    {M::RmaEpochPairsyncUnneededCount, M::RmaEpochPairsyncCount, "rma_epoch_pairsync_unneeded_count",
     "Unneeded Pairwise Synchronizations per Epoch", U::Occurrences, kPart,
     "Pairwise synchronizations per epoch with an origin that issued no RMA operation to this target in the "
     "epoch."},
    {M::Comms, kNoParent, "comms", "Communications", U::Occurrences, kSum,
     "Number of operations that move data."},
    {M::CommsP2p, M::Comms, "comms_p2p", "Point-to-point", U::Occurrences, kSum,
     "Number of point-to-point sends and receives that carry data."},
    {M::CommsColl, M::Comms, "comms_coll", "Collective", U::Occurrences, kSum,
     "Number of collective operations that move data."},
    {M::CommsRma, M::Comms, "comms_rma", "RMA", U::Occurrences, kSum, "Number of RMA transfer calls."},
    {M::CommsRmaPuts, M::CommsRma, "comms_rma_puts", "Puts", U::Occurrences, kSum, "Number of MPI_Put and MPI_Rput."},
    {M::CommsRmaGets, M::CommsRma, "comms_rma_gets", "Gets", U::Occurrences, kSum, "Number of MPI_Get and MPI_Rget."},
    {M::CommsRmaAtomics, M::CommsRma, "comms_rma_atomics", "Atomics", U::Occurrences, kSum,
     "Number of accumulates and atomic operations."},
    {M::Bytes, kNoParent, "bytes", "Bytes", U::Bytes, kSum, "Bytes sent and received."},
    {M::BytesP2p, M::Bytes, "bytes_p2p", "Point-to-point", U::Bytes, kSum,
     "Bytes sent and received in point-to-point messages."},
    {M::BytesColl, M::Bytes, "bytes_coll", "Collective", U::Bytes, kSum,
     "Bytes sent and received by this process in collective operations."},
    {M::BytesRma, M::Bytes, "bytes_rma", "RMA", U::Bytes, kSum,
     "Bytes moved by RMA transfers issued by this process (accumulates and atomics count here)."},
    {M::BytesPut, M::BytesRma, "bytes_put", "Put", U::Bytes, kSum, "Bytes written by MPI_Put and MPI_Rput."},
    {M::BytesGet, M::BytesRma, "bytes_get", "Get", U::Bytes, kSum, "Bytes read by MPI_Get and MPI_Rget."},
    {M::ClockViolations, kNoParent, "clock_violations", "Clock Condition Violations", U::Occurrences, kSum,
     "Calls whose timestamps contradict what MPI guarantees (a message received before it was sent, a process "
     "leaving a synchronization before its partner entered): the clocks of the processes disagree, and the "
     "wait-state values near them are unreliable."},
    {M::ClockViolationsP2p, M::ClockViolations, "clock_violations_p2p", "Point-to-point", U::Occurrences, kSum,
     "Receives that completed before their matching send was entered, counted at the receiving call."},
    {M::ClockViolationsCollective, M::ClockViolations, "clock_violations_collective", "Collective", U::Occurrences,
     kSum,
     "Collective calls left before a partner entered: a barrier or N-to-N operation left before the last process "
     "entered, a 1-to-N operation left by a non-root before the root entered, an N-to-1 operation left by the root "
     "before the last process entered. One per process and call."},
    {M::ClockViolationsRma, M::ClockViolations, "clock_violations_rma", "RMA", U::Occurrences, kSum,
     "RMA calls whose times contradict the epochs: an MPI_Win_complete that returned before a target of its epoch "
     "entered MPI_Win_post, a transfer of such an epoch to that target, an MPI_Win_wait or completing MPI_Win_test "
     "that returned before the last origin entered MPI_Win_complete, an MPI_Win_fence closing an epoch in which "
     "this process was accessed that returned before the last process entered it."},
    {M::Delay, kNoParent, "delay", "Delay Costs", U::Seconds, kSum,
     "Waiting time caused elsewhere, charged to the call paths on the causing locations whose extra work (delay) "
     "caused it (Hermanns et al., EuroMPI 2013)."},
    {M::DelayMpi, M::Delay, "delay_mpi", "MPI", U::Seconds, kSum, "Delay costs of wait states in MPI."},
    {M::DelayP2p, M::DelayMpi, "delay_p2p", "Point-to-point", U::Seconds, kSum,
     "Delay costs of point-to-point wait states (Late Sender, Late Receiver): short-term and long-term."},
    {M::DelayP2pLongterm, M::DelayP2p, "delay_p2p_longterm", "Long-term", U::Seconds, kPart,
     "The part of the point-to-point delay costs that caused the point-to-point wait states indirectly: through "
     "other wait states it caused first, which propagated to them."},
    {M::DelayCollective, M::DelayMpi, "delay_collective", "Collective", U::Seconds, kSum,
     "Delay costs of collective wait states (barriers, N x N, 1-to-N, N-to-1, scans; not Wait at Finalize): "
     "short-term and long-term."},
    {M::DelayCollectiveLongterm, M::DelayCollective, "delay_collective_longterm", "Long-term", U::Seconds, kPart,
     "The part of the collective delay costs that caused the collective wait states indirectly: through other "
     "wait states it caused first, which propagated to them."},
    {M::DelayRma, M::DelayMpi, "delay_rma", "RMA", U::Seconds, kSum,
     "Delay costs of RMA wait states (Late Post, Early Wait, fences, window creation and free): short-term and "
     "long-term."},
    {M::DelayRmaLongterm, M::DelayRma, "delay_rma_longterm", "Long-term", U::Seconds, kPart,
     "The part of the RMA delay costs that caused the RMA wait states indirectly: through other wait states it "
     "caused first, which propagated to them."},
    {M::WaitstatesDirectVsIndirect, kNoParent, "waitstates_direct_vs_indirect", "Direct vs. Indirect Waits",
     U::Seconds, kSum, "Waiting time in MPI split by whether the cause was extra work or itself a wait state."},
    {M::MpiWaitDirect, M::WaitstatesDirectVsIndirect, "mpi_wait_direct", "Direct", U::Seconds, kSum,
     "Waiting time caused directly by extra work (delay) on the causing location."},
    {M::MpiWaitIndirect, M::WaitstatesDirectVsIndirect, "mpi_wait_indirect", "Indirect", U::Seconds, kSum,
     "Waiting time caused by a wait state of the causing location, which passed it on."},
    {M::WaitstatesPropagatingVsTerminal, kNoParent, "waitstates_propagating_vs_terminal",
     "Propagating vs. Terminal Waits", U::Seconds, kSum,
     "Waiting time in MPI split by whether it went on to cause wait states elsewhere."},
    {M::MpiWaitPropagating, M::WaitstatesPropagatingVsTerminal, "mpi_wait_propagating", "Propagating", U::Seconds,
     kSum, "Waiting time that delayed this location so that it caused wait states on other locations later."},
    {M::MpiWaitTerminal, M::WaitstatesPropagatingVsTerminal, "mpi_wait_terminal", "Terminal", U::Seconds, kSum,
     "Waiting time that caused no further wait states."},
    {M::CriticalPath, kNoParent, "critical_path", "Critical Path", U::Seconds, kSum,
     "Time on the critical path: the chain of activities without wait states that determines the program's run "
     "time, per call path and location."},
    {M::CriticalPathImbalance, M::CriticalPath, "critical_path_imbalance", "Imbalance", U::Seconds, kPart,
     "Critical-path time of a call path minus its average time per location, where positive: time that "
     "shortening the call path on the critical path would save, beyond what balancing it would."},
}};

constexpr bool tableInOrder() {
  for (std::size_t i = 0; i < kTable.size(); ++i) {
    if (index(kTable[i].id) != i) return false;
    if (kTable[i].parent != kNoParent && index(kTable[i].parent) >= i) return false;
  }
  return true;
}
static_assert(tableInOrder(), "metric table rows must follow the enum, parents first");

}  // namespace

WaitFamily waitFamily(Metric metric) {
  switch (metric) {
    case M::MpiLateSender:
    case M::MpiLateSenderWo:
    case M::MpiLswoDifferent:
    case M::MpiLswoSame:
    case M::MpiLateReceiver:
      return WaitFamily::PointToPoint;
    case M::MpiBarrierWait:
    case M::MpiWaitNxN:
    case M::MpiLateBroadcast:
    case M::MpiEarlyReduce:
    case M::MpiEarlyScan:
    case M::MpiFinalizeWait:
      return WaitFamily::Collective;
    case M::MpiRmaSyncLatePost:
    case M::MpiRmaEarlyTransfer:
    case M::MpiRmaEarlyWait:
    case M::MpiRmaLateComplete:
    case M::MpiRmaWaitAtFence:
    case M::MpiRmaEarlyFence:
    case M::MpiRmaWaitAtCreate:
    case M::MpiRmaWaitAtFree:
      return WaitFamily::RmaActive;
    case M::MpiRmaSyncLockCompetition:
    case M::MpiRmaCommLockCompetition:
    case M::MpiRmaSyncWaitForProgress:
      return WaitFamily::RmaPassive;
    default:
      return WaitFamily::None;
  }
}

const MetricDefinition& definition(Metric metric) { return kTable[index(metric)]; }
const std::array<MetricDefinition, kMetricCount>& metricTable() { return kTable; }

}  // namespace waitscope::metrics
