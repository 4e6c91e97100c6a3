//===- VectorMath.h - Transcendental functions over arrays ------*- C++ -*-===//
//
// exp, log, sin, cos and tanh of whole arrays with SLEEF's 1-ULP vector
// functions (libsleef), on the widest vector unit the running CPU has: the
// choice is made once per process from CPUID, so a program compiled on one
// host runs the best code path of another. The reference interpreter, the
// tracer's constant folding and the generated programs all evaluate these
// functions here, so they agree bit for bit on one machine.
//
//===----------------------------------------------------------------------===//

#ifndef CMMRT_VECTORMATH_H
#define CMMRT_VECTORMATH_H

#include "cmmrt/Kernels.h"

#include <cstdint>

namespace cmmrt {

/// Elements per chunk where a kernel runs vectorMap over part of a row at a
/// time (fused kernels, randn): every intermediate of a chunk stays in L1.
constexpr int64_t kVectorChunk = 256;

/// The vector units SLEEF has code for on x86-64, narrowest first.
enum class VectorIsa {
  Sse2,   // 2 doubles (SLEEF dispatches SSE2 / SSE4.1)
  Avx,    // 4 doubles (AVX / FMA4 / AVX2)
  Avx512, // 8 doubles (AVX-512F and DQ)
};

/// The widest unit this CPU has (CPUID, once per process); CMM_VECTOR_ISA
/// (sse2, avx, avx512) may lower it, never raise it past what the CPU has:
/// chooseVectorIsa(widest, getenv("CMM_VECTOR_ISA")).
VectorIsa vectorIsa();
/// `request` (a vectorIsaName, or null) where it is narrower than `widest`,
/// else `widest`.
VectorIsa chooseVectorIsa(VectorIsa widest, const char *request);
/// Whether the running CPU can execute `isa`.
bool cpuSupports(VectorIsa isa);
const char *vectorIsaName(VectorIsa isa);

/// Whether SLEEF evaluates `fn` (exp, log, sin, cos, tanh); the others
/// (sqrt, abs, floor, round) are exact operations the compiler vectorises.
bool isVectorMathFunction(MapFn fn);

/// y[i] = fn(x[i]) for i < n with SLEEF's 1-ULP function on `isa` (which
/// the CPU must support); y may be x. `fn` must satisfy
/// isVectorMathFunction.
void vectorMap(MapFn fn, const double *x, double *y, int64_t n, VectorIsa isa);
inline void vectorMap(MapFn fn, const double *x, double *y, int64_t n) {
  vectorMap(fn, x, y, n, vectorIsa());
}

} // namespace cmmrt

#endif // CMMRT_VECTORMATH_H
