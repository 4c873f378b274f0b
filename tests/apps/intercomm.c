/* intercomm.c: point-to-point over an intercommunicator, then its merge (4 ranks; even n >= 2).
 * See intercomm.expected.md.  MPI_COMM_WORLD is split into a low half (color 0) and a high half
 * (color 1); MPI_Intercomm_create joins them, local rank i of one half talking to rank i of the
 * other half (ranks in point-to-point calls on an intercommunicator name the REMOTE group).
 * D = DELAY, d = DELAY/2.  ROUNDS x:
 *   1 Late Sender     low: late_send_work(D); MPI_Send | high: MPI_Recv; then high MPI_Send back,
 *                     low MPI_Recv (the pong: no constructed wait)
 *   2 Late Receiver   high: MPI_Ssend | low: late_recv_work(D); MPI_Recv
 *   3 Non-blocking    low: MPI_Irecv, isend_work(D), MPI_Isend, MPI_Waitall | high: MPI_Irecv,
 *                     MPI_Isend, MPI_Waitall (Late Sender in the high half's MPI_Waitall)
 *   4 MPI_Barrier on the intercommunicator (recorded; the analysis does not analyze collectives on
 *     intercommunicators and says so)
 * Then MPI_Intercomm_merge (low half first) and on the merged communicator barrier_work(r*d);
 * MPI_Barrier; allreduce_work(r*d); MPI_Allreduce (Wait at Barrier and Wait at NxN).  Last,
 * MPI_Comm_idup of the merged communicator (MPI_Wait completes it) and one Late Sender on the
 * copy: rank 0 idup_send_work(D); MPI_Send | rank n-1 MPI_Recv. */
#include "common.h"

static const char *const usage = "[ROUNDS=3] [DELAY_SECONDS=0.020]";

WS_WORK_FN(late_send_work)
WS_WORK_FN(late_recv_work)
WS_WORK_FN(isend_work)
WS_WORK_FN(barrier_work)
WS_WORK_FN(allreduce_work)
WS_WORK_FN(idup_send_work)

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
    ws_require_size(argv[0], size, 2, 0);
    if (size % 2)
        ws_usage_error(argv[0], usage, "needs an even number of ranks");

    const char *prog = argv[0];
    const int half = size / 2, low = rank < half;
    MPI_Comm local, inter, merged;
    MPI_Comm_split(MPI_COMM_WORLD, low ? 0 : 1, rank, &local);
    int me = -1, flag = 0, remote = 0;
    MPI_Comm_rank(local, &me);
    /* Leaders: world rank 0 for the low half, world rank `half` for the high half. */
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, low ? half : 0, 7, &inter);
    MPI_Comm_test_inter(inter, &flag);
    MPI_Comm_remote_size(inter, &remote);
    ws_check(flag && remote == half, prog, "MPI_Intercomm_create gave no intercommunicator of the other half");
    const int peer = me; /* rank `me` of the remote group */

    for (int round = 0; round < rounds; round++) {
        int a = -1, b = -1;
        /* 1 Late Sender, then the pong */
        if (low) {
            late_send_work(D);
            MPI_Send(&round, 1, MPI_INT, peer, 1, inter);
            MPI_Recv(&a, 1, MPI_INT, peer, 2, inter, MPI_STATUS_IGNORE);
            ws_check(a == round + 1000, prog, "segment 1: wrong pong");
        } else {
            MPI_Recv(&a, 1, MPI_INT, peer, 1, inter, MPI_STATUS_IGNORE);
            ws_check(a == round, prog, "segment 1: wrong ping");
            b = round + 1000;
            MPI_Send(&b, 1, MPI_INT, peer, 2, inter);
        }
        /* 2 Late Receiver */
        if (low) {
            late_recv_work(D);
            MPI_Recv(&a, 1, MPI_INT, peer, 3, inter, MPI_STATUS_IGNORE);
            ws_check(a == 2000 + round, prog, "segment 2: wrong message");
        } else {
            b = 2000 + round;
            MPI_Ssend(&b, 1, MPI_INT, peer, 3, inter);
        }
        /* 3 Non-blocking both ways */
        MPI_Request requests[2];
        MPI_Status statuses[2]; /* not MPI_STATUSES_IGNORE: MPICH's (MPI_Status *)1 trips GCC's access checks */
        b = (low ? 3000 : 4000) + round;
        MPI_Irecv(&a, 1, MPI_INT, peer, 4, inter, &requests[0]);
        if (low)
            isend_work(D);
        MPI_Isend(&b, 1, MPI_INT, peer, 4, inter, &requests[1]);
        MPI_Waitall(2, requests, statuses);
        ws_check(a == (low ? 4000 : 3000) + round, prog, "segment 3: wrong message");
        /* 4 A collective on the intercommunicator */
        MPI_Barrier(inter);
    }

    /* The merged intracommunicator: the low half first, so its ranks are the world ranks. */
    MPI_Intercomm_merge(inter, low ? 0 : 1, &merged);
    int mrank = -1, msize = 0;
    MPI_Comm_rank(merged, &mrank);
    MPI_Comm_size(merged, &msize);
    ws_check(mrank == rank && msize == size, prog, "MPI_Intercomm_merge: unexpected ranks");
    barrier_work(mrank * d);
    MPI_Barrier(merged);
    allreduce_work(mrank * d);
    int one = 1, sum = 0;
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, merged);
    ws_check(sum == size, prog, "merged: wrong allreduce sum");

    MPI_Comm copy;
    MPI_Request request;
    MPI_Comm_idup(merged, &copy, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    if (mrank == 0) {
        idup_send_work(D);
        MPI_Send(&sum, 1, MPI_INT, msize - 1, 9, copy);
    } else if (mrank == msize - 1) {
        int got = -1;
        MPI_Recv(&got, 1, MPI_INT, 0, 9, copy, MPI_STATUS_IGNORE);
        ws_check(got == size, prog, "idup: wrong message");
    }

    MPI_Comm_free(&copy);
    MPI_Comm_free(&merged);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);
    if (rank == 0)
        printf("intercomm: %d ranks, %d rounds, delay %.3f s: ok\n", size, rounds, D);
    MPI_Finalize();
    return 0;
}
