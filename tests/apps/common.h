/* common.h: shared helpers for the Waitscope example MPI programs (tests/apps).
 *
 * busy_wait() spins on MPI_Wtime, so the delay is computation (not sleep) and shows up in
 * the user function that calls it (work(), foo(), ...): every such function is noinline so
 * that, compiled with -finstrument-functions, it is a region of its own.
 *
 * Argument helpers: positional arguments are the ones that do not start with "--";
 * flags are "--name" anywhere on the command line.  All ranks parse the same argv, so an
 * error is detected by every rank; ws_usage_error() prints once (rank 0) and exits 2.
 */
#ifndef WAITSCOPE_APPS_COMMON_H
#define WAITSCOPE_APPS_COMMON_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WS_NOINSTR __attribute__((no_instrument_function, unused))

static volatile double ws_sink;

/* Busy-wait for `seconds` of wall-clock time (a region of its own when instrumented). */
static void __attribute__((noinline, unused)) busy_wait(double seconds)
{
    double t0 = MPI_Wtime();
    double x = 0.0;
    while (MPI_Wtime() - t0 < seconds) {
        for (int i = 0; i < 100; i++)
            x += 1e-9 * i;
    }
    ws_sink = x;
}

static int WS_NOINSTR ws_rank(void)
{
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    return rank;
}

/* Print a usage/argument error on rank 0, then finalize and exit(2) on every rank. */
static void WS_NOINSTR ws_usage_error(const char *prog, const char *usage, const char *what)
{
    if (ws_rank() == 0)
        fprintf(stderr, "%s: %s\nusage: %s %s\n", prog, what, prog, usage);
    MPI_Finalize();
    exit(2);
}

/* Abort the whole job with a message (a failed self-check: the program computed wrong data). */
static void WS_NOINSTR ws_fail(const char *prog, const char *what)
{
    fprintf(stderr, "%s: rank %d: %s\n", prog, ws_rank(), what);
    MPI_Abort(MPI_COMM_WORLD, 1);
}

/* ws_fail unless `ok`. */
static void WS_NOINSTR ws_check(int ok, const char *prog, const char *what)
{
    if (!ok)
        ws_fail(prog, what);
}

/* A work function of its own name (a region of its own when instrumented) that busy-waits. */
#define WS_WORK_FN(name)                                                                           \
    static void __attribute__((noinline)) name(double seconds)                                     \
    {                                                                                              \
        busy_wait(seconds);                                                                        \
    }

/* 1 if "--flag" occurs in argv. */
static int WS_NOINSTR ws_has_flag(int argc, char **argv, const char *flag)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], flag) == 0)
            return 1;
    return 0;
}

/* Reject any "--" argument that is not in the NULL-terminated list `known`. */
static void WS_NOINSTR ws_check_flags(int argc, char **argv, const char *usage, const char *const *known)
{
    for (int i = 1; i < argc; i++) {
        if (strncmp(argv[i], "--", 2) != 0)
            continue;
        int ok = 0;
        for (const char *const *k = known; k && *k; k++)
            ok |= strcmp(argv[i], *k) == 0;
        if (!ok) {
            char msg[256];
            snprintf(msg, sizeof msg, "unknown option '%s'", argv[i]);
            ws_usage_error(argv[0], usage, msg);
        }
    }
}

/* The index-th positional argument (0-based), or NULL. */
static const char *WS_NOINSTR ws_positional(int argc, char **argv, int index)
{
    for (int i = 1; i < argc; i++) {
        if (strncmp(argv[i], "--", 2) == 0)
            continue;
        if (index-- == 0)
            return argv[i];
    }
    return NULL;
}

/* Positional integer argument in [min, max], `def` when absent. */
static long WS_NOINSTR ws_arg_long(int argc, char **argv, int index, long def, long min, long max,
                                   const char *usage)
{
    const char *s = ws_positional(argc, argv, index);
    if (!s)
        return def;
    char *end = NULL;
    long v = strtol(s, &end, 10);
    if (*s == '\0' || *end != '\0' || v < min || v > max) {
        char msg[256];
        snprintf(msg, sizeof msg, "argument %d ('%s') must be an integer in [%ld, %ld]", index + 1, s, min, max);
        ws_usage_error(argv[0], usage, msg);
    }
    return v;
}

/* Positional seconds argument in [0, max], `def` when absent. */
static double WS_NOINSTR ws_arg_seconds(int argc, char **argv, int index, double def, double max,
                                        const char *usage)
{
    const char *s = ws_positional(argc, argv, index);
    if (!s)
        return def;
    char *end = NULL;
    double v = strtod(s, &end);
    if (*s == '\0' || *end != '\0' || !(v >= 0.0 && v <= max)) {
        char msg[256];
        snprintf(msg, sizeof msg, "argument %d ('%s') must be seconds in [0, %g]", index + 1, s, max);
        ws_usage_error(argv[0], usage, msg);
    }
    return v;
}

/* Require at most `max` positional arguments. */
static void WS_NOINSTR ws_max_positional(int argc, char **argv, int max, const char *usage)
{
    if (ws_positional(argc, argv, max) != NULL)
        ws_usage_error(argv[0], usage, "too many arguments");
}

/* Require a communicator size in [min, max] (max 0 = unbounded); exit(2) otherwise. */
static void WS_NOINSTR ws_require_size(const char *prog, int size, int min, int max)
{
    if (size < min || (max > 0 && size > max)) {
        if (ws_rank() == 0) {
            if (max > 0)
                fprintf(stderr, "%s: needs %d to %d ranks, got %d\n", prog, min, max, size);
            else
                fprintf(stderr, "%s: needs at least %d ranks, got %d\n", prog, min, size);
        }
        MPI_Finalize();
        exit(2);
    }
}

/* Debug timing (only with -DWS_DEBUG_TIMES): WS_TIMED("label", stmt) accumulates the wall time
 * of stmt per label; ws_debug_report() prints the sums per rank.  Used to check the expected
 * wait states against what a run produces; compiled out in normal builds. */
#ifdef WS_DEBUG_TIMES
#define WS_MAX_SLOTS 32
static const char *ws_slot_name[WS_MAX_SLOTS];
static double ws_slot_time[WS_MAX_SLOTS];
static long ws_slot_count[WS_MAX_SLOTS];
static int WS_NOINSTR ws_slot(const char *label)
{
    int i = 0;
    for (; i < WS_MAX_SLOTS && ws_slot_name[i]; i++)
        if (strcmp(ws_slot_name[i], label) == 0)
            return i;
    if (i == WS_MAX_SLOTS)
        abort();
    ws_slot_name[i] = label;
    return i;
}
#define WS_TIMED(label, stmt)                                                                      \
    do {                                                                                           \
        double ws_t0_ = MPI_Wtime();                                                               \
        stmt;                                                                                      \
        int ws_s_ = ws_slot(label);                                                                \
        ws_slot_time[ws_s_] += MPI_Wtime() - ws_t0_;                                               \
        ws_slot_count[ws_s_]++;                                                                    \
    } while (0)
static void WS_NOINSTR ws_debug_report(const char *prog)
{
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int r = 0; r < size; r++) {
        MPI_Barrier(MPI_COMM_WORLD);
        if (r != rank)
            continue;
        for (int i = 0; i < WS_MAX_SLOTS && ws_slot_name[i]; i++)
            fprintf(stderr, "[debug] %s rank %d %-28s %8.4f s  %ld calls\n", prog, rank, ws_slot_name[i],
                    ws_slot_time[i], ws_slot_count[i]);
        fflush(stderr);
    }
}
#else
#define WS_TIMED(label, stmt) stmt
#define ws_debug_report(prog) ((void)0)
#endif

#endif /* WAITSCOPE_APPS_COMMON_H */
