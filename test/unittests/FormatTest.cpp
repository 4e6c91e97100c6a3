//===- FormatTest.cpp - The output of print ---------------------*- C++ -*-===//

#include "cmmrt/Format.h"

#include <gtest/gtest.h>

#include <cmath>

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
