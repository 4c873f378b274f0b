/* profile_overhead_worker: times cheap MPI calls on one rank, so that what a preloaded
 * libwaitscope-measure adds per call is visible (run by waitscope-bench-profile-overhead
 * without the library, tracing and profiling).  Prints one line per kind:
 *     <kind> <calls per iteration> <best ns per call over the rounds>
 * (thread CPU time) and the peak resident set size:  hwm_kb <VmHWM>.
 * usage: profile_overhead_worker ITERATIONS ROUNDS */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* CPU time of this thread: time the machine gave to other processes does not count (the
 * benchmark measures what the library adds to a call, not how busy the machine is). */
static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static long hwm_kb(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kb = -1;
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "VmHWM:", 6) == 0)
            kb = strtol(line + 6, NULL, 10);
    if (f)
        fclose(f);
    return kb;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    const long iterations = argc > 1 ? atol(argv[1]) : 100000;
    const int rounds = argc > 2 ? atoi(argv[2]) : 5;
    int rank = 0, x = 1, y = 0;
    double best[4] = {1e30, 1e30, 1e30, 1e30};
    for (int r = 0; r < rounds; r++) {
        double t = cpu_now();
        for (long i = 0; i < iterations; i++)
            MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        double d = (cpu_now() - t) / (double)iterations;
        best[0] = d < best[0] ? d : best[0];

        t = cpu_now();
        for (long i = 0; i < iterations; i++) {
            MPI_Request req;
            MPI_Isend(&x, 1, MPI_INT, 0, 0, MPI_COMM_SELF, &req);
            MPI_Recv(&y, 1, MPI_INT, 0, 0, MPI_COMM_SELF, MPI_STATUS_IGNORE);
            MPI_Wait(&req, MPI_STATUS_IGNORE);
        }
        d = (cpu_now() - t) / (double)iterations / 3;
        best[1] = d < best[1] ? d : best[1];

        t = cpu_now();
        for (long i = 0; i < iterations; i++)
            MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_SELF);
        d = (cpu_now() - t) / (double)iterations;
        best[2] = d < best[2] ? d : best[2];

        t = cpu_now();
        for (long i = 0; i < iterations; i++)
            MPI_Barrier(MPI_COMM_SELF);
        d = (cpu_now() - t) / (double)iterations;
        best[3] = d < best[3] ? d : best[3];
    }
    printf("MPI_Comm_rank 1 %.2f\n", best[0] * 1e9);
    printf("MPI_Isend+MPI_Recv+MPI_Wait 3 %.2f\n", best[1] * 1e9);
    printf("MPI_Allreduce 1 %.2f\n", best[2] * 1e9);
    printf("MPI_Barrier 1 %.2f\n", best[3] * 1e9);
    printf("hwm_kb %ld\n", hwm_kb());
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
