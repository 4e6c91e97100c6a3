//===- Random.cpp - Counter-based random matrices ---------------*- C++ -*-===//
//
// A keyed hash of the element's coordinates: four rounds of the splitmix64
// finalizer (Steele, Lea, Flood 2014), whose output passes BigCrush when fed a
// counter. Hashing (seed, callId, i, j, stream) gives independent streams
// without any generator state.
//
//===----------------------------------------------------------------------===//

#include "cmmrt/Random.h"
#include "cmmrt/Mix64.h"
#include "cmmrt/RowBands.h"
#include "cmmrt/VectorMath.h"

#include "VectorMathKernels.h"

#include <algorithm>
#include <cmath>

using namespace cmmrt;

static inline uint64_t hashElement(uint64_t seed, uint64_t callId, uint64_t i,
                                   uint64_t j, uint64_t stream) {
  uint64_t h = mix64(seed ^ 0x636d6d5f72616e64ULL); // "cmm_rand"
  h = mix64(h ^ callId);
  h = mix64(h ^ i);
  h = mix64(h ^ (j * 2 + stream));
  return h;
}

double cmmrt::uniformAt(uint64_t seed, uint64_t callId, uint64_t i,
                        uint64_t j) {
  return unitFromBits(hashElement(seed, callId, i, j, 0));
}

/// Box-Muller from the element's two uniforms, log u1 and cos 2 pi u2 given:
/// the one formula of every path.
static inline double boxMuller(double logU1, double cosU2) {
  return std::sqrt(-2.0 * logU1) * cosU2;
}

double cmmrt::normalAt(uint64_t seed, uint64_t callId, uint64_t i, uint64_t j) {
  // u1 in (0, 1] so that log(u1) is finite. log and cos are SLEEF's, as a
  // whole row's (applyMap takes vectorMap's path for one element).
  double u1 = 1.0 - unitFromBits(hashElement(seed, callId, i, j, 0));
  double u2 = unitFromBits(hashElement(seed, callId, i, j, 1));
  return boxMuller(applyMap(MapFn::Log, u1),
                   applyMap(MapFn::Cos, 2.0 * M_PI * u2));
}

void cmmrt::fillRandom(Matrix &out, bool normal, uint64_t seed, uint64_t callId,
                       int64_t rowOffset, int64_t colOffset) {
  // hashElement with the first three rounds hoisted out of the row: the same
  // values, one mix64 per element (two for normals).
  const uint64_t key = mix64(mix64(seed ^ 0x636d6d5f72616e64ULL) ^ callId);
  const int64_t cols = out.cols();
  const uint64_t j0 = static_cast<uint64_t>(colOffset);
  const bool vectors = vectorIsa() == VectorIsa::Avx512;
  // Bands of rows on the task's cores (cmmrt/RowBands.h): the page faults
  // of a fresh buffer, not the hashing, are most of the time.
  forEachRowBand(out.rows(), cols, [&](int64_t first, int64_t end) {
    for (int64_t i = first; i < end; ++i) {
      const uint64_t row = mix64(key ^ static_cast<uint64_t>(i + rowOffset));
      double *x = out.data() + i * cols;
      if (!normal && vectors) {
        detail::uniformRowAvx512(row, j0, x, cols);
        continue;
      }
      if (!normal) {
        for (int64_t j = 0; j < cols; ++j)
          x[j] = unitFromBits(mix64(row ^ ((j0 + j) * 2)));
        continue;
      }
      // Normals a chunk at a time: the uniforms, then log and cos over the
      // chunk on SLEEF's vector functions (scalar glibc took about 20 ns an
      // element), then the products. vectorMap gives each element the same
      // bits wherever it sits, so tiles agree with normalAt.
      double logU1[kVectorChunk], cosU2[kVectorChunk];
      for (int64_t c0 = 0; c0 < cols; c0 += kVectorChunk) {
        const int64_t n = std::min(kVectorChunk, cols - c0);
        for (int64_t k = 0; k < n; ++k) {
          const uint64_t j = j0 + uint64_t(c0 + k);
          logU1[k] = 1.0 - unitFromBits(mix64(row ^ (j * 2)));
          cosU2[k] = 2.0 * M_PI * unitFromBits(mix64(row ^ (j * 2 + 1)));
        }
        vectorMap(MapFn::Log, logU1, logU1, n);
        vectorMap(MapFn::Cos, cosU2, cosU2, n);
        for (int64_t k = 0; k < n; ++k)
          x[c0 + k] = boxMuller(logU1[k], cosU2[k]);
      }
    }
  });
}
