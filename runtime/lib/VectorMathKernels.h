//===- VectorMathKernels.h - SLEEF loops per vector unit --------*- C++ -*-===//
//
// The loops of cmmrt/VectorMath.h, one per vector unit, each in its own
// file compiled for that unit (-mavx, -mavx512f -mavx512dq) and called only
// on a CPU that has it. Those files include nothing with inline C++
// functions (no standard containers), so the linker cannot keep a copy
// compiled for a wider unit in place of the baseline one.
//
//===----------------------------------------------------------------------===//

#ifndef CMMRT_LIB_VECTORMATHKERNELS_H
#define CMMRT_LIB_VECTORMATHKERNELS_H

#include <cstdint>

namespace cmmrt::detail {

/// The functions the loops evaluate (a plain enum: no Kernels.h here).
enum VectorMathFn : int { kVecExp, kVecLog, kVecSin, kVecCos, kVecTanh };

/// y[i] = fn(x[i]), i < n, y may be x; each needs its unit.
void vectorMapSse2(VectorMathFn fn, const double *x, double *y, int64_t n);
void vectorMapAvx(VectorMathFn fn, const double *x, double *y, int64_t n);
void vectorMapAvx512(VectorMathFn fn, const double *x, double *y, int64_t n);

/// x[j] = unitFromBits(mix64(row ^ ((j0 + j) * 2))), j < n: the uniform
/// elements of one row of a `rand` (cmmrt/Random.cpp), 8 at a time with
/// AVX-512DQ's 64-bit products and conversions. Integer steps and an exact
/// conversion: the same bits as the scalar loop.
void uniformRowAvx512(uint64_t row, uint64_t j0, double *x, int64_t n);

} // namespace cmmrt::detail

#endif // CMMRT_LIB_VECTORMATHKERNELS_H
