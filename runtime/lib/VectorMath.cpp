//===- VectorMath.cpp - Choosing the vector unit for SLEEF ------*- C++ -*-===//

#include "cmmrt/VectorMath.h"

#include "VectorMathKernels.h"

#include <cstdlib>
#include <cstring>

using namespace cmmrt;

bool cmmrt::cpuSupports(VectorIsa isa) {
  // libgcc's CPUID check includes the OS's XSAVE support for the wider
  // registers (XGETBV), so a CPU with AVX-512 under an OS that does not
  // save zmm state reports no AVX-512.
  switch (isa) {
  case VectorIsa::Sse2:
    return true; // the x86-64 baseline
  case VectorIsa::Avx:
    return __builtin_cpu_supports("avx");
  case VectorIsa::Avx512:
    return __builtin_cpu_supports("avx512f");
  }
  return false;
}

const char *cmmrt::vectorIsaName(VectorIsa isa) {
  switch (isa) {
  case VectorIsa::Sse2:
    return "sse2";
  case VectorIsa::Avx:
    return "avx";
  case VectorIsa::Avx512:
    return "avx512";
  }
  return "?";
}

namespace {
VectorIsa detectVectorIsa() {
  VectorIsa widest = cpuSupports(VectorIsa::Avx512) ? VectorIsa::Avx512
                     : cpuSupports(VectorIsa::Avx)  ? VectorIsa::Avx
                                                    : VectorIsa::Sse2;
  // CMM_VECTOR_ISA lowers the choice (to compare units, or to get the
  // results of a narrower machine); an unknown or wider name is ignored.
  if (const char *env = std::getenv("CMM_VECTOR_ISA"))
    for (VectorIsa isa : {VectorIsa::Sse2, VectorIsa::Avx, VectorIsa::Avx512})
      if (std::strcmp(env, vectorIsaName(isa)) == 0 && isa < widest)
        return isa;
  return widest;
}
} // namespace

VectorIsa cmmrt::vectorIsa() {
  static const VectorIsa isa = detectVectorIsa();
  return isa;
}

bool cmmrt::isVectorMathFunction(MapFn fn) {
  switch (fn) {
  case MapFn::Exp:
  case MapFn::Log:
  case MapFn::Sin:
  case MapFn::Cos:
  case MapFn::Tanh:
    return true;
  default:
    return false;
  }
}

void cmmrt::vectorMap(MapFn fn, const double *x, double *y, int64_t n,
                      VectorIsa isa) {
  detail::VectorMathFn code;
  switch (fn) {
  case MapFn::Exp:
    code = detail::kVecExp;
    break;
  case MapFn::Log:
    code = detail::kVecLog;
    break;
  case MapFn::Sin:
    code = detail::kVecSin;
    break;
  case MapFn::Cos:
    code = detail::kVecCos;
    break;
  case MapFn::Tanh:
    code = detail::kVecTanh;
    break;
  default:
    std::abort(); // callers check isVectorMathFunction
  }
  switch (isa) {
  case VectorIsa::Sse2:
    return detail::vectorMapSse2(code, x, y, n);
  case VectorIsa::Avx:
    return detail::vectorMapAvx(code, x, y, n);
  case VectorIsa::Avx512:
    return detail::vectorMapAvx512(code, x, y, n);
  }
}
