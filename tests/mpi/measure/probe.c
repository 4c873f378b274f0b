/* probe.c: exercises what the recorder must handle beyond tests/apps: compiler-instrumented
 * functions (-finstrument-functions), manual regions (waitscope.h), derived communicators,
 * non-blocking and persistent point-to-point, matched probes (MPI_Mprobe/Improbe with
 * MPI_Mrecv/Imrecv), request-based RMA, many cheap calls (to force
 * buffer flushes with a small WAITSCOPE_BUFFER_MB) and abnormal ends: after the calls and a
 * barrier, rank 0 ends the run (--crash abort|segv|abrt|term|int: MPI_Abort, a null-pointer
 * write, abort(), SIGTERM, SIGINT) while the other ranks wait in a barrier that never completes;
 * with --hang FILE every rank waits in a receive that never completes, once rank 0 has created
 * FILE, for the test to kill the job.
 *
 * --colls N adds N barriers (records after the call: a buffer flush inside them is the case
 * the recorder must stamp in order).
 *
 *   probe [--calls N] [--colls N] [--abort] [--crash KIND] [--hang FILE]     */
#include <mpi.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>

#include "waitscope.h"

static int __attribute__((noinline)) compute(int x) { return x * 3 + 1; }
static int __attribute__((noinline)) skipped_helper(int x) { return x + 7; }
int probe_cxx(int x); /* probe_cxx.cpp: a C++ function, for demangled region names */

int main(int argc, char **argv)
{
    long calls = 0, colls = 0;
    const char *crash = NULL, *hang = NULL;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--calls") && i + 1 < argc) calls = atol(argv[++i]);
        else if (!strcmp(argv[i], "--colls") && i + 1 < argc) colls = atol(argv[++i]);
        else if (!strcmp(argv[i], "--abort")) crash = "abort";
        else if (!strcmp(argv[i], "--crash") && i + 1 < argc) crash = argv[++i];
        else if (!strcmp(argv[i], "--hang") && i + 1 < argc) hang = argv[++i];
    }
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    waitscope_region_begin("phase");
    int v = compute(rank) + skipped_helper(rank) + probe_cxx(0);
    waitscope_region_end("phase");

    /* derived communicators: a collective on each */
    MPI_Comm half, dup;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    int sum = 0;
    MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, half);
    MPI_Bcast(&sum, 1, MPI_INT, 0, dup);

    /* ring with Isend/Irecv/Waitall and with persistent requests */
    const int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int out = rank, in = -1;
    MPI_Request reqs[2];
    MPI_Irecv(&in, 1, MPI_INT, left, 1, half == MPI_COMM_NULL ? MPI_COMM_WORLD : MPI_COMM_WORLD, &reqs[0]);
    MPI_Isend(&out, 1, MPI_INT, right, 1, MPI_COMM_WORLD, &reqs[1]);
    MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
    MPI_Send_init(&out, 1, MPI_INT, right, 2, dup, &reqs[1]);
    MPI_Recv_init(&in, 1, MPI_INT, left, 2, dup, &reqs[0]);
    for (int i = 0; i < 3; ++i) {
        MPI_Startall(2, reqs);
        MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
    }
    MPI_Request_free(&reqs[0]);
    MPI_Request_free(&reqs[1]);
    /* completion with MPI_Waitany and with MPI_Testsome */
    MPI_Irecv(&in, 1, MPI_INT, left, 4, MPI_COMM_WORLD, &reqs[0]);
    MPI_Isend(&out, 1, MPI_INT, right, 4, MPI_COMM_WORLD, &reqs[1]);
    for (int k = 0; k < 2; ++k) {
        int index;
        MPI_Waitany(2, reqs, &index, MPI_STATUS_IGNORE);
    }
    MPI_Irecv(&in, 1, MPI_INT, left, 5, MPI_COMM_WORLD, &reqs[0]);
    MPI_Isend(&out, 1, MPI_INT, right, 5, MPI_COMM_WORLD, &reqs[1]);
    for (int done = 0; done < 2;) {
        int outcount, indices[2];
        MPI_Testsome(2, reqs, &outcount, indices, MPI_STATUSES_IGNORE);
        if (outcount != MPI_UNDEFINED) done += outcount;
    }
    MPI_Sendrecv(&out, 1, MPI_INT, right, 3, &in, 1, MPI_INT, left, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    /* matched probes: MPI_Mprobe + MPI_Mrecv on dup, MPI_Improbe + MPI_Imrecv + MPI_Wait on MPI_COMM_WORLD */
    MPI_Message message;
    MPI_Send(&out, 1, MPI_INT, right, 6, dup);
    MPI_Mprobe(left, 6, dup, &message, MPI_STATUS_IGNORE);
    MPI_Mrecv(&in, 1, MPI_INT, &message, MPI_STATUS_IGNORE);
    MPI_Isend(&out, 1, MPI_INT, right, 7, MPI_COMM_WORLD, &reqs[1]);
    for (int flag = 0; !flag;) MPI_Improbe(MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &flag, &message, MPI_STATUS_IGNORE);
    MPI_Imrecv(&in, 1, MPI_INT, &message, &reqs[0]);
    MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);

    /* request-based RMA in a lock_all epoch on a window of the dup'ed communicator */
    /* (Windows on the two halves of a split at once make Open MPI 4.1's osc components clash on
     * shared-memory file names, which carry the communicator id: both halves have the same.) */
    int *base;
    MPI_Win win;
    MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, dup, &base, &win);
    *base = 0;
    int hrank, hsize;
    MPI_Comm_rank(dup, &hrank);
    MPI_Comm_size(dup, &hsize);
    MPI_Barrier(dup);
    MPI_Win_lock_all(0, win);
    MPI_Request rr;
    int one = 1, got = 0;
    MPI_Rput(&one, 1, MPI_INT, (hrank + 1) % hsize, 0, 1, MPI_INT, win, &rr);
    MPI_Wait(&rr, MPI_STATUS_IGNORE);
    MPI_Win_flush((hrank + 1) % hsize, win);
    MPI_Rget(&got, 1, MPI_INT, (hrank + 1) % hsize, 0, 1, MPI_INT, win, &rr);
    MPI_Wait(&rr, MPI_STATUS_IGNORE);
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);

    for (long i = 0; i < calls; ++i) MPI_Comm_rank(MPI_COMM_WORLD, &v);
    for (long i = 0; i < colls; ++i) MPI_Barrier(MPI_COMM_WORLD);

    if (crash) {
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 0) {
            if (!strcmp(crash, "abort")) MPI_Abort(MPI_COMM_WORLD, 3);
            else if (!strcmp(crash, "segv")) *(volatile int *)(uintptr_t)v = 1; /* v is small: unmapped */
            else if (!strcmp(crash, "abrt")) abort();
            else if (!strcmp(crash, "term")) raise(SIGTERM);
            else if (!strcmp(crash, "int")) raise(SIGINT);
        }
        MPI_Barrier(MPI_COMM_WORLD); /* never completes */
    }
    if (hang) {
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 0) {
            FILE *f = fopen(hang, "w");
            if (f) fclose(f);
        }
        MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* never completes */
    }
    MPI_Comm_free(&dup);
    MPI_Comm_free(&half);
    MPI_Finalize();
    return 0;
}
