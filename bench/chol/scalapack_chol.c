/* scalapack_chol.c - ScaLAPACK's pdpotrf and pdpotrs on one symmetric
 * positive definite system, the peer of cmm's chol and triangular solves
 * in bench/chol/run.
 *
 *   mpirun -np P scalapack-chol N NB PROWS PCOLS [REPEAT]
 *
 * A (N x N, symmetric, N on the diagonal: positive definite) and b (N x 1)
 * in the 2D block-cyclic layout of a PROWS x PCOLS grid with NB x NB
 * blocks, generated in place (no communication), then A = R' R (pdpotrf)
 * and x = A \ b from the factor (pdpotrs), REPEAT times on fresh copies;
 * rank 0 prints the median time of the factorization and of both. One
 * BLAS thread per rank (ScaLAPACK's parallelism is its ranks).
 */
#include "../scalapack/grid.h"

#include <stdlib.h>
#include <string.h>

void pdpotrf_(const char *, const int *, double *, const int *, const int *,
              const int *, int *);
void pdpotrs_(const char *, const int *, const int *, const double *,
              const int *, const int *, const int *, double *, const int *,
              const int *, const int *, int *);

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  if (argc < 5) {
    fprintf(stderr, "usage: scalapack-chol N NB PROWS PCOLS [REPEAT]\n");
    MPI_Finalize();
    return 2;
  }
  int n = atoi(argv[1]), nb = atoi(argv[2]);
  int prows = atoi(argv[3]), pcols = atoi(argv[4]);
  int repeat = argc > 5 ? atoi(argv[5]) : 1;
  struct grid g;
  if (!grid_init(&g, prows, pcols))
    return 2;
  int desca[9], descb[9], one = 1, info;
  size_t asize = grid_matrix(&g, n, n, nb, desca);
  size_t bsize = grid_matrix(&g, n, 1, nb, descb);
  double *a0 = calloc(asize, sizeof(double)),
         *a = calloc(asize, sizeof(double));
  double *b0 = calloc(bsize, sizeof(double)),
         *b = calloc(bsize, sizeof(double));
  /* A = A' with n added on the diagonal: positive definite. */
  grid_fill(&g, a0, n, n, nb, desca[8], 1, 1, (double)n);
  grid_fill(&g, b0, n, 1, nb, descb[8], 2, 0, 0.0);
  double *factor = malloc(sizeof(double) * repeat);
  double *both = malloc(sizeof(double) * repeat);
  for (int t = 0; t < repeat; ++t) {
    memcpy(a, a0, asize * sizeof(double));
    memcpy(b, b0, bsize * sizeof(double));
    MPI_Barrier(MPI_COMM_WORLD);
    double start = MPI_Wtime();
    pdpotrf_("U", &n, a, &one, &one, desca, &info);
    double mid = MPI_Wtime();
    if (info != 0 && g.me == 0)
      fprintf(stderr, "pdpotrf: info %d\n", info);
    pdpotrs_("U", &n, &one, a, &one, &one, desca, b, &one, &one, descb, &info);
    double local[2] = {mid - start, MPI_Wtime() - start}, slowest[2];
    MPI_Allreduce(local, slowest, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    factor[t] = slowest[0];
    both[t] = slowest[1];
  }
  qsort(factor, repeat, sizeof(double), grid_compare);
  qsort(both, repeat, sizeof(double), grid_compare);
  if (g.me == 0)
    printf("scalapack chol %d nb %d grid %dx%d: pdpotrf median %.4f s, "
           "pdpotrf+pdpotrs median %.4f s\n",
           n, nb, prows, pcols, factor[repeat / 2], both[repeat / 2]);
  Cblacs_gridexit(g.ctxt);
  MPI_Finalize();
  return 0;
}
