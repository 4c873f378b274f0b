"""The wait-state patterns: the time metrics whose value is part of their parent's by construction
(Late Sender time is MPI_Recv time), as the analyzer's metric table marks them
(analysis/metrics/metric_table.cpp) and docs/pattern-reference.md lists them, in that order. A
report may hold sub-metrics below them; those count as part of their pattern."""

WAIT_STATE_PATTERNS = (
    "mpi_init_completion", "mpi_finalize_wait", "mpi_rma_wait_at_create", "mpi_rma_wait_at_free",
    "mpi_barrier_wait", "mpi_barrier_completion", "mpi_rma_sync_late_post", "mpi_rma_early_wait",
    "mpi_rma_late_complete", "mpi_rma_wait_at_fence", "mpi_rma_early_fence", "mpi_rma_sync_lock_competition",
    "mpi_rma_sync_wait_for_progress", "mpi_latesender", "mpi_latesender_wo", "mpi_lswo_different", "mpi_lswo_same",
    "mpi_latereceiver", "mpi_earlyreduce", "mpi_earlyscan", "mpi_latebroadcast", "mpi_wait_nxn",
    "mpi_nxn_completion", "mpi_rma_early_transfer", "mpi_rma_comm_lock_competition",
)


def waiting_metrics(report):
    """waiting[m] is True for a wait-state pattern and every metric below one."""
    names = set(WAIT_STATE_PATTERNS)
    parents = report._metric_parent
    waiting = []
    for m, name in enumerate(report._metric_names):
        waiting.append(name in names or (parents[m] >= 0 and waiting[parents[m]]))
    return waiting
