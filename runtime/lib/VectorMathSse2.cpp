//===- VectorMathSse2.cpp - SLEEF loops, 2 doubles (SSE2) -------*- C++ -*-===//
//
// The x86-64 baseline (SSE2): SLEEF's dispatcher picks SSE4.1 where the
// CPU has it.
//
//===----------------------------------------------------------------------===//

#include "VectorMathKernels.h"

#include <immintrin.h>
#include <sleef.h>

#define CMM_VEC_NAME vectorMapSse2
#define CMM_VEC_WIDTH 2
#define CMM_VEC_LOAD(p) _mm_loadu_pd(p)
#define CMM_VEC_STORE(p, v) _mm_storeu_pd(p, v)
#define CMM_VEC_SLEEF(f) Sleef_##f##d2_u10
#include "VectorMathLoops.inc"
