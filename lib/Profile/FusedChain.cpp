//===- FusedChain.cpp - Fused kernels as cmm-translate writes them --------===//
//
// Class `fused` is timed on kernels of the form cmm-translate generates
// (lib/Target/Cpp: one `omp simd` loop over a chunk with every step in a
// register), compiled with the flags generated programs are (CMakeLists.txt,
// CMM_PROGRAM_CXX_FLAGS): the runtime's step-by-step interpreter, which
// runs kernels without generated code, took twice their time a step
// (1000 x 1000: 0.19 against 0.09 ns an element, 2026-12-02).
//
//===----------------------------------------------------------------------===//

#include "cmm/Profile/TaskBench.h"

#include "cmmrt/Fused.h"
#include "cmmrt/Scalar.h"

#include <utility>

namespace {
/// The steps on one element, unrolled as the generated code is written.
template <size_t... S>
inline double chain(double v, double y, std::index_sequence<S...>) {
  ((v = S % 2 ? cmmrt::scalar::add(v, y) : cmmrt::scalar::mul(v, y)), ...);
  return v;
}

/// mul %i0, %i1; add %t0, %i1; mul %t1, %i1; ... (`Steps` in all).
template <int Steps>
void chainChunk(int64_t n, const double *const *x, double *y) {
  const double *x0 = x[0];
  const double *x1 = x[1];
#pragma omp simd
  for (int64_t e = 0; e < n; ++e)
    y[e] = chain(x0[e], x1[e], std::make_index_sequence<Steps>());
}

template <int Steps>
void chainKernel(int64_t rows, int64_t cols, const cmmrt::fused::Operand *in,
                 double *out) {
  cmmrt::fused::forEachChunk(rows, cols, in, 2, out, chainChunk<Steps>);
}
} // namespace

cmmrt::fused::KernelFn cmm::profile::fusedChainKernel(int64_t steps) {
  switch (steps) {
  case 2:
    return chainKernel<2>;
  case 8:
    return chainKernel<8>;
  case 32:
    return chainKernel<32>;
  default:
    return nullptr;
  }
}
