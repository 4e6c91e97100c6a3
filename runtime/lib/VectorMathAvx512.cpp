//===- VectorMathAvx512.cpp - Loops of 8 doubles (AVX-512F, DQ) -*- C++ -*-===//
//
// Compiled with -mavx512f -mavx512dq (runtime/CMakeLists.txt); called only
// when the CPU has the unit (cmmrt::cpuSupports).
//
//===----------------------------------------------------------------------===//

#include "VectorMathKernels.h"

#include "cmmrt/Mix64.h"

#include <immintrin.h>
#include <sleef.h>

#define CMM_VEC_NAME vectorMapAvx512
#define CMM_VEC_WIDTH 8
#define CMM_VEC_LOAD(p) _mm512_loadu_pd(p)
#define CMM_VEC_STORE(p, v) _mm512_storeu_pd(p, v)
#define CMM_VEC_SLEEF(f) Sleef_##f##d8_u10
#include "VectorMathLoops.inc"

void cmmrt::detail::uniformRowAvx512(uint64_t row, uint64_t j0, double *x,
                                     int64_t n) {
  for (int64_t j = 0; j < n; ++j)
    x[j] = unitFromBits(mix64(row ^ ((j0 + uint64_t(j)) * 2)));
}
