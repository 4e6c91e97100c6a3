//===- cosma_gemm.cpp - cmm's COSMA on one product --------------*- C++ -*-===//
//
//   mpirun -np P cmm-cosma-gemm M N K [--trans-a] [--trans-b]
//       [--memory=WORDS] [--idle=FRACTION] [--repeat=R] [--quiet]
//       [--predict=FILE] [--block-cyclic=NB]
//
// Multiplies op(A) (M x K) by op(B) (K x N), inputs generated in place in
// COSMA's layout from the counter-based generator (as COSMA's own
// benchmark generates its inputs). Prints the grid, the rounds, the median
// time of R products and the words each rank moved; --predict writes the
// strategy's predicted words sent per rank (one line per rank) and
// --quiet leaves out every communication besides the products, so a PMPI
// counter sees COSMA's traffic alone.
//
// --block-cyclic=NB starts instead from ScaLAPACK's 2D block-cyclic layout
// (NB x NB blocks on a near-square process grid, as pdgemm's inputs) and
// moves the operands into COSMA's layout (cosmaRedistribute) before each
// product: that cost is timed and counted separately.
//
//===----------------------------------------------------------------------===//

#include "cmmrt/Cosma.h"
#include "cmmrt/Random.h"

#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

extern "C" void openblas_set_num_threads(int);

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

/// This rank's blocks of an m x n operand in the 2D block-cyclic layout
/// (nb x nb blocks, block (I, J) on grid position (I mod pr, J mod pc)).
void blockCyclicBlocks(int64_t m, int64_t n, int64_t nb, int pr, int pc,
                       int row, int col, const cmmrt::ElementFn &element,
                       std::vector<std::vector<double>> &storage,
                       std::vector<cmmrt::CosmaBlock> &blocks) {
  for (int64_t bi = row; bi * nb < m; bi += pr)
    for (int64_t bj = col; bj * nb < n; bj += pc) {
      int64_t rows = std::min(nb, m - bi * nb),
              cols = std::min(nb, n - bj * nb);
      storage.emplace_back(size_t(rows * cols));
      for (int64_t x = 0; x < rows; ++x)
        for (int64_t y = 0; y < cols; ++y)
          storage.back()[size_t(x * cols + y)] =
              element(bi * nb + x, bj * nb + y);
      blocks.push_back(
          {storage.back().data(), bi * nb, bj * nb, rows, cols, cols});
    }
}

/// --block-cyclic: the redistribution from ScaLAPACK's layout, then the
/// product, each timed (medians) and the redistribution's words counted.
int fromBlockCyclic(const cmmrt::CosmaStrategy &s, const cmmrt::ElementFn &a,
                    const cmmrt::ElementFn &b, long long nb, int repeat,
                    int rank, int p) {
  int pr = 1;
  for (int d = 1; d * d <= p; ++d)
    if (p % d == 0)
      pr = d;
  int pc = p / pr, row = rank / pc, col = rank % pc;
  std::vector<std::vector<double>> storage;
  std::vector<cmmrt::CosmaBlock> blocksA, blocksB;
  storage.reserve(size_t((s.m / nb + 1) * (s.k / nb + 1) +
                         (s.k / nb + 1) * (s.n / nb + 1)));
  blockCyclicBlocks(s.m, s.k, nb, pr, pc, row, col, a, storage, blocksA);
  blockCyclicBlocks(s.k, s.n, nb, pr, pc, row, col, b, storage, blocksB);
  std::vector<double> moves, products;
  double words = 0;
  for (int t = 0; t < repeat; ++t) {
    cmmrt::CosmaPieces pieces;
    std::string error;
    MPI_Barrier(MPI_COMM_WORLD);
    double start = MPI_Wtime();
    if (!cmmrt::cosmaRedistribute(s, blocksA, blocksB, MPI_COMM_WORLD, pieces,
                                  error)) {
      if (rank == 0)
        std::fprintf(stderr, "cmm-cosma-gemm: %s\n", error.c_str());
      MPI_Finalize();
      return 1;
    }
    double moved = MPI_Wtime() - start, slowest = 0;
    MPI_Allreduce(&moved, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    moves.push_back(slowest);
    words = pieces.wordsSent;
    cmmrt::CosmaResult r;
    cmmrt::cosmaMultiplyPieces(s, pieces.a, pieces.b, MPI_COMM_WORLD, r);
    double product = r.seconds;
    MPI_Allreduce(MPI_IN_PLACE, &product, 1, MPI_DOUBLE, MPI_MAX,
                  MPI_COMM_WORLD);
    products.push_back(product);
  }
  double most = 0;
  MPI_Reduce(&words, &most, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0)
    std::printf("cosma %lldx%lldx%lld on %d ranks from block-cyclic %lld on "
                "a %dx%d grid: redistribution median %.4f s, at most %.4g "
                "MiB sent per rank; product median %.4f s\n",
                (long long)s.m, (long long)s.n, (long long)s.k, p, nb, pr, pc,
                median(moves), most * 8 / (1 << 20), median(products));
  MPI_Finalize();
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  int rank = 0, p = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  std::vector<long long> dims;
  bool transA = false, transB = false, quiet = false;
  double memory = 0;
  int repeat = 1;
  long long blockCyclic = 0;
  cmmrt::CosmaOptions options;
  std::string predict;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--trans-a")
      transA = true;
    else if (arg == "--trans-b")
      transB = true;
    else if (arg == "--quiet")
      quiet = true;
    else if (arg.rfind("--memory=", 0) == 0)
      memory = std::atof(arg.c_str() + 9);
    else if (arg.rfind("--idle=", 0) == 0)
      options.maxIdleFraction = std::atof(arg.c_str() + 7);
    else if (arg.rfind("--repeat=", 0) == 0)
      repeat = std::max(1, std::atoi(arg.c_str() + 9));
    else if (arg.rfind("--predict=", 0) == 0)
      predict = arg.substr(10);
    else if (arg.rfind("--block-cyclic=", 0) == 0)
      blockCyclic = std::atoll(arg.c_str() + 15);
    else
      dims.push_back(std::atoll(arg.c_str()));
  }
  if (dims.size() != 3) {
    if (rank == 0)
      std::fprintf(stderr, "usage: cmm-cosma-gemm M N K [options]\n");
    MPI_Finalize();
    return 2;
  }
  // One BLAS thread per rank: the ranks are the parallelism.
  openblas_set_num_threads(1);
  // Memory per rank: CMM_MAX_MEMORY (bytes) or --memory (words), else 8 GiB.
  if (const char *env = std::getenv("CMM_MAX_MEMORY"); env && !memory)
    memory = std::atof(env) / 8;
  if (!memory)
    memory = 8.0 * (1 << 30) / 8;
  cmmrt::CosmaStrategy s;
  std::string error;
  if (!cmmrt::computeCosmaStrategy(dims[0], dims[1], dims[2], p, memory,
                                   options, s, error)) {
    if (rank == 0)
      std::fprintf(stderr, "cmm-cosma-gemm: %s\n", error.c_str());
    MPI_Finalize();
    return 1;
  }
  auto a = [&](int64_t i, int64_t j) {
    return transA ? cmmrt::uniformAt(5, 1, uint64_t(j), uint64_t(i))
                  : cmmrt::uniformAt(5, 1, uint64_t(i), uint64_t(j));
  };
  auto b = [&](int64_t i, int64_t j) {
    return transB ? cmmrt::uniformAt(5, 2, uint64_t(j), uint64_t(i))
                  : cmmrt::uniformAt(5, 2, uint64_t(i), uint64_t(j));
  };
  std::vector<double> times;
  cmmrt::CosmaResult r;
  if (blockCyclic > 0)
    return fromBlockCyclic(s, a, b, blockCyclic, repeat, rank, p);
  for (int t = 0; t < repeat; ++t) {
    cmmrt::cosmaMultiply(s, a, b, transA, transB, MPI_COMM_WORLD, r);
    times.push_back(r.seconds);
  }
  if (rank == 0 && !predict.empty()) {
    std::vector<double> sent, received;
    cmmrt::cosmaPredictedWords(s, sent, received);
    if (FILE *f = std::fopen(predict.c_str(), "w")) {
      for (int q = 0; q < p; ++q)
        std::fprintf(f, "%.0f\n", sent[q] * repeat);
      std::fclose(f);
    }
  }
  if (!quiet) {
    std::sort(times.begin(), times.end());
    double median = times[times.size() / 2], slowest = 0;
    MPI_Reduce(&median, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    double words = r.wordsSent, most = 0;
    MPI_Reduce(&words, &most, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0)
      std::printf("cosma %lldx%lldx%lld on %d ranks: grid %dx%dx%d (%d used), "
                  "%d round(s); median %.4f s; at most %.4g MiB sent per "
                  "rank\n",
                  dims[0], dims[1], dims[2], p, s.gm, s.gn, s.gk, s.usedRanks(),
                  s.rounds, slowest, most * 8 / (1 << 20));
  }
  MPI_Finalize();
  return 0;
}
