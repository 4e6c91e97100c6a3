//===- sparse_products.cpp - Compressed rows against dgemv ----------------===//
//
// What cmmrt/SparseRows.h's break-even rule is fitted to: for an n x n
// matrix with a fraction d of its elements nonzero (uniform values, random
// positions), the time of compressing it and of one product on its
// compressed rows, in units of one dense dgemv of the same matrix, on the
// task threads of a one-worker node (--threads, default 2, also OpenBLAS's).
// The rule charges compressing 2 + 60 d, transposing the compressed rows
// (the other orientation, made from them) 50 d and a product 3 d; the last
// columns show those next to the measurements.
//
//   build/bin/cmm-sparse-products [--n=4000] [--threads=2] [--repeat=5]
//
// Prints a markdown table. The best of --repeat timings of 20 products, and
// of --repeat compressions (each into fresh memory, as a run does).
//
//===----------------------------------------------------------------------===//

#include "cmmrt/Kernels.h"
#include "cmmrt/RowBands.h"
#include "cmmrt/SparseRows.h"

#include <cblas.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>

using namespace cmmrt;

namespace {

double seconds() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

template <typename Fn> double best(int repeat, Fn fn) {
  double t = 1e30;
  for (int r = 0; r < repeat; ++r) {
    double start = seconds();
    fn();
    t = std::min(t, seconds() - start);
  }
  return t;
}

long option(int argc, char **argv, const char *name, long fallback) {
  size_t len = std::strlen(name);
  for (int i = 1; i < argc; ++i)
    if (!std::strncmp(argv[i], name, len) && argv[i][len] == '=')
      return std::atol(argv[i] + len + 1);
  return fallback;
}

} // namespace

int main(int argc, char **argv) {
  const int64_t n = option(argc, argv, "--n", 4000);
  const int threads = int(option(argc, argv, "--threads", 2));
  const int repeat = int(option(argc, argv, "--repeat", 5));
  const int products = 20;
  setTaskThreads(threads);
  openblas_set_num_threads(threads);
  std::printf("n = %lld, %d thread(s), best of %d; times in dense products\n\n",
              (long long)n, threads, repeat);
  std::printf("| density | dense product (ms) | compress | transpose | "
              "compressed product | rule: compress 2 + 60 d | rule: transpose "
              "50 d | rule: product 3 d |\n");
  std::printf("| --- | --- | --- | --- | --- | --- | --- | --- |\n");
  std::mt19937_64 gen(1);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  Matrix x(n, 1, 1.0), y(n, 1);
  for (double d : {0.001, 0.01, 0.05, 0.1, 0.2, 0.3, 0.5}) {
    Matrix a = Matrix::uninitialized(n, n);
    for (double &v : a.values())
      v = u(gen) < d ? u(gen) : 0.0;
    double dense = best(repeat,
                        [&] {
                          for (int p = 0; p < products; ++p)
                            multiplyAdd(a, x, 0.0, y);
                        }) /
                   products;
    SparseRows s;
    double compress = best(repeat, [&] {
      s = SparseRows();
      compressRows(a, 1.0, s);
    });
    SparseRows t;
    double transpose = best(repeat, [&] { t = transposeSparse(s); });
    double sparse = best(repeat,
                         [&] {
                           for (int p = 0; p < products; ++p)
                             multiplyAddSparse(s, x.data(), 0.0, y.data());
                         }) /
                    products;
    std::printf("| %.3f | %.2f | %.2f | %.2f | %.3f | %.2f | %.2f | %.3f |\n",
                d, dense * 1e3, compress / dense, transpose / dense,
                sparse / dense, 2 + 60 * d, 50 * d, 3 * d);
  }
  return 0;
}
