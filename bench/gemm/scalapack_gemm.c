/* scalapack_gemm.c - ScaLAPACK's pdgemm on one product, the peer of
 * cmm-cosma-gemm in bench/gemm/run.
 *
 *   mpirun -np P scalapack-gemm M N K NB PROWS PCOLS [REPEAT]
 *
 * A (M x K), B (K x N) and C in the 2D block-cyclic layout of a PROWS x
 * PCOLS grid with NB x NB blocks, generated in place (no communication),
 * then C = A B with pdgemm, REPEAT times; rank 0 prints the median time.
 * Bytes are counted by the PMPI library (bench/pmpi) around the whole run;
 * generation and grid set-up move none.
 */
#include "../scalapack/grid.h"

#include <stdlib.h>

void pdgemm_(const char *, const char *, const int *, const int *, const int *,
             const double *, const double *, const int *, const int *,
             const int *, const double *, const int *, const int *, const int *,
             const double *, double *, const int *, const int *, const int *);

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  if (argc < 7) {
    fprintf(stderr, "usage: scalapack-gemm M N K NB PROWS PCOLS [REPEAT]\n");
    MPI_Finalize();
    return 2;
  }
  int m = atoi(argv[1]), n = atoi(argv[2]), k = atoi(argv[3]);
  int nb = atoi(argv[4]), prows = atoi(argv[5]), pcols = atoi(argv[6]);
  int repeat = argc > 7 ? atoi(argv[7]) : 1;
  struct grid g;
  if (!grid_init(&g, prows, pcols))
    return 2;
  int desca[9], descb[9], descc[9], one = 1;
  double *a = calloc(grid_matrix(&g, m, k, nb, desca), sizeof(double));
  double *b = calloc(grid_matrix(&g, k, n, nb, descb), sizeof(double));
  double *c = calloc(grid_matrix(&g, m, n, nb, descc), sizeof(double));
  grid_fill(&g, a, m, k, nb, desca[8], 1, 0, 0.0);
  grid_fill(&g, b, k, n, nb, descb[8], 2, 0, 0.0);
  double alpha = 1, beta = 0;
  double *times = malloc(sizeof(double) * repeat);
  for (int t = 0; t < repeat; ++t) {
    MPI_Barrier(MPI_COMM_WORLD);
    double start = MPI_Wtime();
    pdgemm_("N", "N", &m, &n, &k, &alpha, a, &one, &one, desca, b, &one,
            &one, descb, &beta, c, &one, &one, descc);
    double local = MPI_Wtime() - start, slowest = 0;
    MPI_Allreduce(&local, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    times[t] = slowest;
  }
  qsort(times, repeat, sizeof(double), grid_compare);
  if (g.me == 0)
    printf("scalapack %dx%dx%d nb %d grid %dx%d: median %.4f s\n", m, n, k,
           nb, prows, pcols, times[repeat / 2]);
  Cblacs_gridexit(g.ctxt);
  MPI_Finalize();
  return 0;
}
