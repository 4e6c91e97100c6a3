//===- KernelsTest.cpp - Dense kernels against hand results -----*- C++ -*-===//

#include "cmmrt/Kernels.h"

#include "TestMatrices.h"

#include <gtest/gtest.h>

#include <cmath>
#include <initializer_list>
#include <limits>
#include <random>

using namespace cmmrt;
using namespace cmmrt::test;

TEST(Kernels, Matmul) {
  Matrix a = make(2, 3, {1, 2, 3, 4, 5, 6});
  Matrix b = make(3, 2, {7, 8, 9, 10, 11, 12});
  expectNear(matmul(a, b), make(2, 2, {58, 64, 139, 154}));
}

// A product writes every element of C when beta is 0 (tasks and matmul
// hand it an unset buffer): on every path, and for k = 0 too, an empty sum
// that dgemm would not touch.
TEST(Kernels, ProductsWriteAnUnsetResultWhole) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  struct Case {
    int64_t m, k, n;
    bool sameOperand; // A' * A: dsyrk
  } cases[] = {{5, 0, 4, false}, {6, 3, 1, false},       {1, 3, 6, false},
               {7, 5, 6, false}, {130, 140, 150, false}, {9, 4, 9, true}};
  for (const Case &c : cases) {
    Matrix a(c.sameOperand ? c.k : c.m,
             c.k == 0 ? 0 : (c.sameOperand ? c.m : c.k));
    Matrix b(c.k, c.n);
    for (int64_t e = 0; e < a.size(); ++e)
      a.data()[e] = double(e % 7) - 3.0; // small integers: also the exact path
    for (int64_t e = 0; e < b.size(); ++e)
      b.data()[e] = double(e % 5) - 2.0;
    if (c.k == 0)
      a = Matrix(c.m, 0);
    const Matrix &rhs = c.sameOperand ? a : b;
    Matrix got(c.m, c.n, nan);
    multiplyAdd(a, rhs, 0.0, got, c.sameOperand, false);
    for (int64_t i = 0; i < c.m; ++i)
      for (int64_t j = 0; j < c.n; ++j) {
        double expected = 0;
        for (int64_t l = 0; l < c.k; ++l)
          expected += (c.sameOperand ? a(l, i) : a(i, l)) * rhs(l, j);
        ASSERT_EQ(got(i, j), expected) << c.m << "x" << c.k << "x" << c.n
                                       << " at (" << i << ", " << j << ")";
      }
    // With beta 1 an empty sum leaves C as it was.
    if (c.k == 0) {
      Matrix acc(c.m, c.n, 2.5);
      multiplyAdd(a, b, 1.0, acc);
      EXPECT_EQ(acc(c.m - 1, c.n - 1), 2.5);
    }
  }
}

TEST(Kernels, TransposedOperandsAreReadInPlace) {
  // Every flag combination on dgemm, dgemv (a vector on either side, as a
  // row or a column) and dsyrk shapes, against the naive product of the
  // explicit transposes.
  struct Shape {
    int64_t m, k, n;
  } shapes[] = {{5, 7, 4}, {1, 7, 4}, {5, 7, 1}, {1, 7, 1}, {6, 1, 3}};
  for (Shape s : shapes)
    for (bool ta : {false, true})
      for (bool tb : {false, true}) {
        Matrix a = ta ? randomMatrix(s.k, s.m, 1) : randomMatrix(s.m, s.k, 1);
        Matrix b = tb ? randomMatrix(s.n, s.k, 2) : randomMatrix(s.k, s.n, 2);
        Matrix expected = product(ta ? transpose(a) : a, tb ? transpose(b) : b);
        expectNear(matmul(a, b, ta, tb), expected);
        // Accumulating: C = op(A) op(B) + C.
        Matrix c = randomMatrix(s.m, s.n, 3), sum = c;
        for (int64_t i = 0; i < sum.size(); ++i)
          sum.data()[i] += expected.data()[i];
        multiplyAdd(a, b, 1.0, c, ta, tb);
        expectNear(c, sum);
      }
}

TEST(Kernels, SymmetricProductsOnDsyrkAreWholeAndSymmetric) {
  Matrix a = randomMatrix(9, 6, 4);
  Matrix ata = matmul(a, a, /*transposeA=*/true, false);
  Matrix aat = matmul(a, a, false, /*transposeB=*/true);
  expectNear(ata, product(transpose(a), a));
  expectNear(aat, product(a, transpose(a)));
  for (int64_t i = 0; i < 6; ++i)
    for (int64_t j = 0; j < 6; ++j)
      EXPECT_EQ(ata(i, j), ata(j, i)); // the mirror, bit for bit
  // Accumulating onto a symmetric C (a diagonal tile's partial sums) stays
  // on dsyrk; onto a non-symmetric C it must not (dsyrk would keep only
  // C's upper triangle).
  Matrix c = ata, skew = ata;
  skew(0, 1) += 1.0;
  multiplyAdd(a, a, 1.0, c, true, false);
  Matrix twice = ata;
  for (int64_t i = 0; i < twice.size(); ++i)
    twice.data()[i] *= 2;
  expectNear(c, twice);
  multiplyAdd(a, a, 1.0, skew, true, false);
  twice(0, 1) += 1.0;
  expectNear(skew, twice);
  // A 70x70 result crosses the 64-element blocks of the mirror.
  Matrix tall = randomMatrix(70, 5, 5);
  expectNear(matmul(tall, tall, false, true), product(tall, transpose(tall)));
}

TEST(Kernels, PowerBySquaringEqualsRepeatedProducts) {
  Matrix a = make(2, 2, {1, 1, 1, 0}); // Fibonacci matrix
  // [[1,1],[1,0]]^10 = [[F11, F10], [F10, F9]] = [[89, 55], [55, 34]]
  expectNear(power(a, 10), make(2, 2, {89, 55, 55, 34}));
  expectNear(power(a, 0), identity(2));
  expectNear(power(a, 1), a);
}

TEST(Kernels, Transpose) {
  expectNear(transpose(make(2, 3, {1, 2, 3, 4, 5, 6})),
             make(3, 2, {1, 4, 2, 5, 3, 6}));
  // Ragged blocks on both sides (the kernel works in 256 x 4 blocks):
  // every element lands where the definition puts it.
  for (auto [rows, cols] : {std::pair<int64_t, int64_t>{70, 33},
                            {1, 100},
                            {300, 7},
                            {7, 300},
                            {100, 1},
                            {64, 64},
                            {31, 97}}) {
    Matrix a(rows, cols);
    for (int64_t e = 0; e < a.size(); ++e)
      a.data()[e] = double(e);
    Matrix t = transpose(a);
    ASSERT_EQ(t.rows(), cols);
    ASSERT_EQ(t.cols(), rows);
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j)
        ASSERT_EQ(t(j, i), double(i * cols + j)) << rows << "x" << cols;
  }
}

TEST(Kernels, BroadcastRowAgainstColumn) {
  Matrix row = make(1, 3, {1, 2, 3});
  Matrix col = make(2, 1, {10, 20});
  expectNear(broadcast(BinaryFn::Add, row, col),
             make(2, 3, {11, 12, 13, 21, 22, 23}));
  Matrix m = make(2, 3, {1, 2, 3, 4, 5, 6});
  expectNear(broadcast(BinaryFn::Div, m, col),
             make(2, 3, {0.1, 0.2, 0.3, 0.2, 0.25, 0.3}));
}

TEST(Kernels, ModTakesTheSignOfTheDivisor) {
  EXPECT_EQ(applyBinary(BinaryFn::Mod, -7, 3), 2);
  EXPECT_EQ(applyBinary(BinaryFn::Mod, 7, -3), -2);
  EXPECT_EQ(applyBinary(BinaryFn::Mod, 7.5, 2), 1.5);
}

/// The definition of mod through fmod (exact, slow): the oracle of the
/// fast path.
static double modByFmod(double x, double y) {
  double r = std::fmod(x, y);
  if (r == 0)
    return std::copysign(0.0, y);
  if ((r < 0) != (y < 0))
    r += y;
  return r;
}

static bool sameDouble(double a, double b) {
  return (std::isnan(a) && std::isnan(b)) ||
         (a == b && std::signbit(a) == std::signbit(b));
}

TEST(Kernels, ModEqualsFmodBitForBit) {
  // Random operands over many magnitudes and both signs (quotients from
  // tiny to 2^60, where the fast path hands over to fmod), quotients just
  // below and above integers (where a rounded division is off by one), and
  // the IEEE edge cases: every result must be fmod's, sign of zero
  // included.
  std::mt19937_64 rng(20261122);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::uniform_int_distribution<int> exponent(-40, 60);
  int checked = 0;
  for (int i = 0; i < 200000; ++i) {
    double x = std::ldexp(unit(rng), exponent(rng));
    double y = std::ldexp(unit(rng), exponent(rng) / 4);
    if (i % 4 == 1) // x a multiple of y, nudged by an ulp either way
      x = std::nextafter(std::round(x / y) * y,
                         i % 8 == 1 ? HUGE_VAL : -HUGE_VAL);
    if (i % 4 == 2) // integer-valued operands, as in the Hill cipher
      x = std::round(x), y = std::round(y) == 0 ? 26 : std::round(y);
    ASSERT_TRUE(sameDouble(applyBinary(BinaryFn::Mod, x, y), modByFmod(x, y)))
        << "mod(" << x << ", " << y << ")";
    ++checked;
  }
  const double inf = HUGE_VAL, nan = std::nan("");
  for (double x : {0.0, -0.0, 1.0, -1.0, 6.0, -6.0, 1e300, -1e300, inf, -inf,
                   nan, 5e-324, 0x1p52, 0x1p53 + 2})
    for (double y :
         {3.0, -3.0, 0.0, -0.0, inf, -inf, nan, 5e-324, 0.1, -0.1, 1e-300})
      EXPECT_TRUE(sameDouble(applyBinary(BinaryFn::Mod, x, y), modByFmod(x, y)))
          << "mod(" << x << ", " << y << ")";
  EXPECT_EQ(checked, 200000);
}

TEST(Kernels, MaxMinOrderSignedZeros) {
  // As Julia: max(-0.0, 0.0) and max(0.0, -0.0) are 0.0, min of either is
  // -0.0.
  for (auto [x, y] : {std::pair{-0.0, 0.0}, std::pair{0.0, -0.0}}) {
    EXPECT_FALSE(std::signbit(applyBinary(BinaryFn::Max, x, y)));
    EXPECT_TRUE(std::signbit(applyBinary(BinaryFn::Min, x, y)));
  }
  EXPECT_EQ(applyBinary(BinaryFn::Max, 2, 3), 3);
  EXPECT_EQ(applyBinary(BinaryFn::Min, 2, 3), 2);
  Matrix m = make(1, 3, {-0.0, 0.0, -0.0});
  EXPECT_FALSE(std::signbit(reduce(ReduceFn::Max, m, 0)(0, 0)));
  EXPECT_TRUE(
      std::signbit(reduce(ReduceFn::Min, make(1, 2, {0.0, -0.0}), 0)(0, 0)));
}

TEST(Kernels, MaxMinPropagateNaN) {
  EXPECT_TRUE(std::isnan(applyBinary(BinaryFn::Max, NAN, 1)));
  EXPECT_TRUE(std::isnan(applyBinary(BinaryFn::Min, 1, NAN)));
  Matrix m = make(1, 3, {1, NAN, 3});
  EXPECT_TRUE(std::isnan(reduce(ReduceFn::Max, m, 0)(0, 0)));
}

TEST(Kernels, RoundTiesToEven) {
  Matrix m = make(1, 5, {0.5, 1.5, 2.5, -0.5, 2.6});
  expectNear(map(MapFn::Round, m), make(1, 5, {0, 2, 2, -0.0, 3}));
}

TEST(Kernels, Reductions) {
  Matrix m = make(2, 3, {1, 2, 3, 4, 5, 6});
  expectNear(reduce(ReduceFn::Sum, m, 0), make(1, 1, {21}));
  expectNear(reduce(ReduceFn::Sum, m, 1), make(1, 3, {5, 7, 9}));
  expectNear(reduce(ReduceFn::Sum, m, 2), make(2, 1, {6, 15}));
  expectNear(reduce(ReduceFn::Mean, m, 2), make(2, 1, {2, 5}));
  expectNear(reduce(ReduceFn::Max, m, 1), make(1, 3, {4, 5, 6}));
  expectNear(reduce(ReduceFn::Min, m, 2), make(2, 1, {1, 4}));
}

TEST(Kernels, ReductionsAlongEachDimensionMatchOneElementAtATime) {
  // The oracle folds applyBinary over each row or column one element at a
  // time (Julia's max/min: NaN wins, -0 below +0); the kernels vectorise.
  const int64_t rows = 37, cols = 300;
  Matrix m(rows, cols);
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      m(i, j) = std::sin(double(i * cols + j)) * 100;
  m(3, 7) = NAN;                 // row 3 and column 7
  m(5, 0) = -0.0, m(5, 1) = 0.0; // zeros beside nonzero values
  for (int64_t j = 0; j < cols; ++j)
    m(6, j) = j % 2 ? 0.0 : -0.0;              // row 6: all zeros
  m(10, 20) = INFINITY, m(11, 21) = -INFINITY; // not NaN, but x - x is
  for (BinaryFn fn : {BinaryFn::Max, BinaryFn::Min}) {
    ReduceFn rfn = fn == BinaryFn::Max ? ReduceFn::Max : ReduceFn::Min;
    Matrix byRow = reduce(rfn, m, 2), byCol = reduce(rfn, m, 1);
    for (int64_t i = 0; i < rows; ++i) {
      double want = m(i, 0);
      for (int64_t j = 1; j < cols; ++j)
        want = applyBinary(fn, want, m(i, j));
      if (std::isnan(want))
        EXPECT_TRUE(std::isnan(byRow(i, 0))) << i;
      else
        EXPECT_EQ(byRow(i, 0), want) << i;
      EXPECT_EQ(std::signbit(byRow(i, 0)), std::signbit(want)) << i;
    }
    for (int64_t j = 0; j < cols; ++j) {
      double want = m(0, j);
      for (int64_t i = 1; i < rows; ++i)
        want = applyBinary(fn, want, m(i, j));
      if (std::isnan(want))
        EXPECT_TRUE(std::isnan(byCol(0, j))) << j;
      else
        EXPECT_EQ(byCol(0, j), want) << j;
      EXPECT_EQ(std::signbit(byCol(0, j)), std::signbit(want)) << j;
    }
  }
  EXPECT_TRUE(std::isnan(reduce(ReduceFn::Max, m, 2)(3, 0)));
  EXPECT_TRUE(std::isnan(reduce(ReduceFn::Min, m, 1)(0, 7)));
  EXPECT_FALSE(std::signbit(reduce(ReduceFn::Max, m, 2)(6, 0)));
  EXPECT_TRUE(std::signbit(reduce(ReduceFn::Min, m, 2)(6, 0)));
  EXPECT_EQ(reduce(ReduceFn::Max, m, 2)(10, 0), INFINITY);
  EXPECT_EQ(reduce(ReduceFn::Min, m, 1)(0, 21), -INFINITY);
  // Sums: within rounding of a plain running sum, each dimension.
  m(3, 7) = 1, m(10, 20) = 2, m(11, 21) = 3;
  Matrix rowSums = reduce(ReduceFn::Sum, m, 2);
  Matrix colMeans = reduce(ReduceFn::Mean, m, 1);
  for (int64_t i = 0; i < rows; ++i) {
    double want = 0;
    for (int64_t j = 0; j < cols; ++j)
      want += m(i, j);
    EXPECT_NEAR(rowSums(i, 0), want, 1e-10 * cols * 100) << i;
  }
  for (int64_t j = 0; j < cols; ++j) {
    double want = 0;
    for (int64_t i = 0; i < rows; ++i)
      want += m(i, j);
    EXPECT_NEAR(colMeans(0, j), want / rows, 1e-12) << j;
  }
}

TEST(Kernels, ExtremaSettleTheCasesTheVectorLoopPassesOver) {
  // The row and whole-matrix loops run eight lanes of MAXPD/MINPD (which
  // pass over a NaN) with a running sum as the probe that sends them to a
  // rescan: each case below is one the plain compares alone get wrong, or
  // one where the probe is not finite without a NaN.
  const int64_t cols = 35; // four blocks of eight and a tail of three
  auto row = [&](auto value) {
    Matrix m(1, cols);
    for (int64_t j = 0; j < cols; ++j)
      m(0, j) = value(j);
    return m;
  };
  auto both = [](const Matrix &m, ReduceFn fn) {
    double byRow = reduce(fn, m, 2)(0, 0), whole = reduce(fn, m, 0)(0, 0);
    EXPECT_EQ(std::signbit(byRow), std::signbit(whole));
    if (std::isnan(byRow) || std::isnan(whole))
      EXPECT_TRUE(std::isnan(byRow) && std::isnan(whole));
    else
      EXPECT_EQ(byRow, whole);
    return byRow;
  };
  for (int64_t at : {0, 9, 31, 33}) { // a NaN in a lane, and in the tail
    Matrix m = row([&](int64_t j) { return j == at ? NAN : double(j); });
    EXPECT_TRUE(std::isnan(both(m, ReduceFn::Max))) << at;
    EXPECT_TRUE(std::isnan(both(m, ReduceFn::Min))) << at;
  }
  // Sums that overflow to Inf (no NaN, no Inf in the data).
  Matrix huge = row([](int64_t j) { return 1e308 + j * 1e292; });
  EXPECT_EQ(both(huge, ReduceFn::Max), 1e308 + 34 * 1e292);
  EXPECT_EQ(both(huge, ReduceFn::Min), 1e308);
  // +Inf and -Inf together (the probe is NaN) and no NaN.
  Matrix infs = row([](int64_t j) {
    return j == 4 ? INFINITY : j == 30 ? -INFINITY : double(j);
  });
  EXPECT_EQ(both(infs, ReduceFn::Max), INFINITY);
  EXPECT_EQ(both(infs, ReduceFn::Min), -INFINITY);
  // Zeros of both signs in different lanes and the tail, all else negative
  // (max) or positive (min): the sign the rules want wins.
  Matrix negatives = row([](int64_t j) {
    return j == 3 ? -0.0 : j == 34 ? 0.0 : -1.0 - j;
  });
  EXPECT_FALSE(std::signbit(both(negatives, ReduceFn::Max)));
  Matrix positives = row([](int64_t j) {
    return j == 5 ? 0.0 : j == 33 ? -0.0 : 1.0 + j;
  });
  EXPECT_TRUE(std::signbit(both(positives, ReduceFn::Min)));
}

TEST(Kernels, InverseAndSolve) {
  Matrix a = make(2, 2, {4, 7, 2, 6}); // det = 10
  Matrix inv;
  ASSERT_TRUE(inverse(a, inv));
  expectNear(inv, make(2, 2, {0.6, -0.7, -0.2, 0.4}), 1e-14);
  Matrix b = make(2, 1, {1, 2});
  Matrix x;
  ASSERT_TRUE(solve(a, b, x));
  // x = inv * b = [0.6 - 1.4, -0.2 + 0.8]
  expectNear(x, make(2, 1, {-0.8, 0.6}), 1e-14);
}

TEST(Kernels, SingularMatricesAreReported) {
  Matrix s = make(2, 2, {1, 2, 2, 4});
  Matrix out;
  EXPECT_FALSE(inverse(s, out));
  EXPECT_FALSE(solve(s, make(2, 1, {1, 1}), out));
}

// The block kernels of indexing and concatenation (docs/language.md §14),
// against hand-written results.
TEST(Kernels, SliceCopiesTheBlock) {
  Matrix a = make(3, 4, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
  expectNear(sliceOf(a, 1, 1, 2, 2), make(2, 2, {6, 7, 10, 11}));
  expectNear(sliceOf(a, 0, 3, 3, 1), make(3, 1, {4, 8, 12}));
  expectNear(sliceOf(a, 0, 0, 3, 4), a);
}

TEST(Kernels, InsertBlockReplacesOnlyTheBlock) {
  Matrix a = make(3, 3, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  Matrix b = make(2, 1, {-1, -2});
  expectNear(insertBlock(a, b, 1, 2),
             make(3, 3, {1, 2, 3, 4, 5, -1, 7, 8, -2}));
  // The destination is not changed.
  expectNear(a, make(3, 3, {1, 2, 3, 4, 5, 6, 7, 8, 9}));
}

TEST(Kernels, ConcatenateSideBySideAndStacked) {
  Matrix a = make(2, 1, {1, 2}), b = make(2, 2, {3, 4, 5, 6});
  expectNear(concatenate({&a, &b}, 2), make(2, 3, {1, 3, 4, 2, 5, 6}));
  Matrix c = make(1, 2, {7, 8});
  expectNear(concatenate({&b, &c, &c}, 1),
             make(4, 2, {3, 4, 5, 6, 7, 8, 7, 8}));
}

TEST(Kernels, DiagonalBothWays) {
  Matrix a = make(3, 3, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  expectNear(diagonal(a), make(3, 1, {1, 5, 9}));
  Matrix row = make(1, 2, {2, 3}), column = make(2, 1, {2, 3});
  expectNear(diagonal(row), make(2, 2, {2, 0, 0, 3}));
  expectNear(diagonal(column), make(2, 2, {2, 0, 0, 3}));
}

TEST(Kernels, ReshapeIsColumnMajorAsJulia) {
  // Julia: reshape([1 2 3; 4 5 6], 3, 2) == [1 5; 4 3; 2 6].
  Matrix a = make(2, 3, {1, 2, 3, 4, 5, 6});
  expectNear(reshapeColumnMajor(a, 3, 2), make(3, 2, {1, 5, 4, 3, 2, 6}));
  // A row vector reshaped to a column keeps its order.
  expectNear(reshapeColumnMajor(make(1, 3, {1, 2, 3}), 3, 1),
             make(3, 1, {1, 2, 3}));
}
