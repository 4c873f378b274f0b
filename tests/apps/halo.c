/* halo.c: a periodic 1-D halo exchange completed with MPI_Waitall, plus an MPI_Allreduce per
 * iteration (4 ranks; any n >= 3).  See halo.expected.md.  ITERS x, with B = DELAY/10:
 *     late_work(DELAY) on rank it % n only          -- one rank per iteration is late
 *     MPI_Irecv(left), MPI_Irecv(right), MPI_Isend(left), MPI_Isend(right)  -- COUNT doubles each
 *     overlap_work(B)         -- computation overlapping the transfers
 *     MPI_Waitall(4)          -- the late rank's neighbours wait DELAY - B (Late Sender); the
 *                                others find their messages already there
 *     MPI_Allreduce(1 double) -- the others wait for the late rank (Wait at NxN)
 * The overlapped non-blocking exchange is where Mao et al. (EuroMPI/ASIA 2014) found their
 * minimum method to overestimate in MPI_Waitall: a wait whose messages have already arrived only copies them. */
#include "common.h"

static const char *const usage = "[ITERS=40] [DELAY_SECONDS=0.010] [COUNT=1024]";

static void __attribute__((noinline)) late_work(double seconds)
{
    busy_wait(seconds);
}

static void __attribute__((noinline)) overlap_work(double seconds)
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
    ws_max_positional(argc, argv, 3, usage);
    const int iters = (int)ws_arg_long(argc, argv, 0, 40, 1, 1000000, usage);
    const double delay = ws_arg_seconds(argc, argv, 1, 0.010, 10.0, usage);
    const int count = (int)ws_arg_long(argc, argv, 2, 1024, 1, 1 << 24, usage);
    ws_require_size(argv[0], size, 3, 0);

    const int left = (rank - 1 + size) % size, right = (rank + 1) % size;
    double *out = malloc(sizeof(double) * (size_t)count * 2), *in = malloc(sizeof(double) * (size_t)count * 2);
    if (!out || !in)
        ws_fail(argv[0], "out of memory");
    const double base = delay / 10;
    for (int it = 0; it < iters; it++) {
        if (it % size == rank)
            late_work(delay);
        for (int i = 0; i < 2 * count; i++)
            out[i] = rank * 1e6 + it + i;
        MPI_Request reqs[4];
        MPI_Status statuses[4];  // not MPI_STATUSES_IGNORE: GCC 12 flags MPICH's (MPI_Status *)1 as too small
        MPI_Irecv(in, count, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &reqs[0]);
        MPI_Irecv(in + count, count, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &reqs[1]);
        MPI_Isend(out, count, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &reqs[2]);
        MPI_Isend(out + count, count, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &reqs[3]);
        overlap_work(base);
        WS_TIMED("MPI_Waitall", MPI_Waitall(4, reqs, statuses));
        if (in[0] != left * 1e6 + it || in[2 * count - 1] != right * 1e6 + it + 2 * count - 1)
            ws_fail(argv[0], "wrong halo");
        double local = in[0], sum = 0.0;
        WS_TIMED("MPI_Allreduce", MPI_Allreduce(&local, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
    }
    free(out);
    free(in);
    ws_debug_report("halo");
    if (rank == 0)
        printf("halo: %d ranks, %d iterations, delay %.3f s, %d doubles per message: ok\n", size, iters, delay, count);
    MPI_Finalize();
    return 0;
}
