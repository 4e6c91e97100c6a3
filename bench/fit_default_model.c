/* fit_default_model.c - measurements behind builtinMachineModel()
 *
 * Times the tile kernels of docs/machine-model.md on this machine and fits
 * the Table 1 polynomials by ordinary least squares:
 *   gemm, solve (inverse):             t = a0 + a7 * m n k
 *   elementwise, copy, map, reduce,
 *   transpose, generate:               t = a0 + a4 * m n
 * If the unconstrained fit gives a0 < 0 (model files forbid negative
 * coefficients), it refits through the origin (a0 = 0).
 *
 * Usage (keep the machine's OPENBLAS_CORETYPE as it is):
 *   cc -O2 bench/fit_default_model.c -o /tmp/fit -lopenblas -lm
 *   /tmp/fit            # raw timings (minimum over ROUNDS x REPS calls)
 *                       # and the fits; takes about a minute
 *
 * With -DPINGPONG and mpicc it is instead an MPI ping-pong between two ranks
 * on this machine (the loopback links of the built-in model):
 *   mpicc -O2 -DPINGPONG bench/fit_default_model.c -o /tmp/pingpong
 *   mpirun --allow-run-as-root -np 2 /tmp/pingpong
 * The non-BLAS kernels are plain single-threaded loops like the runtime's.
 * They are fitted over arrays much larger than the last-level cache (the
 * DRAM regime: m = n = 3000..6000, 72..288 MB per array) with outputs
 * written once before timing, so page faults are not counted; one in-cache
 * size (m = n = 1000) is printed for comparison but not fitted.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef PINGPONG
#include <mpi.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const long sizes[] = {8, 1 << 20, 8 << 20, 32 << 20, 128 << 20};
  char *buf = malloc(128 << 20);
  memset(buf, 1, 128 << 20);
  for (int s = 0; s < 5; ++s) {
    long bytes = sizes[s];
    int iters = bytes <= 8 ? 10000 : 20;
    double best = 1e30;
    for (int r = 0; r < 5; ++r) {
      MPI_Barrier(MPI_COMM_WORLD);
      double t0 = MPI_Wtime();
      for (int i = 0; i < iters; ++i) {
        if (rank == 0) {
          MPI_Send(buf, (int)bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
          MPI_Recv(buf, (int)bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD,
                   MPI_STATUS_IGNORE);
        } else {
          MPI_Recv(buf, (int)bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD,
                   MPI_STATUS_IGNORE);
          MPI_Send(buf, (int)bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
        }
      }
      double t = (MPI_Wtime() - t0) / (2.0 * iters); /* one way */
      if (t < best)
        best = t;
    }
    if (rank == 0)
      printf("pingpong bytes=%ld one_way_s=%.4g bandwidth_Bps=%.4g\n", bytes,
             best, bytes / best);
  }
  free(buf);
  MPI_Finalize();
  return 0;
}

#else
#include <cblas.h>

void openblas_set_num_threads(int);
void dgetrf_(const int *, const int *, double *, const int *, int *, int *);
void dgetri_(const int *, double *, const int *, const int *, double *,
             const int *, int *);

enum { REPS = 3 };

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static double *randomArray(size_t n) {
  double *p = malloc(n * sizeof(double));
  for (size_t i = 0; i < n; ++i)
    p[i] = (double)rand() / RAND_MAX + 0.5;
  return p;
}

static volatile double sink;

/* Least squares t = a0 + a * x; a0 forced to 0 if it would be negative. */
static void fit(const char *name, const double *x, const double *t, int n) {
  double sx = 0, st = 0, sxx = 0, sxt = 0;
  for (int i = 0; i < n; ++i) {
    sx += x[i];
    st += t[i];
    sxx += x[i] * x[i];
    sxt += x[i] * t[i];
  }
  double a = (n * sxt - sx * st) / (n * sxx - sx * sx);
  double a0 = (st - a * sx) / n;
  const char *note = "";
  if (a0 < 0) {
    a0 = 0;
    a = sxt / sxx;
    note = " (a0 < 0 in the free fit: refit through the origin)";
  }
  double ssr = 0, sst = 0, mean = st / n;
  for (int i = 0; i < n; ++i) {
    double r = t[i] - (a0 + a * x[i]);
    ssr += r * r;
    sst += (t[i] - mean) * (t[i] - mean);
  }
  printf("fit %-12s a0 = %.4e s  a = %.4e s/unit  R^2 = %.5f%s\n", name, a0,
         a, 1 - ssr / sst, note);
  for (int i = 0; i < n; ++i)
    printf("    x = %.4g  measured %.4e  fitted %.4e  (%+.1f%%)\n", x[i], t[i],
           a0 + a * x[i], 100 * ((a0 + a * x[i]) / t[i] - 1));
}

static uint64_t mix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

enum Kind { ADD, COPY, MAP, REDUCE, TRANSPOSE, GENERATE };

static double runStreaming(enum Kind kind, int m, int n) {
  size_t len = (size_t)m * n;
  double *a = randomArray(len), *b = randomArray(len);
  double *c = malloc(len * sizeof(double));
  memset(c, 0, len * sizeof(double)); /* page faults before timing */
  double best = 1e30;
  for (int r = 0; r < REPS; ++r) {
    double t0 = now();
    double s = 0;
    switch (kind) {
    case ADD:
      for (size_t i = 0; i < len; ++i)
        c[i] = a[i] + b[i];
      break;
    case COPY:
      memcpy(c, a, len * sizeof(double));
      break;
    case MAP:
      for (size_t i = 0; i < len; ++i)
        c[i] = exp(a[i]);
      break;
    case REDUCE:
      for (size_t i = 0; i < len; ++i)
        s += a[i];
      break;
    case TRANSPOSE: /* 32 x 32 blocks */
      for (int i0 = 0; i0 < m; i0 += 32)
        for (int j0 = 0; j0 < n; j0 += 32)
          for (int i = i0; i < i0 + 32 && i < m; ++i)
            for (int j = j0; j < j0 + 32 && j < n; ++j)
              c[(size_t)j * m + i] = a[(size_t)i * n + j];
      break;
    case GENERATE: /* the runtime's counter-based uniform: 4 mix64 rounds */
      for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
          uint64_t h = mix64(42 ^ 0x636d6d5f72616e64ULL);
          h = mix64(h ^ 7);
          h = mix64(h ^ (uint64_t)i);
          h = mix64(h ^ ((uint64_t)j * 2));
          c[(size_t)i * n + j] = (double)(h >> 11) * 0x1.0p-53;
        }
      break;
    }
    double t = now() - t0;
    sink = s + c[len / 2];
    if (t < best)
      best = t;
  }
  free(a);
  free(b);
  free(c);
  return best;
}

static double runGemm(int n) {
  size_t len = (size_t)n * n;
  double *a = randomArray(len), *b = randomArray(len);
  double *c = calloc(len, sizeof(double));
  double best = 1e30;
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, a, n, b,
              n, 1.0, c, n); /* warm up the thread pool */
  for (int r = 0; r < REPS; ++r) {
    double t0 = now();
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, a, n,
                b, n, 1.0, c, n);
    double t = now() - t0;
    if (t < best)
      best = t;
  }
  free(a);
  free(b);
  free(c);
  return best;
}

static double runInverse(int n) {
  size_t len = (size_t)n * n;
  double *a = randomArray(len), *w = malloc(len * sizeof(double));
  int *ipiv = malloc(n * sizeof(int));
  for (int i = 0; i < n; ++i)
    a[(size_t)i * n + i] += n; /* well conditioned */
  double best = 1e30;
  for (int r = 0; r < REPS; ++r) {
    double t0 = now();
    double *x = malloc(len * sizeof(double));
    memcpy(x, a, len * sizeof(double));
    int info = 0, lwork = (int)len;
    dgetrf_(&n, &n, x, &n, ipiv, &info);
    dgetri_(&n, x, &n, ipiv, w, &lwork, &info);
    double t = now() - t0;
    sink = x[0] + info;
    free(x);
    if (t < best)
      best = t;
  }
  free(a);
  free(w);
  free(ipiv);
  return best;
}

static void printLoad(const char *when) {
  char buf[128] = "?";
  FILE *f = fopen("/proc/loadavg", "r");
  if (f) {
    if (!fgets(buf, sizeof buf, f))
      buf[0] = 0;
    fclose(f);
  }
  printf("load average %s: %s", when, buf);
}

int main(void) {
  /* Every size is timed in each of ROUNDS passes over all sizes (REPS calls
     each) and the minimum is kept, so a burst of load from other processes
     spoils at most one pass. */
  enum { ROUNDS = 3 };
  const int gemmSizes[] = {500, 750, 1000, 1250, 1500, 1750, 2000};
  const int ng = sizeof(gemmSizes) / sizeof(gemmSizes[0]);
  const int ni = ng - 2; /* inverse up to n = 1500 */
  const int sizes[] = {3000, 4000, 5000, 6000};
  const int ns = sizeof(sizes) / sizeof(sizes[0]);
  const char *names[] = {"elementwise", "copy",      "map",
                         "reduce",      "transpose", "generate"};
  const double bytesPerElem[] = {24, 16, 16, 8, 16, 8};
  double x[16], t[16];

  printLoad("at start");
  printf("best of %d calls in each of %d rounds\n", REPS, ROUNDS);
  for (int threads = 1; threads <= 2; ++threads) {
    openblas_set_num_threads(threads);
    for (int i = 0; i < ng; ++i)
      t[i] = 1e30;
    for (int r = 0; r < ROUNDS; ++r)
      for (int i = 0; i < ng; ++i) {
        double ti = runGemm(gemmSizes[i]);
        t[i] = ti < t[i] ? ti : t[i];
      }
    printf("gemm, %d OpenBLAS thread(s): m = n = k\n", threads);
    for (int i = 0; i < ng; ++i) {
      int n = gemmSizes[i];
      x[i] = (double)n * n * n;
      printf("  n = %4d  t = %.4e s  %.1f GFLOPS\n", n, t[i],
             2 * x[i] / t[i] / 1e9);
    }
    fit(threads == 1 ? "gemm/1thr" : "gemm/2thr", x, t, ng);

    for (int i = 0; i < ni; ++i)
      t[i] = 1e30;
    for (int r = 0; r < ROUNDS; ++r)
      for (int i = 0; i < ni; ++i) {
        double ti = runInverse(gemmSizes[i]);
        t[i] = ti < t[i] ? ti : t[i];
      }
    printf("inverse (dgetrf + dgetri), %d thread(s): m = n = k\n", threads);
    for (int i = 0; i < ni; ++i) {
      int n = gemmSizes[i];
      x[i] = (double)n * n * n;
      printf("  n = %4d  t = %.4e s  %.1f GFLOPS (2 n^3 flops)\n", n, t[i],
             2 * x[i] / t[i] / 1e9);
    }
    fit(threads == 1 ? "solve/1thr" : "solve/2thr", x, t, ni);
  }

  for (int k = ADD; k <= GENERATE; ++k) {
    double tc = 1e30;
    for (int i = 0; i < ns; ++i)
      t[i] = 1e30;
    for (int r = 0; r < ROUNDS; ++r) {
      double ti = runStreaming((enum Kind)k, 1000, 1000);
      tc = ti < tc ? ti : tc;
      for (int i = 0; i < ns; ++i) {
        ti = runStreaming((enum Kind)k, sizes[i], sizes[i]);
        t[i] = ti < t[i] ? ti : t[i];
      }
    }
    printf("%s: m = n, one thread\n", names[k]);
    printf("  n = 1000  t = %.4e s  %.2f GB/s (in cache; not fitted)\n", tc,
           bytesPerElem[k] * 1e6 / tc / 1e9);
    for (int i = 0; i < ns; ++i) {
      int n = sizes[i];
      x[i] = (double)n * n;
      printf("  n = %4d  t = %.4e s  %.2f GB/s (%g B/element)\n", n, t[i],
             bytesPerElem[k] * x[i] / t[i] / 1e9, bytesPerElem[k]);
    }
    fit(names[k], x, t, ns);
  }
  printLoad("at end");
  return 0;
}
#endif
