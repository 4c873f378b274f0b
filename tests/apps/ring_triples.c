/* ring_triples.c: the two communication patterns of Hilbrich et al. (EASC 2014), Fig. 2 (run with a
 * multiple of 3 ranks, 6 by default in the tests).  See ring_triples.expected.md.
 *
 * Pattern (a), homogeneous ring, ITERS x:
 *     rank 0 only: ring_work(DELAY)
 *     MPI_Isend(to (r+1)%p); MPI_Recv(from (r-1+p)%p); MPI_Wait
 *   rank 0's delay makes rank 1 wait (Late Sender), which delays rank 1's next send, and so
 *   on around the ring: rank k >= 1 waits DELAY in MPI_Recv in iterations k-1 .. ITERS-1.
 * MPI_Barrier
 * Pattern (b), process triples, ITERS x (ranks beyond the last full triple skip it):
 *     r%3 == 0: triple_work(DELAY); MPI_Send(to r+1)
 *     r%3 == 1: MPI_Recv(from r-1); MPI_Recv(from r+1)
 *     r%3 == 2: MPI_Send(to r-1)
 *   the middle rank waits DELAY for r-1 while r+1's message is already there
 *   (Late Sender, messages in wrong order, different source).
 * MPI_Barrier */
#include "common.h"

static const char *const usage = "[ITERS=10] [DELAY_SECONDS=0.020] [PATTERNS=3 (1: ring only, 2: triples only)]";

static void __attribute__((noinline)) ring_work(double seconds)
{
    busy_wait(seconds);
}

static void __attribute__((noinline)) triple_work(double seconds)
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
    const int iters = (int)ws_arg_long(argc, argv, 0, 10, 1, 1000000, usage);
    const double delay = ws_arg_seconds(argc, argv, 1, 0.020, 10.0, usage);
    /* the online analysis' tests run one pattern at a time */
    const long patterns = ws_arg_long(argc, argv, 2, 3, 1, 3, usage);
    ws_require_size(argv[0], size, 3, 0);

    /* (a) homogeneous ring */
    const int right = (rank + 1) % size, left = (rank - 1 + size) % size;
    for (int it = 0; it < iters && (patterns & 1); it++) {
        if (rank == 0)
            ring_work(delay);
        int out = rank * 1000 + it, in = -1;
        MPI_Request req;
        MPI_Isend(&out, 1, MPI_INT, right, 0, MPI_COMM_WORLD, &req);
        WS_TIMED("a MPI_Recv", MPI_Recv(&in, 1, MPI_INT, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        WS_TIMED("a MPI_Wait", MPI_Wait(&req, MPI_STATUS_IGNORE));
        if (in != left * 1000 + it)
            ws_fail(argv[0], "pattern (a): wrong message");
    }
    WS_TIMED("a MPI_Barrier", MPI_Barrier(MPI_COMM_WORLD));

    /* (b) process triples */
    if (rank < size / 3 * 3 && (patterns & 2)) {
        for (int it = 0; it < iters; it++) {
            int v = it, x = -1, y = -1;
            switch (rank % 3) {
            case 0:
                triple_work(delay);
                MPI_Send(&v, 1, MPI_INT, rank + 1, 1, MPI_COMM_WORLD);
                break;
            case 1:
                WS_TIMED("b MPI_Recv(r-1)", MPI_Recv(&x, 1, MPI_INT, rank - 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
                WS_TIMED("b MPI_Recv(r+1)", MPI_Recv(&y, 1, MPI_INT, rank + 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
                if (x != it || y != it)
                    ws_fail(argv[0], "pattern (b): wrong message");
                break;
            default:
                MPI_Send(&v, 1, MPI_INT, rank - 1, 1, MPI_COMM_WORLD);
                break;
            }
        }
    }
    WS_TIMED("b MPI_Barrier", MPI_Barrier(MPI_COMM_WORLD));

    ws_debug_report("ring_triples");
    if (rank == 0)
        printf("ring_triples: %d ranks, %d iterations per pattern, delay %.3f s: ok\n", size, iters, delay);
    MPI_Finalize();
    return 0;
}
