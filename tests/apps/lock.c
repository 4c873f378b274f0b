/* lock.c: passive-target lock competition on rank 0's window.  See lock.expected.md.
 *
 * Phase 1, staggered (ITERS x), the order of acquisition is fixed by construction:
 *     rank r > 0: before_lock((r - 0.5) * HOLD)   (requests while rank r-1 holds the lock)
 *     every rank: MPI_Win_lock(EXCLUSIVE, 0); MPI_Accumulate(+1); hold_lock(HOLD);
 *                 MPI_Win_unlock(0); MPI_Barrier
 *   rank r > 0 waits HOLD/2 in every MPI_Win_lock; in the barrier rank r waits (n-1-r)*HOLD.
 * Phase 2, free-for-all (ITERS x): every rank requests at once after the barrier
 *     MPI_Win_lock(EXCLUSIVE, 0); MPI_Accumulate(+1); hold_lock(HOLD); MPI_Win_unlock(0); MPI_Barrier
 *   the k-th rank to get the lock waits k*HOLD (the order is the MPI library's choice).
 * Finally one shared lock and MPI_Get read the counter back (must be 2*ITERS*n). */
#include "common.h"

static const char *const usage = "[ITERS=5] [HOLD_SECONDS=0.020]";

static void __attribute__((noinline)) before_lock(double seconds)
{
    busy_wait(seconds);
}

static void __attribute__((noinline)) hold_lock(double seconds)
{
    busy_wait(seconds);
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    ws_check_flags(argc, argv, usage, NULL);
    ws_max_positional(argc, argv, 2, usage);
    const int iters = (int)ws_arg_long(argc, argv, 0, 5, 1, 1000000, usage);
    const double hold = ws_arg_seconds(argc, argv, 1, 0.020, 10.0, usage);
    ws_require_size(argv[0], size, 2, 0);

    /* Aligned to 16 bytes: MPICH 4.0's ch4:ucx loses puts into a window whose base is not. */
    _Alignas(16) long counter = 0;
    MPI_Win win;
    MPI_Win_create(&counter, sizeof counter, sizeof counter, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Barrier(MPI_COMM_WORLD);

    const long one = 1;
    /* Phase 1: staggered requests, fixed order 0, 1, ..., n-1. */
    for (int it = 0; it < iters; it++) {
        if (rank > 0)
            before_lock((rank - 0.5) * hold);
        WS_TIMED("p1 MPI_Win_lock", MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
        MPI_Accumulate(&one, 1, MPI_LONG, 0, 0, 1, MPI_LONG, MPI_SUM, win);
        hold_lock(hold);
        WS_TIMED("p1 MPI_Win_unlock", MPI_Win_unlock(0, win));
        WS_TIMED("p1 MPI_Barrier", MPI_Barrier(MPI_COMM_WORLD));
    }

    /* Phase 2: everybody requests at once. */
    for (int it = 0; it < iters; it++) {
        WS_TIMED("p2 MPI_Win_lock", MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
        MPI_Accumulate(&one, 1, MPI_LONG, 0, 0, 1, MPI_LONG, MPI_SUM, win);
        hold_lock(hold);
        WS_TIMED("p2 MPI_Win_unlock", MPI_Win_unlock(0, win));
        WS_TIMED("p2 MPI_Barrier", MPI_Barrier(MPI_COMM_WORLD));
    }

    long final = -1;
    MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
    MPI_Get(&final, 1, MPI_LONG, 0, 0, 1, MPI_LONG, win);
    MPI_Win_unlock(0, win);
    if (final != 2L * iters * size)
        ws_fail(argv[0], "the counter on rank 0 is not 2*ITERS*n");

    MPI_Win_free(&win);
    ws_debug_report("lock");
    if (rank == 0)
        printf("lock: %d ranks, %d iterations per phase, hold %.3f s: ok\n", size, iters, hold);
    MPI_Finalize();
    return 0;
}
