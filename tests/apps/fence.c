/* fence.c: active-target RMA with MPI_Win_fence only (Wait at Fence, Early Fence,
 * unneeded pairwise synchronizations).  See fence.expected.md.
 *
 *   MPI_Win_create
 *   ITERS x { MPI_Win_fence; MPI_Put 1 int to (r+1)%n; work(r * DELAY); }
 *   MPI_Win_fence                      (closes the last epoch: ITERS+1 fences per rank)
 *   MPI_Win_free
 *
 * With --late-put the put comes after work() ({fence; work; put}), so the put that targets
 * rank 0 (from rank n-1) ends (n-1)*DELAY after rank 0 entered the fence: Early Fence. */
#include "common.h"

static const char *const usage = "[ITERS=20] [DELAY_SECONDS=0.010] [--late-put]";

static void __attribute__((noinline)) work(double seconds)
{
    busy_wait(seconds);
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    static const char *const flags[] = {"--late-put", NULL};
    ws_check_flags(argc, argv, usage, flags);
    ws_max_positional(argc, argv, 2, usage);
    const int iters = (int)ws_arg_long(argc, argv, 0, 20, 1, 1000000, usage);
    const double delay = ws_arg_seconds(argc, argv, 1, 0.010, 10.0, usage);
    const int late_put = ws_has_flag(argc, argv, "--late-put");
    ws_require_size(argv[0], size, 2, 0);

    /* Aligned to 16 bytes: MPICH 4.0's ch4:ucx loses puts into a window whose base is not. */
    _Alignas(16) int buf = -1;
    MPI_Win win;
    MPI_Win_create(&buf, sizeof buf, sizeof buf, MPI_INFO_NULL, MPI_COMM_WORLD, &win);

    const int right = (rank + 1) % size;
    int val = 0;
    for (int it = 0; it < iters; it++) {
        WS_TIMED("MPI_Win_fence", MPI_Win_fence(0, win));
        val = rank * 100000 + it; /* not modified again before the next fence */
        if (!late_put)
            MPI_Put(&val, 1, MPI_INT, right, 0, 1, MPI_INT, win);
        work(rank * delay);
        if (late_put)
            MPI_Put(&val, 1, MPI_INT, right, 0, 1, MPI_INT, win);
    }
    WS_TIMED("MPI_Win_fence(closing)", MPI_Win_fence(0, win));

    const int left = (rank + size - 1) % size;
    if (buf != left * 100000 + iters - 1)
        ws_fail(argv[0], "window does not hold the last value put by the left neighbour");

    MPI_Win_free(&win);
    ws_debug_report("fence");
    if (rank == 0)
        printf("fence: %d ranks, %d iterations, delay %.3f s%s: ok\n", size, iters, delay,
               late_put ? ", late put" : "");
    MPI_Finalize();
    return 0;
}
