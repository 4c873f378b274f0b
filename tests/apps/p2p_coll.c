/* p2p_coll.c: the MPI-1 wait-state patterns, one segment each (4 ranks; even n >= 4).
 * See p2p_coll.expected.md.  Every segment ends with all ranks at about the same time, so
 * no extra synchronization separates them.  D = DELAY, d = DELAY/2.  ROUNDS x:
 *   1 Late Sender        pairs (0->1), (2->3): sender late_send_work(D); MPI_Send | MPI_Recv
 *   2 Late Receiver      pairs (0->1), (2->3): MPI_Ssend | receiver late_recv_work(D); MPI_Recv
 *   3 Wrong order, same source   (0->1), (2->3): sender MPI_Send tag 1; wrong_order_work(D);
 *                        MPI_Send tag 0 | receiver MPI_Recv tag 0; MPI_Recv tag 1
 *   4 Wrong order, different source  rank 1 receives from 0 (late by D), then from 2 (sent first);
 *                        ranks 2 and 3 work D after sending (2) / instead (3)
 *   5 Wait at Barrier    barrier_work(r*d); MPI_Barrier
 *   6 Wait at NxN        allreduce_work(r*d); MPI_Allreduce; alltoall_work((n-1-r)*d); MPI_Alltoall
 *   7 Late Broadcast     root 0: bcast_work(D); MPI_Bcast
 *   8 Early Reduce       ranks > 0: reduce_work(D); MPI_Reduce to root 0 */
#include "common.h"

static const char *const usage = "[ROUNDS=3] [DELAY_SECONDS=0.020]";

#define WORK_FN(name)                                                                              \
    static void __attribute__((noinline)) name(double seconds)                                     \
    {                                                                                              \
        busy_wait(seconds);                                                                        \
    }
WORK_FN(late_send_work)
WORK_FN(late_recv_work)
WORK_FN(wrong_order_work)
WORK_FN(barrier_work)
WORK_FN(allreduce_work)
WORK_FN(alltoall_work)
WORK_FN(bcast_work)
WORK_FN(reduce_work)

static void check(int ok, const char *prog, const char *what)
{
    if (!ok)
        ws_fail(prog, what);
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    ws_check_flags(argc, argv, usage, NULL);
    ws_max_positional(argc, argv, 2, usage);
    const int rounds = (int)ws_arg_long(argc, argv, 0, 3, 1, 1000000, usage);
    const double D = ws_arg_seconds(argc, argv, 1, 0.020, 10.0, usage);
    const double d = D / 2;
    ws_require_size(argv[0], size, 4, 0);
    if (size % 2)
        ws_usage_error(argv[0], usage, "needs an even number of ranks");

    const char *prog = argv[0];
    const int sender = rank % 2 == 0, partner = sender ? rank + 1 : rank - 1;
    int *sendv = malloc(sizeof(int) * (size_t)size), *recvv = malloc(sizeof(int) * (size_t)size);
    if (!sendv || !recvv)
        ws_fail(prog, "out of memory");

    for (int round = 0; round < rounds; round++) {
        int a = -1, b = -1;
        /* 1 Late Sender */
        if (sender) {
            late_send_work(D);
            MPI_Send(&round, 1, MPI_INT, partner, 0, MPI_COMM_WORLD);
        } else {
            WS_TIMED("1 MPI_Recv (Late Sender)", MPI_Recv(&a, 1, MPI_INT, partner, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            check(a == round, prog, "segment 1: wrong message");
        }
        /* 2 Late Receiver */
        if (sender) {
            WS_TIMED("2 MPI_Ssend (Late Receiver)", MPI_Ssend(&round, 1, MPI_INT, partner, 0, MPI_COMM_WORLD));
        } else {
            late_recv_work(D);
            MPI_Recv(&a, 1, MPI_INT, partner, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            check(a == round, prog, "segment 2: wrong message");
        }
        /* 3 Messages in wrong order, same source */
        if (sender) {
            const int first = 100 + round, second = 200 + round;
            MPI_Send(&first, 1, MPI_INT, partner, 1, MPI_COMM_WORLD);
            wrong_order_work(D);
            MPI_Send(&second, 1, MPI_INT, partner, 0, MPI_COMM_WORLD);
        } else {
            WS_TIMED("3 MPI_Recv (wrong order, same)", MPI_Recv(&a, 1, MPI_INT, partner, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            MPI_Recv(&b, 1, MPI_INT, partner, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            check(a == 200 + round && b == 100 + round, prog, "segment 3: wrong messages");
        }
        /* 4 Messages in wrong order, different source: rank 1 receives from 0, then from 2. */
        if (rank == 0) {
            wrong_order_work(D);
            MPI_Send(&round, 1, MPI_INT, 1, 2, MPI_COMM_WORLD);
        } else if (rank == 1) {
            WS_TIMED("4 MPI_Recv (wrong order, different)", MPI_Recv(&a, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            MPI_Recv(&b, 1, MPI_INT, 2, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            check(a == round && b == round, prog, "segment 4: wrong messages");
        } else if (rank == 2) {
            MPI_Send(&round, 1, MPI_INT, 1, 2, MPI_COMM_WORLD);
            wrong_order_work(D);
        } else {
            wrong_order_work(D);
        }
        /* 5 Wait at Barrier */
        barrier_work(rank * d);
        WS_TIMED("5 MPI_Barrier", MPI_Barrier(MPI_COMM_WORLD));
        /* 6 Wait at NxN */
        allreduce_work(rank * d);
        a = rank;
        WS_TIMED("6 MPI_Allreduce", MPI_Allreduce(&a, &b, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
        check(b == size * (size - 1) / 2, prog, "segment 6: wrong allreduce sum");
        alltoall_work((size - 1 - rank) * d);
        for (int i = 0; i < size; i++)
            sendv[i] = rank * size + i;
        WS_TIMED("6 MPI_Alltoall", MPI_Alltoall(sendv, 1, MPI_INT, recvv, 1, MPI_INT, MPI_COMM_WORLD));
        for (int i = 0; i < size; i++)
            check(recvv[i] == i * size + rank, prog, "segment 6: wrong alltoall data");
        /* 7 Late Broadcast */
        a = rank == 0 ? 700 + round : -1;
        if (rank == 0)
            bcast_work(D);
        WS_TIMED("7 MPI_Bcast", MPI_Bcast(&a, 1, MPI_INT, 0, MPI_COMM_WORLD));
        check(a == 700 + round, prog, "segment 7: wrong broadcast value");
        /* 8 Early Reduce */
        if (rank != 0)
            reduce_work(D);
        a = 1;
        WS_TIMED("8 MPI_Reduce", MPI_Reduce(&a, &b, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD));
        check(rank != 0 || b == size, prog, "segment 8: wrong reduce sum");
    }

    free(sendv);
    free(recvv);
    ws_debug_report("p2p_coll");
    if (rank == 0)
        printf("p2p_coll: %d ranks, %d rounds, delay %.3f s: ok\n", size, rounds, D);
    MPI_Finalize();
    return 0;
}
