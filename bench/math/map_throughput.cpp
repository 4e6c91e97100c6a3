//===- map_throughput.cpp - Per-element time of cmm's math functions ------===//
//
// Nanoseconds per element of exp, log, sin, cos and tanh over a 2^20
// element array (8 MB, the size of a tile row block), one thread:
//   glibc    the scalar loop the runtime ran before SLEEF (std::tanh, ...)
//   sse2, avx, avx512
//            cmmrt::vectorMap on each vector unit this CPU has (programs
//            run the widest: the first line names it)
// The best of --repeat timings of --sweeps passes each. Arguments follow
// the benchmarks that use the functions: tanh and exp of N(0, 1) values
// (neural-network), sin and cos of [0, 2 pi) (DFT), log of (0, 10].
// Output: one line per function, "fn impl ns_per_element ...", for
// bench/math/run.
//
//===----------------------------------------------------------------------===//

#include "cmmrt/Kernels.h"
#include "cmmrt/VectorMath.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

using namespace cmmrt;

namespace {

double glibc(MapFn fn, double x) {
  switch (fn) {
  case MapFn::Exp:
    return std::exp(x);
  case MapFn::Log:
    return std::log(x);
  case MapFn::Sin:
    return std::sin(x);
  case MapFn::Cos:
    return std::cos(x);
  default:
    return std::tanh(x);
  }
}

/// Seconds per element of `pass` over n elements: the best of `repeat`
/// timings of `sweeps` passes.
template <typename Pass>
double perElement(Pass pass, int64_t n, int sweeps, int repeat) {
  double best = 1e30;
  for (int r = 0; r < repeat; ++r) {
    auto start = std::chrono::steady_clock::now();
    for (int s = 0; s < sweeps; ++s)
      pass();
    std::chrono::duration<double> t = std::chrono::steady_clock::now() - start;
    best = std::min(best, t.count() / (double(sweeps) * n));
  }
  return best;
}

} // namespace

int main(int argc, char **argv) {
  int64_t n = 1 << 20;
  int sweeps = 10, repeat = 5;
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--n=", 4) == 0)
      n = std::atoll(argv[i] + 4);
    else if (std::strncmp(argv[i], "--sweeps=", 9) == 0)
      sweeps = std::atoi(argv[i] + 9);
    else if (std::strncmp(argv[i], "--repeat=", 9) == 0)
      repeat = std::atoi(argv[i] + 9);
    else {
      std::fprintf(stderr, "usage: %s [--n=N] [--sweeps=S] [--repeat=R]\n",
                   argv[0]);
      return 2;
    }
  }
  std::mt19937_64 random(1);
  std::normal_distribution<double> normal(0, 1);
  std::uniform_real_distribution<double> angle(0, 2 * M_PI), positive(0, 10);
  const struct {
    MapFn fn;
    const char *name;
  } functions[] = {{MapFn::Tanh, "tanh"},
                   {MapFn::Exp, "exp"},
                   {MapFn::Log, "log"},
                   {MapFn::Sin, "sin"},
                   {MapFn::Cos, "cos"}};
  std::printf("# vector unit chosen: %s\n", vectorIsaName(vectorIsa()));
  std::printf("# function implementation ns_per_element\n");
  for (const auto &f : functions) {
    std::vector<double> x(n), y(n);
    for (double &v : x)
      v = f.fn == MapFn::Sin || f.fn == MapFn::Cos ? angle(random)
          : f.fn == MapFn::Log                     ? 10 - positive(random)
                                                   : normal(random);
    double t = perElement(
        [&] {
          for (int64_t e = 0; e < n; ++e)
            y[e] = glibc(f.fn, x[e]);
        },
        n, sweeps, repeat);
    std::printf("%s glibc %.3f\n", f.name, t * 1e9);
    for (VectorIsa isa : {VectorIsa::Sse2, VectorIsa::Avx, VectorIsa::Avx512}) {
      if (!cpuSupports(isa))
        continue;
      t = perElement([&] { vectorMap(f.fn, x.data(), y.data(), n, isa); }, n,
                     sweeps, repeat);
      std::printf("%s %s %.3f\n", f.name, vectorIsaName(isa), t * 1e9);
    }
  }
  return 0;
}
