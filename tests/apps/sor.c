/* sor.c: red-black SOR for the Poisson equation -lap(u) = 1 on the unit square (u = 0 on the
 * boundary), N x N grid points, interior rows distributed in blocks over the ranks.
 * See sor.expected.md.  Per iteration:
 *   for colour in (red, black):
 *     halo exchange: GATS  MPI_Win_post(nbrs); MPI_Win_start(nbrs); MPI_Put first row to the
 *                          upper neighbour's lower halo, last row to the lower neighbour's upper
 *                          halo; MPI_Win_complete; MPI_Win_wait
 *                    or with --fence: MPI_Win_fence; the same puts; MPI_Win_fence (two fences
 *                    per exchange, so no put can reach a halo that a sweep is still reading)
 *     update the points of that colour
 *   MPI_Allreduce(sum of squared updates)  -> the residual
 * The halo exchange runs before each colour, so ITERS iterations are 2*ITERS exchanges.
 * Rank 0 prints the final residual. */
#include <math.h>
#include "common.h"

static const char *const usage = "[N=770] [ITERS=600] [--fence]";

/* Block distribution of the n_inner interior rows: first row (1-based global) and count. */
static void rows_of(int n_inner, int nranks, int r, int *first, int *count)
{
    const int base = n_inner / nranks, extra = n_inner % nranks;
    *count = base + (r < extra ? 1 : 0);
    *first = 1 + r * base + (r < extra ? r : extra);
}

/* One colour sweep over the local rows; returns the sum of squared updates. */
static double __attribute__((noinline)) sweep(double *u, int rows, int first_row, int n, double h2, double omega,
                                              int colour)
{
    double sum = 0.0;
    for (int i = 1; i <= rows; i++) {
        const int gi = first_row + i - 1;
        double *row = u + (size_t)i * n;
        const double *up = row - n, *down = row + n;
        for (int j = 1 + ((gi + 1 + colour) % 2); j < n - 1; j += 2) {
            const double gs = 0.25 * (up[j] + down[j] + row[j - 1] + row[j + 1] + h2);
            const double delta = omega * (gs - row[j]);
            row[j] += delta;
            sum += delta * delta;
        }
    }
    return sum;
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    static const char *const flags[] = {"--fence", NULL};
    ws_check_flags(argc, argv, usage, flags);
    ws_max_positional(argc, argv, 2, usage);
    const int n = (int)ws_arg_long(argc, argv, 0, 770, 4, 100000, usage);
    const int iters = (int)ws_arg_long(argc, argv, 1, 600, 1, 10000000, usage);
    const int use_fence = ws_has_flag(argc, argv, "--fence");
    ws_require_size(argv[0], size, 2, 0);
    if (n - 2 < size)
        ws_usage_error(argv[0], usage, "N-2 must be at least the number of ranks");

    int first, rows;
    rows_of(n - 2, size, rank, &first, &rows);
    const int up = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    const int down = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
    int up_rows = 0, dummy;
    if (up != MPI_PROC_NULL)
        rows_of(n - 2, size, up, &dummy, &up_rows);

    /* Local block: halo row 0, rows 1..rows, halo row rows+1; all zero (the boundary). */
    const size_t cells = (size_t)(rows + 2) * n;
    double *u;
    MPI_Alloc_mem((MPI_Aint)(cells * sizeof(double)), MPI_INFO_NULL, &u);
    for (size_t k = 0; k < cells; k++)
        u[k] = 0.0;
    MPI_Win win;
    MPI_Win_create(u, (MPI_Aint)(cells * sizeof(double)), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &win);

    MPI_Group world_group, nbr_group;
    MPI_Comm_group(MPI_COMM_WORLD, &world_group);
    int nbrs[2], nnbr = 0;
    if (up != MPI_PROC_NULL)
        nbrs[nnbr++] = up;
    if (down != MPI_PROC_NULL)
        nbrs[nnbr++] = down;
    MPI_Group_incl(world_group, nnbr, nbrs, &nbr_group);

    const double h = 1.0 / (n - 1), h2 = h * h;
    const double omega = 2.0 / (1.0 + sin(3.14159265358979323846 * h)); /* optimal SOR parameter */
    double residual = 0.0;
    for (int it = 0; it < iters; it++) {
        double local = 0.0;
        for (int colour = 0; colour < 2; colour++) {
            if (!use_fence) {
                MPI_Win_post(nbr_group, 0, win);
                MPI_Win_start(nbr_group, 0, win);
            } else {
                MPI_Win_fence(0, win);
            }
            /* my first row -> upper neighbour's lower halo; my last row -> lower neighbour's upper halo */
            if (up != MPI_PROC_NULL)
                MPI_Put(u + n, n, MPI_DOUBLE, up, (MPI_Aint)(up_rows + 1) * n, n, MPI_DOUBLE, win);
            if (down != MPI_PROC_NULL)
                MPI_Put(u + (size_t)rows * n, n, MPI_DOUBLE, down, 0, n, MPI_DOUBLE, win);
            if (!use_fence) {
                MPI_Win_complete(win);
                MPI_Win_wait(win);
            } else {
                MPI_Win_fence(0, win);
            }
            local += sweep(u, rows, first, n, h2, omega, colour);
        }
        MPI_Allreduce(&local, &residual, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        residual = sqrt(residual);
    }
    if (!(residual >= 0.0) || isinf(residual))
        ws_fail(argv[0], "the residual is not a finite number");

    MPI_Group_free(&nbr_group);
    MPI_Group_free(&world_group);
    MPI_Win_free(&win);
    MPI_Free_mem(u);
    if (rank == 0)
        printf("sor: %d ranks, %dx%d grid, %d iterations, %s halo exchange: residual %.6e\n", size, n, n, iters,
               use_fence ? "fence" : "GATS", residual);
    MPI_Finalize();
    return 0;
}
