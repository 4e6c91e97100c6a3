//===- IntegerProductsTest.cpp - Exact single-precision products ----------===//

#include "cmmrt/IntegerProducts.h"
#include "cmmrt/Kernels.h"
#include "cmmrt/RowBands.h"
#include "cmmrt/TileMemory.h"

#include <gtest/gtest.h>

#include <cblas.h>
#include <cmath>
#include <random>

using namespace cmmrt;

namespace {
/// An r x c matrix of integers in [lo, hi].
Matrix integers(int64_t r, int64_t c, int lo, int hi, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int> d(lo, hi);
  Matrix m(r, c);
  for (double &x : m.values())
    x = d(gen);
  return m;
}

/// op(a) * op(b) + c0 in 64-bit integers: the exact oracle.
Matrix reference(const Matrix &a, const Matrix &b, bool ta, bool tb,
                 const Matrix *c0 = nullptr) {
  int64_t m = ta ? a.cols() : a.rows(), k = ta ? a.rows() : a.cols(),
          n = tb ? b.rows() : b.cols();
  Matrix c(m, n);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      long long s = c0 ? (long long)(*c0)(i, j) : 0;
      for (int64_t l = 0; l < k; ++l)
        s += (long long)(ta ? a(l, i) : a(i, l)) *
             (long long)(tb ? b(j, l) : b(l, j));
      c(i, j) = double(s);
    }
  return c;
}

void expectEqual(const Matrix &x, const Matrix &y) {
  ASSERT_EQ(x.rows(), y.rows());
  ASSERT_EQ(x.cols(), y.cols());
  for (int64_t i = 0; i < x.size(); ++i)
    ASSERT_EQ(x.data()[i], y.data()[i]) << "element " << i;
}
} // namespace

TEST(IntegerProducts, LettersTimesKeyAreExact) {
  // Hill's K * M: letters 0..25, k = 300: 300 * 25 * 25 < 2^24.
  Matrix k = integers(200, 300, 0, 25, 1), m = integers(300, 150, 0, 25, 2);
  Matrix c(200, 150, -7.0);
  ASSERT_TRUE(multiplyAddExactInSingle(k, m, 0.0, c, false, false));
  expectEqual(c, reference(k, m, false, false));
}

TEST(IntegerProducts, TransposedRaggedAndAccumulated) {
  // Signed values, both transposes, ragged shapes, and an accumulator (a
  // tiled product's gemm_acc) holding an earlier partial product.
  Matrix a = integers(170, 129, -3, 3, 3), b = integers(140, 170, -2, 2, 4);
  Matrix c0 = integers(129, 140, -50, 50, 5);
  Matrix c = c0;
  ASSERT_TRUE(multiplyAddExactInSingle(a, b, 1.0, c, true, true));
  expectEqual(c, reference(a, b, true, true, &c0));
}

TEST(IntegerProducts, SameOperandTransposed) {
  // A' * A reads one converted copy.
  Matrix a = integers(150, 130, 0, 1, 6);
  Matrix c(130, 130);
  ASSERT_TRUE(multiplyAddExactInSingle(a, a, 0.0, c, true, false));
  expectEqual(c, reference(a, a, true, false));
}

TEST(IntegerProducts, BandedConversionGivesTheSameResult) {
  // Operands above the band threshold, converted on 3 threads.
  setTaskThreads(3);
  Matrix a = integers(300, 400, 0, 1, 7), b = integers(400, 260, 0, 1, 8);
  Matrix c(300, 260);
  bool exact = multiplyAddExactInSingle(a, b, 0.0, c, false, false);
  setTaskThreads(1);
  ASSERT_TRUE(exact);
  expectEqual(c, reference(a, b, false, false));
}

TEST(IntegerProducts, RefusesWhatIsNotExact) {
  Matrix a = integers(150, 150, 0, 5, 9), b = integers(150, 150, 0, 5, 10);
  Matrix c(150, 150, 4.0);
  // One fraction, at the very end.
  Matrix half = b;
  half(149, 149) = 0.5;
  EXPECT_FALSE(multiplyAddExactInSingle(a, half, 0.0, c, false, false));
  // -0: its sums' signs are kept out.
  Matrix negZero = b;
  negZero(3, 4) = -0.0;
  EXPECT_FALSE(multiplyAddExactInSingle(a, negZero, 0.0, c, false, false));
  // NaN and Inf.
  Matrix nan = b;
  nan(0, 0) = std::nan("");
  EXPECT_FALSE(multiplyAddExactInSingle(a, nan, 0.0, c, false, false));
  Matrix inf = b;
  inf(7, 7) = INFINITY;
  EXPECT_FALSE(multiplyAddExactInSingle(a, inf, 0.0, c, false, false));
  // Sums that could pass 2^24: 150 * 400 * 400 = 2.4e7.
  Matrix big = integers(150, 150, 0, 400, 11);
  big(0, 0) = 400;
  EXPECT_FALSE(multiplyAddExactInSingle(big, big, 0.0, c, false, false));
  // Too small to gain: k below the threshold.
  Matrix thin = integers(150, kMinIntegerProductDim - 1, 0, 1, 12);
  Matrix tall = integers(kMinIntegerProductDim - 1, 150, 0, 1, 13);
  EXPECT_FALSE(multiplyAddExactInSingle(thin, tall, 0.0, c, false, false));
  // A refused product leaves the result as it was.
  for (double x : c.values())
    ASSERT_EQ(x, 4.0);
}

TEST(IntegerProducts, TurnsFractionsAwayBeforeCopying) {
  // Most products are of fractions: refused at the first element of either
  // operand, before a float copy (512 x 512: 1 MiB, a pooled block) is
  // mapped.
  Matrix a = integers(512, 512, 0, 5, 14), b = integers(512, 512, 0, 5, 15);
  Matrix c(512, 512, 4.0);
  Matrix fractionA = a, fractionB = b;
  fractionA(0, 0) = 0.25;
  fractionB(0, 0) = 0.25;
  trimTileMemory();
  uint64_t fresh = tileMemoryStats().freshBlocks;
  EXPECT_FALSE(multiplyAddExactInSingle(fractionA, b, 0.0, c, false, false));
  EXPECT_FALSE(multiplyAddExactInSingle(a, fractionB, 0.0, c, false, false));
  EXPECT_EQ(tileMemoryStats().freshBlocks, fresh);
}

TEST(IntegerProducts, MultiplyAddEqualsDgemmBitForBit) {
  // Through the kernels' entry point, against double precision itself.
  Matrix a = integers(256, 300, 0, 25, 14), b = integers(300, 200, 0, 25, 15);
  Matrix viaKernels = matmul(a, b);
  Matrix viaDgemm(256, 200);
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, 256, 200, 300, 1.0,
              a.data(), 300, b.data(), 200, 0.0, viaDgemm.data(), 200);
  EXPECT_TRUE(isExactInSingle(a, b, false));
  expectEqual(viaKernels, viaDgemm);
}
