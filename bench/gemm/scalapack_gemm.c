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
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

void Cblacs_pinfo(int *, int *);
void Cblacs_get(int, int, int *);
void Cblacs_gridinit(int *, const char *, int, int);
void Cblacs_gridinfo(int, int *, int *, int *, int *);
void Cblacs_gridexit(int);
int numroc_(const int *, const int *, const int *, const int *, const int *);
void descinit_(int *, const int *, const int *, const int *, const int *,
               const int *, const int *, const int *, const int *, int *);
void pdgemm_(const char *, const char *, const int *, const int *,
             const int *, const double *, const double *, const int *,
             const int *, const int *, const double *, const int *,
             const int *, const int *, const double *, double *, const int *,
             const int *, const int *);
void openblas_set_num_threads(int);

static double element(uint64_t seed, uint64_t i, uint64_t j) {
  uint64_t x = seed * 0x9e3779b97f4a7c15ULL ^ (i << 32 ^ j);
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return (double)(x >> 11) * 0x1.0p-53;
}

/* Fills the local part of a rows x cols matrix (column-major, leading
 * dimension ld) of a block-cyclic layout. */
static void fill(double *a, int rows, int cols, int nb, int myrow, int mycol,
                 int prows, int pcols, int ld, uint64_t seed) {
  int lr = 0, lc = 0;
  for (int gc = 0; gc < cols; ++gc) {
    if ((gc / nb) % pcols != mycol)
      continue;
    lr = 0;
    for (int gr = 0; gr < rows; ++gr) {
      if ((gr / nb) % prows != myrow)
        continue;
      a[(size_t)lc * ld + lr] = element(seed, gr, gc);
      ++lr;
    }
    ++lc;
  }
}

static int cmp(const void *x, const void *y) {
  double a = *(const double *)x, b = *(const double *)y;
  return (a > b) - (a < b);
}

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
  openblas_set_num_threads(1);
  int me, np, ctxt, myrow, mycol, nr, nc;
  Cblacs_pinfo(&me, &np);
  if (prows * pcols != np) {
    if (me == 0)
      fprintf(stderr, "grid %dx%d needs %d ranks, got %d\n", prows, pcols,
              prows * pcols, np);
    MPI_Finalize();
    return 2;
  }
  Cblacs_get(-1, 0, &ctxt);
  Cblacs_gridinit(&ctxt, "Row", prows, pcols);
  Cblacs_gridinfo(ctxt, &nr, &nc, &myrow, &mycol);
  int zero = 0, one = 1, info;
  int ar = numroc_(&m, &nb, &myrow, &zero, &prows);
  int ac = numroc_(&k, &nb, &mycol, &zero, &pcols);
  int br = numroc_(&k, &nb, &myrow, &zero, &prows);
  int bc = numroc_(&n, &nb, &mycol, &zero, &pcols);
  int cr = numroc_(&m, &nb, &myrow, &zero, &prows);
  int cc = numroc_(&n, &nb, &mycol, &zero, &pcols);
  int lda = ar > 1 ? ar : 1, ldb = br > 1 ? br : 1, ldc = cr > 1 ? cr : 1;
  int desca[9], descb[9], descc[9];
  descinit_(desca, &m, &k, &nb, &nb, &zero, &zero, &ctxt, &lda, &info);
  descinit_(descb, &k, &n, &nb, &nb, &zero, &zero, &ctxt, &ldb, &info);
  descinit_(descc, &m, &n, &nb, &nb, &zero, &zero, &ctxt, &ldc, &info);
  double *a = calloc((size_t)lda * (ac > 0 ? ac : 1), sizeof(double));
  double *b = calloc((size_t)ldb * (bc > 0 ? bc : 1), sizeof(double));
  double *c = calloc((size_t)ldc * (cc > 0 ? cc : 1), sizeof(double));
  fill(a, m, k, nb, myrow, mycol, prows, pcols, lda, 1);
  fill(b, k, n, nb, myrow, mycol, prows, pcols, ldb, 2);
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
  qsort(times, repeat, sizeof(double), cmp);
  if (me == 0)
    printf("scalapack %dx%dx%d nb %d grid %dx%d: median %.4f s\n", m, n, k,
           nb, prows, pcols, times[repeat / 2]);
  Cblacs_gridexit(ctxt);
  MPI_Finalize();
  return 0;
}
