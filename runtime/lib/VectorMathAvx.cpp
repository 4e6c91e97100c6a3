//===- VectorMathAvx.cpp - SLEEF loops, 4 doubles (AVX) ---------*- C++ -*-===//
//
// Compiled with -mavx (runtime/CMakeLists.txt); called only when the CPU
// has the unit (cmmrt::cpuSupports).
//
//===----------------------------------------------------------------------===//

#include "VectorMathKernels.h"

#include <immintrin.h>
#include <sleef.h>

#define CMM_VEC_NAME vectorMapAvx
#define CMM_VEC_WIDTH 4
#define CMM_VEC_LOAD(p) _mm256_loadu_pd(p)
#define CMM_VEC_STORE(p, v) _mm256_storeu_pd(p, v)
#define CMM_VEC_SLEEF(f) Sleef_##f##d4_u10
#include "VectorMathLoops.inc"
