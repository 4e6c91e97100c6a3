/* grid.h - What the ScaLAPACK peers of bench/gemm and bench/chol share: the
 * BLACS and ScaLAPACK tool routines they call, a process grid, and
 * matrices generated in place in the 2D block-cyclic layout. */
#ifndef CMM_BENCH_SCALAPACK_GRID_H
#define CMM_BENCH_SCALAPACK_GRID_H

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>

void Cblacs_pinfo(int *, int *);
void Cblacs_get(int, int, int *);
void Cblacs_gridinit(int *, const char *, int, int);
void Cblacs_gridinfo(int, int *, int *, int *, int *);
void Cblacs_gridexit(int);
int numroc_(const int *, const int *, const int *, const int *, const int *);
void descinit_(int *, const int *, const int *, const int *, const int *,
               const int *, const int *, const int *, const int *, int *);
void openblas_set_num_threads(int);

/* A process grid of prows x pcols ranks and this rank's place in it. */
struct grid {
  int ctxt, prows, pcols, myrow, mycol, me;
};

/* Sets up `g`, with one BLAS thread per rank (ScaLAPACK's parallelism is
 * its ranks); 0 after MPI_Finalize when the ranks do not make the grid
 * (said on rank 0). */
static int grid_init(struct grid *g, int prows, int pcols) {
  int np, nr, nc;
  openblas_set_num_threads(1);
  Cblacs_pinfo(&g->me, &np);
  if (prows * pcols != np) {
    if (g->me == 0)
      fprintf(stderr, "grid %dx%d needs %d ranks, got %d\n", prows, pcols,
              prows * pcols, np);
    MPI_Finalize();
    return 0;
  }
  g->prows = prows;
  g->pcols = pcols;
  Cblacs_get(-1, 0, &g->ctxt);
  Cblacs_gridinit(&g->ctxt, "Row", prows, pcols);
  Cblacs_gridinfo(g->ctxt, &nr, &nc, &g->myrow, &g->mycol);
  return 1;
}

/* The descriptor of a rows x cols matrix of NB x NB blocks on the grid
 * (its local leading dimension is desc[8]); the doubles of the local part. */
static size_t grid_matrix(const struct grid *g, int rows, int cols, int nb,
                          int desc[9]) {
  int zero = 0, info;
  int lr = numroc_(&rows, &nb, &g->myrow, &zero, &g->prows);
  int lc = numroc_(&cols, &nb, &g->mycol, &zero, &g->pcols);
  int ld = lr > 1 ? lr : 1;
  descinit_(desc, &rows, &cols, &nb, &nb, &zero, &zero, &g->ctxt, &ld, &info);
  return (size_t)ld * (lc > 0 ? lc : 1);
}

/* A uniform [0, 1) value of (i, j); with `symmetric`, of {i, j}. */
static double grid_element(uint64_t seed, uint64_t i, uint64_t j,
                           int symmetric) {
  if (symmetric && i > j) {
    uint64_t t = i;
    i = j;
    j = t;
  }
  uint64_t x = seed * 0x9e3779b97f4a7c15ULL ^ (i << 32 ^ j);
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return (double)(x >> 11) * 0x1.0p-53;
}

/* The local part of a rows x cols matrix (column-major, leading dimension
 * ld, NB x NB blocks), `diagonal` added on the diagonal. */
static void grid_fill(const struct grid *g, double *a, int rows, int cols,
                      int nb, int ld, uint64_t seed, int symmetric,
                      double diagonal) {
  int lc = 0;
  for (int gc = 0; gc < cols; ++gc) {
    if ((gc / nb) % g->pcols != g->mycol)
      continue;
    int lr = 0;
    for (int gr = 0; gr < rows; ++gr) {
      if ((gr / nb) % g->prows != g->myrow)
        continue;
      a[(size_t)lc * ld + lr] =
          grid_element(seed, gr, gc, symmetric) + (gr == gc ? diagonal : 0.0);
      ++lr;
    }
    ++lc;
  }
}

/* qsort's order on doubles (the medians of the repetitions). */
static int grid_compare(const void *x, const void *y) {
  double a = *(const double *)x, b = *(const double *)y;
  return (a > b) - (a < b);
}

#endif /* CMM_BENCH_SCALAPACK_GRID_H */
