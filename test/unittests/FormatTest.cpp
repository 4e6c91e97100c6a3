//===- FormatTest.cpp - The output of print ---------------------*- C++ -*-===//

#include "cmmrt/Format.h"
#include "cmmrt/RowBands.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

using namespace cmmrt;

TEST(Format, NumbersHaveSixSignificantDigits) {
  EXPECT_EQ(formatNumber(4987.2234), "4987.22");
  EXPECT_EQ(formatNumber(0.49912), "0.49912");
  EXPECT_EQ(formatNumber(1e-7), "1e-07");
  EXPECT_EQ(formatNumber(123456789.0), "1.23457e+08");
  EXPECT_EQ(formatNumber(-2.0), "-2");
}

TEST(Format, NonFiniteValues) {
  EXPECT_EQ(formatNumber(NAN), "NaN");
  EXPECT_EQ(formatNumber(INFINITY), "Inf");
  EXPECT_EQ(formatNumber(-INFINITY), "-Inf");
}

TEST(Format, SummaryShowsFourElementsOfTheFirstRow) {
  Matrix m(2, 5);
  for (int64_t j = 0; j < 5; ++j) {
    m(0, j) = j + 1;
    m(1, j) = 0;
  }
  // sum = 15, norm = sqrt(1+4+9+16+25) = sqrt(55) = 7.41620
  EXPECT_EQ(formatSummary("M", m), "M 2x5 sum=15 norm=7.4162 [1 2 3 4 ...]");
}

TEST(Format, ShortRowsHaveNoEllipsis) {
  Matrix m(1, 1, -3.5);
  EXPECT_EQ(formatSummary("s", m), "s 1x1 sum=-3.5 norm=3.5 [-3.5]");
}

TEST(Format, Scalars) { EXPECT_EQ(formatScalar("n", 1000), "n = 1000"); }

TEST(Format, NormDoesNotOverflow) {
  Matrix m(1, 2, 1e200);
  EXPECT_NEAR(frobeniusNorm(m) / (std::sqrt(2.0) * 1e200), 1.0, 1e-15);
}

TEST(Format, PairwiseSumIsAccurate) {
  Matrix m(1, 1000001, 0.1);
  EXPECT_NEAR(sumOf(m), 100000.1, 1e-8);
}

TEST(Format, SumAndNormInOnePassOnAnyNumberOfThreads) {
  // 300 x 701 elements (past the banding threshold, not a power of two):
  // the sum is sumOf's bit for bit and neither depends on the thread count;
  // the norm agrees with a long double sum of squares.
  Matrix m(300, 701);
  uint64_t state = 12345;
  for (double &x : m.values()) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    x = double(int64_t(state >> 11) - (int64_t(1) << 52)) / 1e13;
  }
  long double squares = 0;
  for (double x : m.values())
    squares += (long double)x * x;
  const double reference = double(std::sqrt(squares));
  const int before = taskThreads();
  std::vector<SumAndNorm> results;
  for (int threads : {1, 2, 3}) {
    setTaskThreads(threads);
    results.push_back(sumAndNorm(m));
  }
  setTaskThreads(before);
  for (const SumAndNorm &r : results) {
    EXPECT_EQ(r.sum, sumOf(m));
    EXPECT_EQ(r.norm, results.front().norm);
    EXPECT_NEAR(r.norm / reference, 1.0, 1e-14);
  }
}

TEST(Format, NormEdgeCases) {
  auto norm = [](std::vector<double> values) {
    Matrix m(1, int64_t(values.size()));
    std::copy(values.begin(), values.end(), m.data());
    return frobeniusNorm(m);
  };
  const double inf = INFINITY, nan = NAN;
  EXPECT_EQ(norm({0.0, -0.0}), 0.0);
  EXPECT_EQ(norm({3.0, -4.0}), 5.0);
  EXPECT_TRUE(std::isnan(norm({1.0, nan, inf})));
  EXPECT_TRUE(std::isnan(norm({inf, nan})));
  EXPECT_EQ(norm({1.0, -inf}), inf);
  // Squares that would underflow to 0 or overflow to Inf: rescaled.
  EXPECT_NEAR(norm({3e-200, 4e-200}) / 5e-200, 1.0, 1e-15);
  EXPECT_NEAR(norm({3e300, 4e300}) / 5e300, 1.0, 1e-15);
  // Denormals (about 4 significant digits at 1e-320).
  EXPECT_NEAR(norm({3e-320, 4e-320}) / 5e-320, 1.0, 1e-3);
  // A huge element among many small ones, in the banded path.
  Matrix big(512, 512, 1.0);
  big(100, 7) = 1e300;
  EXPECT_NEAR(frobeniusNorm(big) / 1e300, 1.0, 1e-15);
}

// display(A): the summary line, then each row with print's number format.
TEST(Format, DisplayAddsEveryRow) {
  cmmrt::Matrix m(2, 2);
  m(0, 0) = 1;
  m(0, 1) = 0.5;
  m(1, 0) = -2e-7;
  m(1, 1) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(cmmrt::formatDisplay("B", m),
            "B 2x2 sum=NaN norm=NaN [1 0.5]\n1 0.5\n-2e-07 NaN");
}
