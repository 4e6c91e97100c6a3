//===- VectorMath.cpp - Choosing the vector unit for SLEEF ------*- C++ -*-===//

#include "cmmrt/VectorMath.h"

#include "VectorMathKernels.h"

#include <cstdlib>
#include <cstring>
#include <optional>

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
  case VectorIsa::Avx512: // DQ: every AVX-512 CPU but Xeon Phi
    return __builtin_cpu_supports("avx512f") &&
           __builtin_cpu_supports("avx512dq");
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

VectorIsa cmmrt::chooseVectorIsa(VectorIsa widest, const char *request) {
  // A request lowers the choice (to compare units, or to get the results of
  // a narrower machine); an unknown or wider name is ignored.
  if (request)
    for (VectorIsa isa : {VectorIsa::Sse2, VectorIsa::Avx, VectorIsa::Avx512})
      if (std::strcmp(request, vectorIsaName(isa)) == 0 && isa < widest)
        return isa;
  return widest;
}

VectorIsa cmmrt::vectorIsa() {
  static const VectorIsa isa =
      chooseVectorIsa(cpuSupports(VectorIsa::Avx512) ? VectorIsa::Avx512
                      : cpuSupports(VectorIsa::Avx)  ? VectorIsa::Avx
                                                     : VectorIsa::Sse2,
                      std::getenv("CMM_VECTOR_ISA"));
  return isa;
}

namespace {
/// The SLEEF loop that evaluates `fn`, if one does.
std::optional<detail::VectorMathFn> sleefFunction(MapFn fn) {
  switch (fn) {
  case MapFn::Exp:
    return detail::kVecExp;
  case MapFn::Log:
    return detail::kVecLog;
  case MapFn::Sin:
    return detail::kVecSin;
  case MapFn::Cos:
    return detail::kVecCos;
  case MapFn::Tanh:
    return detail::kVecTanh;
  default:
    return std::nullopt;
  }
}
} // namespace

bool cmmrt::isVectorMathFunction(MapFn fn) {
  return sleefFunction(fn).has_value();
}

void cmmrt::vectorMap(MapFn fn, const double *x, double *y, int64_t n,
                      VectorIsa isa) {
  std::optional<detail::VectorMathFn> code = sleefFunction(fn);
  if (!code)
    std::abort(); // callers check isVectorMathFunction
  switch (isa) {
  case VectorIsa::Sse2:
    return detail::vectorMapSse2(*code, x, y, n);
  case VectorIsa::Avx:
    return detail::vectorMapAvx(*code, x, y, n);
  case VectorIsa::Avx512:
    return detail::vectorMapAvx512(*code, x, y, n);
  }
}
