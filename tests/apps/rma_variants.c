/* rma_variants.c: one RMA halo-exchange program in three synchronization variants, the way a
 * user tunes an RMA code by changing only its synchronization (Hermanns et al., IJHPCA 2012,
 * Table 2: BT-RMA with fences only, with GATS and fences, with GATS only).
 * See rma_variants.expected.md.
 *
 * Periodic ring of n >= 3 ranks, two windows (the x halo and the y halo), ITERS x:
 *     compute_x(r * DELAY);          exchange on win_x: MPI_Put of x to both neighbours
 *     compute_y((n-1-r) * DELAY);    exchange on win_y: MPI_Put of y to both neighbours
 * Every rank computes (n-1)*DELAY per iteration: balanced in total, imbalanced in each phase,
 * so ranks reach each exchange at different times.  --sync chooses how each exchange is
 * synchronized; the computation, the puts and the data are the same in every variant:
 *     fence   both exchanges: puts, then MPI_Win_fence (one opening fence per window before the loop)
 *     mixed   x: MPI_Win_post, MPI_Win_start, puts, MPI_Win_complete, MPI_Win_wait; y: fence
 *     gats    both exchanges: post, start, puts, complete, wait
 * Each window holds two halo slots per side; iteration `it` writes the slots of parity it % 2, so a
 * fence epoch's puts never touch the slots the target is still reading from the epoch before. */
#include "common.h"

static const char *const usage = "[ITERS=20] [DELAY_SECONDS=0.010] [--sync fence|mixed|gats]";

enum sync_mode { SYNC_FENCE, SYNC_GATS };

static void __attribute__((noinline)) compute_x(double seconds)
{
    busy_wait(seconds);
}

static void __attribute__((noinline)) compute_y(double seconds)
{
    busy_wait(seconds);
}

/* One halo exchange on `win`: `value` into the left neighbour's right slot and the right
 * neighbour's left slot of parity `parity`, synchronized as `mode` says.  Inlined: no region of
 * its own when instrumented (the MPI calls are main's, as in the other programs), and every MPI
 * call in it has one call site for both exchanges. */
static inline __attribute__((always_inline)) void halo_exchange(MPI_Win win, enum sync_mode mode, MPI_Group neighbours,
                                                                const int *value, int left, int right, int parity)
{
    const MPI_Aint from_left = 2 * parity, from_right = 2 * parity + 1;
    if (mode == SYNC_GATS) {
        MPI_Win_post(neighbours, 0, win);
        WS_TIMED("MPI_Win_start", MPI_Win_start(neighbours, 0, win));
    }
    MPI_Put(value, 1, MPI_INT, left, from_right, 1, MPI_INT, win);
    MPI_Put(value, 1, MPI_INT, right, from_left, 1, MPI_INT, win);
    if (mode == SYNC_GATS) {
        WS_TIMED("MPI_Win_complete", MPI_Win_complete(win));
        WS_TIMED("MPI_Win_wait", MPI_Win_wait(win));
    } else {
        WS_TIMED("MPI_Win_fence", MPI_Win_fence(0, win));
    }
}

/* "--sync MODE" taken out of argv (so that the positional arguments are the numbers only). */
static const char *WS_NOINSTR take_sync_option(int *argc, char **argv)
{
    const char *mode = "fence";
    for (int i = 1; i < *argc; i++) {
        if (strcmp(argv[i], "--sync") != 0)
            continue;
        if (i + 1 >= *argc)
            ws_usage_error(argv[0], usage, "--sync needs a value: fence, mixed or gats");
        mode = argv[i + 1];
        for (int j = i; j + 2 <= *argc; j++)
            argv[j] = argv[j + 2];
        *argc -= 2;
        i--;
    }
    if (strcmp(mode, "fence") != 0 && strcmp(mode, "mixed") != 0 && strcmp(mode, "gats") != 0) {
        char msg[256];
        snprintf(msg, sizeof msg, "unknown --sync '%s' (fence, mixed or gats)", mode);
        ws_usage_error(argv[0], usage, msg);
    }
    return mode;
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    const char *sync = take_sync_option(&argc, argv);
    ws_check_flags(argc, argv, usage, NULL);
    ws_max_positional(argc, argv, 2, usage);
    const int iters = (int)ws_arg_long(argc, argv, 0, 20, 1, 1000000, usage);
    const double delay = ws_arg_seconds(argc, argv, 1, 0.010, 10.0, usage);
    ws_require_size(argv[0], size, 3, 0);
    const enum sync_mode mode_x = strcmp(sync, "fence") == 0 ? SYNC_FENCE : SYNC_GATS;
    const enum sync_mode mode_y = strcmp(sync, "gats") == 0 ? SYNC_GATS : SYNC_FENCE;

    const int left = (rank - 1 + size) % size, right = (rank + 1) % size;
    /* Aligned to 16 bytes: MPICH 4.0's ch4:ucx loses puts into a window whose base is not. */
    _Alignas(16) int halo_x[4] = {-1, -1, -1, -1};
    _Alignas(16) int halo_y[4] = {-1, -1, -1, -1};
    MPI_Win win_x, win_y;
    MPI_Win_create(halo_x, sizeof halo_x, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win_x);
    MPI_Win_create(halo_y, sizeof halo_y, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win_y);

    MPI_Group world_group, neighbours;
    MPI_Comm_group(MPI_COMM_WORLD, &world_group);
    const int neighbour_ranks[2] = {left, right};
    MPI_Group_incl(world_group, 2, neighbour_ranks, &neighbours);

    if (mode_x == SYNC_FENCE)
        MPI_Win_fence(0, win_x);
    if (mode_y == SYNC_FENCE)
        MPI_Win_fence(0, win_y);
    for (int it = 0; it < iters; it++) {
        const int parity = it % 2;
        const int x = rank * 1000 + it, y = 500000 + rank * 1000 + it; /* unchanged until synchronized */

        compute_x(rank * delay);
        halo_exchange(win_x, mode_x, neighbours, &x, left, right, parity);
        if (halo_x[2 * parity] != left * 1000 + it || halo_x[2 * parity + 1] != right * 1000 + it)
            ws_fail(argv[0], "x halo does not hold the neighbours' values of this iteration");

        compute_y((size - 1 - rank) * delay);
        halo_exchange(win_y, mode_y, neighbours, &y, left, right, parity);
        if (halo_y[2 * parity] != 500000 + left * 1000 + it || halo_y[2 * parity + 1] != 500000 + right * 1000 + it)
            ws_fail(argv[0], "y halo does not hold the neighbours' values of this iteration");
    }

    MPI_Group_free(&neighbours);
    MPI_Group_free(&world_group);
    MPI_Win_free(&win_y);
    MPI_Win_free(&win_x);
    ws_debug_report("rma_variants");
    if (rank == 0)
        printf("rma_variants: %d ranks, %d iterations, delay %.3f s, --sync %s: ok\n", size, iters, delay, sync);
    MPI_Finalize();
    return 0;
}
