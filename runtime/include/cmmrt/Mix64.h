//===- Mix64.h - The counter hash behind rand and randn ---------*- C++ -*-===//
//
// The splitmix64 finalizer and the uniform double made from its bits: one
// definition shared by the front end (call-site hashes, via cmmrt/Numbers.h),
// cmmrt/Random.h and the vector loops that fill random rows. This header
// includes nothing but <cstdint> and its functions have internal linkage,
// because the vector loops compile it for a wider unit (VectorMathAvx512.cpp,
// see VectorMathKernels.h): a copy made there must never be the one other
// files link.
//
//===----------------------------------------------------------------------===//

#ifndef CMMRT_MIX64_H
#define CMMRT_MIX64_H

#include <cstdint>

namespace cmmrt {

/// The splitmix64 finalizer (Steele, Lea, Flood 2014): a bijective mix of
/// 64 bits whose output passes BigCrush when fed a counter.
static constexpr uint64_t mix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

/// A double uniform in [0, 1) from the top 53 of 64 random bits (exact:
/// the integer has 53 bits, the scale is a power of two).
static constexpr double unitFromBits(uint64_t bits) {
  return static_cast<double>(bits >> 11) * 0x1.0p-53;
}

} // namespace cmmrt

#endif // CMMRT_MIX64_H
