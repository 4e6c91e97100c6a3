//===- cosma_gemm.cpp - cmm's COSMA on one product --------------*- C++ -*-===//
//
//   mpirun -np P cmm-cosma-gemm M N K [--trans-a] [--trans-b]
//       [--memory=WORDS] [--idle=FRACTION] [--repeat=R] [--quiet]
//       [--predict=FILE]
//
// Multiplies op(A) (M x K) by op(B) (K x N), inputs generated in place in
// COSMA's layout from the counter-based generator (as COSMA's own
// benchmark generates its inputs). Prints the grid, the rounds, the median
// time of R products and the words each rank moved; --predict writes the
// strategy's predicted words sent per rank (one line per rank) and
// --quiet leaves out every communication besides the products, so a PMPI
// counter sees COSMA's traffic alone.
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
