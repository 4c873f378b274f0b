/* chain.c: the wait-state propagation chain of Hermanns et al. (EuroMPI 2013), Fig. 1 (3 ranks).
 * See chain.expected.md.
 *
 *   ITERS x
 *     rank 0: foo(DELAY); MPI_Send(to 1)                       (the delay: root cause)
 *     rank 1: MPI_Recv(from 0); post({2}); wait                 (Late Sender: direct wait)
 *     rank 2: start({1}); MPI_Put(to 1); complete               (Late Post: indirect wait)
 *
 * Rank 1 cannot post its exposure epoch before the message from rank 0 arrives, so the
 * delay in foo on rank 0 reaches rank 2 through rank 1's Late Sender. */
#include "common.h"

static const char *const usage = "[ITERS=10] [DELAY_SECONDS=0.020]";

static void __attribute__((noinline)) foo(double seconds)
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
    const int iters = (int)ws_arg_long(argc, argv, 0, 10, 1, 1000000, usage);
    const double delay = ws_arg_seconds(argc, argv, 1, 0.020, 10.0, usage);
    ws_require_size(argv[0], size, 3, 3);

    /* Aligned to 16 bytes: MPICH 4.0's ch4:ucx loses puts into a window whose base is not. */
    _Alignas(16) int buf = -1;
    MPI_Win win;
    MPI_Win_create(&buf, sizeof buf, sizeof buf, MPI_INFO_NULL, MPI_COMM_WORLD, &win);

    MPI_Group world_group, peer_group;
    MPI_Comm_group(MPI_COMM_WORLD, &world_group);
    if (rank == 1) {
        const int two = 2;
        MPI_Group_incl(world_group, 1, &two, &peer_group);
    } else if (rank == 2) {
        const int one = 1;
        MPI_Group_incl(world_group, 1, &one, &peer_group);
    }

    for (int it = 0; it < iters; it++) {
        if (rank == 0) {
            foo(delay);
            MPI_Send(&it, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
        } else if (rank == 1) {
            int got = -1;
            WS_TIMED("MPI_Recv", MPI_Recv(&got, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            if (got != it)
                ws_fail(argv[0], "received the wrong message");
            MPI_Win_post(peer_group, 0, win);
            WS_TIMED("MPI_Win_wait", MPI_Win_wait(win));
            if (buf != 2000 + it)
                ws_fail(argv[0], "wrong value put into the window");
        } else {
            int val = 2000 + it;
            WS_TIMED("MPI_Win_start", MPI_Win_start(peer_group, 0, win));
            MPI_Put(&val, 1, MPI_INT, 1, 0, 1, MPI_INT, win);
            WS_TIMED("MPI_Win_complete", MPI_Win_complete(win));
        }
    }

    if (rank != 0)
        MPI_Group_free(&peer_group);
    MPI_Group_free(&world_group);
    WS_TIMED("MPI_Win_free", MPI_Win_free(&win));
    ws_debug_report("chain");
    if (rank == 0)
        printf("chain: %d iterations, delay %.3f s: ok\n", iters, delay);
    MPI_Finalize();
    return 0;
}
