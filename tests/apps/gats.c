/* gats.c: general active-target synchronization (post/start/complete/wait) on one window.
 * Rank 0 is the target (exposure epochs), ranks 1..n-1 are origins.  See gats.expected.md.
 *
 * Phase 1, late post with MPI_Put (ITERS x):
 *     rank 0: target_work(DELAY); post({1..n-1}); wait
 *     origin: start({0}); MPI_Put(buf[r] on 0); complete
 * Phase 2, late post with MPI_Get (ITERS x): the same with MPI_Get of buf[r] from rank 0.
 *   In both phases each origin issues start and its RMA operation DELAY before the target
 *   posts.  Where the origin blocks is the MPI library's choice: Open MPI's default osc/rdma
 *   blocks in MPI_Win_start (Late Post, start variant); osc/pt2pt (`mpiexec --mca osc pt2pt`)
 *   returns from start and the operation and blocks in MPI_Win_complete (Late Post, complete
 *   variant); an MPI that blocks in the operation itself shows it as Early Transfer.
 * Phase 3, late complete (ITERS x), rank 1 is the only origin:
 *     rank 0: post({1}); wait                      -> Early Wait, Late Complete
 *     rank 1: start({0}); MPI_Put; origin_work(DELAY); complete
 * Each phase ends with MPI_Barrier. */
#include "common.h"

static const char *const usage = "[ITERS=10] [DELAY_SECONDS=0.020]";

static void __attribute__((noinline)) target_work(double seconds)
{
    busy_wait(seconds);
}

static void __attribute__((noinline)) origin_work(double seconds)
{
    busy_wait(seconds);
}

#define BUF_LEN 64

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    ws_check_flags(argc, argv, usage, NULL);
    ws_max_positional(argc, argv, 2, usage);
    const int iters = (int)ws_arg_long(argc, argv, 0, 10, 1, 1000000, usage);
    const double delay = ws_arg_seconds(argc, argv, 1, 0.020, 10.0, usage);
    ws_require_size(argv[0], size, 2, BUF_LEN);

    /* Aligned to 16 bytes: MPICH 4.0's ch4:ucx loses puts into a window whose base is not. */
    _Alignas(16) int buf[BUF_LEN];
    for (int i = 0; i < BUF_LEN; i++)
        buf[i] = -1;
    MPI_Win win;
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);

    MPI_Group world_group, target_group, origin_group, rank1_group;
    MPI_Comm_group(MPI_COMM_WORLD, &world_group);
    const int zero = 0, one = 1;
    MPI_Group_incl(world_group, 1, &zero, &target_group);
    MPI_Group_excl(world_group, 1, &zero, &origin_group);
    MPI_Group_incl(world_group, 1, &one, &rank1_group);

    /* Phase 1: late post, origins put. */
    for (int it = 0; it < iters; it++) {
        if (rank == 0) {
            target_work(delay);
            MPI_Win_post(origin_group, 0, win);
            WS_TIMED("p1 MPI_Win_wait", MPI_Win_wait(win));
        } else {
            int val = rank * 1000 + it; /* unchanged until MPI_Win_complete */
            WS_TIMED("p1 MPI_Win_start", MPI_Win_start(target_group, 0, win));
            WS_TIMED("p1 MPI_Put", MPI_Put(&val, 1, MPI_INT, 0, rank, 1, MPI_INT, win));
            WS_TIMED("p1 MPI_Win_complete", MPI_Win_complete(win));
        }
    }
    if (rank == 0)
        for (int r = 1; r < size; r++)
            if (buf[r] != r * 1000 + iters - 1)
                ws_fail(argv[0], "phase 1: wrong value put into the target window");
    WS_TIMED("p1 MPI_Barrier", MPI_Barrier(MPI_COMM_WORLD));

    /* Phase 2: late post, origins get what the target wrote into its window. */
    for (int it = 0; it < iters; it++) {
        if (rank == 0) {
            target_work(delay);
            for (int r = 1; r < size; r++)
                buf[r] = r * 2000 + it; /* local update outside the exposure epoch */
            MPI_Win_post(origin_group, 0, win);
            WS_TIMED("p2 MPI_Win_wait", MPI_Win_wait(win));
        } else {
            int got = -1;
            WS_TIMED("p2 MPI_Win_start", MPI_Win_start(target_group, 0, win));
            WS_TIMED("p2 MPI_Get", MPI_Get(&got, 1, MPI_INT, 0, rank, 1, MPI_INT, win));
            WS_TIMED("p2 MPI_Win_complete", MPI_Win_complete(win));
            if (got != rank * 2000 + it)
                ws_fail(argv[0], "phase 2: wrong value read from the target window");
        }
    }
    WS_TIMED("p2 MPI_Barrier", MPI_Barrier(MPI_COMM_WORLD));

    /* Phase 3: late complete on rank 1 (the only origin). */
    for (int it = 0; it < iters; it++) {
        if (rank == 0) {
            MPI_Win_post(rank1_group, 0, win);
            WS_TIMED("p3 MPI_Win_wait", MPI_Win_wait(win));
        } else if (rank == 1) {
            int val = 3000 + it;
            WS_TIMED("p3 MPI_Win_start", MPI_Win_start(target_group, 0, win));
            MPI_Put(&val, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
            origin_work(delay);
            WS_TIMED("p3 MPI_Win_complete", MPI_Win_complete(win));
        }
    }
    if (rank == 0 && buf[0] != 3000 + iters - 1)
        ws_fail(argv[0], "phase 3: wrong value put into the target window");
    WS_TIMED("p3 MPI_Barrier", MPI_Barrier(MPI_COMM_WORLD));

    MPI_Group_free(&rank1_group);
    MPI_Group_free(&origin_group);
    MPI_Group_free(&target_group);
    MPI_Group_free(&world_group);
    MPI_Win_free(&win);
    ws_debug_report("gats");
    if (rank == 0)
        printf("gats: %d ranks, %d iterations per phase, delay %.3f s: ok\n", size, iters, delay);
    MPI_Finalize();
    return 0;
}
