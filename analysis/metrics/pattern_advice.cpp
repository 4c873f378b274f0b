#include "analysis/metrics/pattern_advice.h"

#include <array>
#include <utility>

namespace waitscope::metrics {
namespace {

constexpr std::array<std::pair<std::string_view, std::string_view>, 25> kAdvice = {{
    {"mpi_init_completion",
     "Processes leave MPI_Init at different times; this is start-up cost that mostly depends on the MPI library and "
     "the launcher. Nothing to change in the program unless it is a large share of a short run."},
    {"mpi_finalize_wait",
     "Processes finish their work at different times and wait in MPI_Finalize for the last one. Balance the work "
     "of the last phase (see the causing call paths), or overlap the tail with useful work."},
    {"mpi_rma_wait_at_create",
     "Window creation is collective: early processes wait for the last one. Create windows once, outside loops, "
     "or balance the work before the creation."},
    {"mpi_rma_wait_at_free",
     "MPI_Win_free is collective: early processes wait for the last one. Free windows once at the end, or "
     "balance the work before the free."},
    {"mpi_barrier_wait",
     "Processes wait at the barrier for the last one to arrive: the work before it is imbalanced. Balance it (see "
     "the causing call paths), or remove the barrier if it only orders output or timing."},
    {"mpi_barrier_completion",
     "Time in MPI_Barrier after the first process left: the barrier's own latency. Use fewer barriers, or a "
     "non-blocking MPI_Ibarrier overlapped with work."},
    {"mpi_rma_sync_late_post",
     "The origin waits in MPI_Win_start/complete for the target to post its exposure epoch. Post earlier on the "
     "target (call MPI_Win_post before its local work), or balance the target's work before the post."},
    {"mpi_rma_early_wait",
     "The target waits in MPI_Win_wait for origins that have not completed their access epoch. Move the wait "
     "later (do independent work between post and wait), or let the origins complete sooner."},
    {"mpi_rma_late_complete",
     "Origins close their access epoch later than their last transfer needed. Call MPI_Win_complete right after "
     "the last put/get instead of after unrelated work."},
    {"mpi_rma_wait_at_fence",
     "Processes wait in MPI_Win_fence for the last one of the window: the work between fences is imbalanced. "
     "Balance it, or switch to general active target (post/start/complete/wait) to synchronize only with the "
     "processes you communicate with."},
    {"mpi_rma_early_fence",
     "A fence waits for RMA operations targeting this process that are still in flight. Issue the transfers "
     "earlier in the epoch, or do local work before the closing fence."},
    {"mpi_rma_sync_lock_competition",
     "Processes wait for a lock another process holds on the same target. Hold locks shorter, use shared locks "
     "for reads, spread accesses over targets, or use MPI_Win_lock_all with flushes."},
    {"mpi_rma_sync_wait_for_progress",
     "Completing a passive-target epoch waited until the target entered MPI: the library made no progress "
     "without it. Call MPI from the target now and then (MPI_Win_flush, MPI_Test), or enable asynchronous "
     "progress in the MPI library."},
    {"mpi_latesender",
     "The receive waits for its sender to start sending. Post the send earlier on the sender, balance the "
     "sender's work before it (see the causing call paths), or use MPI_Irecv and do independent work before "
     "MPI_Wait."},
    {"mpi_latesender_wo",
     "Messages arrive in a different order than they are received. Receive in the order they are sent, or use "
     "MPI_ANY_SOURCE / non-blocking receives with MPI_Waitany."},
    {"mpi_lswo_different",
     "Waiting for one sender while a message from another sender has already arrived. Receive with "
     "MPI_ANY_SOURCE or MPI_Waitany so the first arriving message is handled first."},
    {"mpi_lswo_same",
     "Waiting for a message while an earlier message from the same sender has already arrived. Receive in the "
     "sender's order (check tags), or post all receives non-blocking."},
    {"mpi_latereceiver",
     "The send (or the MPI_Wait completing an MPI_Isend) waits for its receiver to post the receive (rendezvous "
     "protocol). Post the receive earlier (MPI_Irecv before local work), or complete the send later."},
    {"mpi_earlyreduce",
     "The root of a reduce or gather waits for the other processes to arrive. Do independent work on the root "
     "before the call, or use the non-blocking variant (MPI_Ireduce)."},
    {"mpi_earlyscan",
     "A process waits in MPI_Scan for lower-ranked processes. Balance the work before the scan, or use "
     "MPI_Iscan and overlap."},
    {"mpi_latebroadcast",
     "Processes wait in a broadcast or scatter for the root to arrive. Let the root reach the call earlier "
     "(balance its extra work), or use MPI_Ibcast."},
    {"mpi_wait_nxn",
     "Processes wait in an all-to-all collective for the last one to arrive: the work before it is imbalanced. "
     "Balance it (see the causing call paths), or use the non-blocking collective and overlap."},
    {"mpi_nxn_completion",
     "Time in an N-to-N collective after the first process left: the collective's own cost. Send less data, "
     "call it less often, or overlap a non-blocking variant."},
    {"mpi_rma_early_transfer",
     "An RMA transfer waits for the target to post its exposure epoch. Post earlier on the target, or issue the "
     "transfer later in the access epoch."},
    {"mpi_rma_comm_lock_competition",
     "An RMA transfer waits behind another process's lock on the same target. Hold locks shorter, or spread "
     "accesses over targets."},
}};

}  // namespace

std::string_view patternAdvice(std::string_view uniqueName) {
  constexpr std::string_view kEstimate = "_estimate";
  if (uniqueName.ends_with(kEstimate)) uniqueName.remove_suffix(kEstimate.size());
  for (const auto& [name, advice] : kAdvice)
    if (name == uniqueName) return advice;
  return {};
}

}  // namespace waitscope::metrics
