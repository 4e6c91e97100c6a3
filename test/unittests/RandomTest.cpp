//===- RandomTest.cpp - Counter-based random matrices -----------*- C++ -*-===//

#include "cmmrt/Random.h"

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
