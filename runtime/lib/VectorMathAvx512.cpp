//===- VectorMathAvx512.cpp - SLEEF loops, 8 doubles (AVX-512F) -*- C++ -*-===//
//
// Compiled with -mavx512f (runtime/CMakeLists.txt); called only when the CPU
// has the unit (cmmrt::cpuSupports).
//
//===----------------------------------------------------------------------===//

#include "VectorMathKernels.h"

#include <immintrin.h>
#include <sleef.h>

#define CMM_VEC_NAME vectorMapAvx512
#define CMM_VEC_WIDTH 8
#define CMM_VEC_LOAD(p) _mm512_loadu_pd(p)
#define CMM_VEC_STORE(p, v) _mm512_storeu_pd(p, v)
#define CMM_VEC_SLEEF(f) Sleef_##f##d8_u10
#include "VectorMathLoops.inc"
