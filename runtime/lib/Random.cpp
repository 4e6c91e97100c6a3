//===- Random.cpp - Counter-based random matrices ---------------*- C++ -*-===//
//
// A keyed hash of the element's coordinates: four rounds of the splitmix64
// finalizer (Steele, Lea, Flood 2014), whose output passes BigCrush when fed a
// counter. Hashing (seed, callId, i, j, stream) gives independent streams
// without any generator state.
//
//===----------------------------------------------------------------------===//

#include "cmmrt/Random.h"

#include <cmath>

using namespace cmmrt;

static inline uint64_t mix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

static inline uint64_t hashElement(uint64_t seed, uint64_t callId, uint64_t i,
                                   uint64_t j, uint64_t stream) {
  uint64_t h = mix64(seed ^ 0x636d6d5f72616e64ULL); // "cmm_rand"
  h = mix64(h ^ callId);
  h = mix64(h ^ i);
  h = mix64(h ^ (j * 2 + stream));
  return h;
}

static inline double toUnit(uint64_t bits) {
  return static_cast<double>(bits >> 11) * 0x1.0p-53;
}

double cmmrt::uniformAt(uint64_t seed, uint64_t callId, uint64_t i,
                        uint64_t j) {
  return toUnit(hashElement(seed, callId, i, j, 0));
}

double cmmrt::normalAt(uint64_t seed, uint64_t callId, uint64_t i,
                       uint64_t j) {
  // u1 in (0, 1] so that log(u1) is finite.
  double u1 = 1.0 - toUnit(hashElement(seed, callId, i, j, 0));
  double u2 = toUnit(hashElement(seed, callId, i, j, 1));
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
}

void cmmrt::fillRandom(Matrix &out, bool normal, uint64_t seed,
                       uint64_t callId, int64_t rowOffset, int64_t colOffset) {
  for (int64_t i = 0; i < out.rows(); ++i)
    for (int64_t j = 0; j < out.cols(); ++j) {
      uint64_t gi = static_cast<uint64_t>(i + rowOffset);
      uint64_t gj = static_cast<uint64_t>(j + colOffset);
      out(i, j) = normal ? normalAt(seed, callId, gi, gj)
                         : uniformAt(seed, callId, gi, gj);
    }
}
