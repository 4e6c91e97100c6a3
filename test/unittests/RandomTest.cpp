//===- RandomTest.cpp - Counter-based random matrices -----------*- C++ -*-===//

#include "cmmrt/Random.h"
#include "cmmrt/Mix64.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace cmmrt;

TEST(Random, IsAPureFunctionOfItsCoordinates) {
  EXPECT_EQ(uniformAt(1, 2, 3, 4), uniformAt(1, 2, 3, 4));
  EXPECT_NE(uniformAt(1, 2, 3, 4), uniformAt(1, 2, 4, 3));
  EXPECT_NE(uniformAt(1, 2, 3, 4), uniformAt(1, 3, 3, 4));
  EXPECT_NE(uniformAt(1, 2, 3, 4), uniformAt(2, 2, 3, 4));
}

TEST(Random, TilesEqualTheBlocksOfTheWholeMatrix) {
  Matrix whole(7, 9);
  fillRandom(whole, /*normal=*/false, 42, 99);
  Matrix tile(3, 4);
  fillRandom(tile, /*normal=*/false, 42, 99, /*rowOffset=*/2, /*colOffset=*/5);
  for (int64_t i = 0; i < 3; ++i)
    for (int64_t j = 0; j < 4; ++j)
      EXPECT_EQ(tile(i, j), whole(i + 2, j + 5));
}

// fillRandom's rows (8 at a time on AVX-512; the ctest random-scalar-rows
// runs this again with CMM_VECTOR_ISA=avx, the scalar loop) equal
// uniformAt's elements, which hash every coordinate from scratch, bit for
// bit: every width up to two vectors and a tail, any column offset (also
// past 2^32), rows far down the matrix.
TEST(Random, RowsEqualTheElementsBitForBit) {
  for (int64_t cols = 1; cols <= 19; ++cols)
    for (int64_t colOffset : {int64_t(0), int64_t(3), int64_t(1) << 33})
      for (int64_t rowOffset : {int64_t(0), int64_t(123456789)}) {
        Matrix m(2, cols);
        fillRandom(m, /*normal=*/false, 5, 17, rowOffset, colOffset);
        for (int64_t i = 0; i < 2; ++i)
          for (int64_t j = 0; j < cols; ++j)
            ASSERT_EQ(m(i, j), uniformAt(5, 17, uint64_t(i + rowOffset),
                                         uint64_t(j + colOffset)))
                << cols << " columns at (" << rowOffset << ", " << colOffset
                << "), element (" << i << ", " << j << ")";
      }
}

namespace {
/// docs/language.md section 7's normal element, with glibc's log and cos.
double glibcNormal(uint64_t seed, uint64_t callId, uint64_t i, uint64_t j) {
  auto stream = [&](uint64_t s) {
    uint64_t h = mix64(seed ^ 0x636d6d5f72616e64ULL);
    h = mix64(h ^ callId);
    h = mix64(h ^ i);
    h = mix64(h ^ (2 * j + s));
    return double(h >> 11) * 0x1p-53;
  };
  double u1 = 1.0 - stream(0), u2 = stream(1);
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
}
} // namespace

// Normals likewise: a row is made a chunk of 256 at a time with SLEEF's
// log and cos over the chunk, normalAt one element through applyMap; every
// element must have the same bits (widths across a chunk's end and a vector
// tail, offsets). And both are Box-Muller: within a few units in the last
// place of glibc's log and cos (the formula before they were vectorised).
TEST(Random, NormalRowsEqualTheElementsBitForBit) {
  for (int64_t cols : {1, 7, 255, 256, 257, 600})
    for (int64_t colOffset : {int64_t(0), int64_t(5), int64_t(1) << 33})
      for (int64_t rowOffset : {int64_t(0), int64_t(987654321)}) {
        Matrix m(2, cols);
        fillRandom(m, /*normal=*/true, 11, 3, rowOffset, colOffset);
        for (int64_t i = 0; i < 2; ++i)
          for (int64_t j = 0; j < cols; ++j) {
            const uint64_t gi = uint64_t(i + rowOffset),
                           gj = uint64_t(j + colOffset);
            ASSERT_EQ(m(i, j), normalAt(11, 3, gi, gj))
                << cols << " columns at (" << rowOffset << ", " << colOffset
                << "), element (" << i << ", " << j << ")";
            ASSERT_NEAR(m(i, j), glibcNormal(11, 3, gi, gj),
                        4e-16 * (1.0 + std::fabs(m(i, j))) * 8)
                << "element (" << gi << ", " << gj << ")";
          }
      }
}

TEST(Random, UniformMomentsMatchU01) {
  Matrix m(400, 500);
  fillRandom(m, false, 7, 1);
  double sum = 0, sumSq = 0, lo = 1, hi = 0;
  for (double x : m.values()) {
    sum += x;
    sumSq += x * x;
    lo = std::min(lo, x);
    hi = std::max(hi, x);
  }
  double n = m.size(), mean = sum / n, var = sumSq / n - mean * mean;
  EXPECT_GE(lo, 0.0);
  EXPECT_LT(hi, 1.0);
  // Standard error of the mean is sqrt(1/12/n) ~ 6.5e-4.
  EXPECT_NEAR(mean, 0.5, 4e-3);
  EXPECT_NEAR(var, 1.0 / 12.0, 2e-3);
}

TEST(Random, NormalMomentsMatchN01) {
  Matrix m(400, 500);
  fillRandom(m, true, 7, 2);
  double sum = 0, sumSq = 0;
  for (double x : m.values()) {
    ASSERT_TRUE(std::isfinite(x));
    sum += x;
    sumSq += x * x;
  }
  double n = m.size(), mean = sum / n, var = sumSq / n - mean * mean;
  EXPECT_NEAR(mean, 0.0, 1e-2);
  EXPECT_NEAR(var, 1.0, 1.5e-2);
}
