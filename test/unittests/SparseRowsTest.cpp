//===- SparseRowsTest.cpp - Compressed rows and their products ------------===//

#include "cmmrt/SparseRows.h"
#include "RelativeError.h"
#include "cmmrt/Kernels.h"
#include "cmmrt/RowBands.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

using namespace cmmrt;

namespace {
/// An r x c matrix with about `density` of its elements nonzero (uniform in
/// [-1, 1)), the rest +0.0.
Matrix sparseMatrix(int64_t r, int64_t c, double density, unsigned seed) {
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  Matrix m(r, c);
  for (double &x : m.values())
    x = u(gen) < density ? 2.0 * u(gen) - 1.0 : 0.0;
  return m;
}

Matrix randomVector(int64_t r, int64_t c, unsigned seed) {
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Matrix v(r, c);
  for (double &x : v.values())
    x = u(gen);
  return v;
}

/// The dense matrix back from compressed rows.
Matrix expand(const SparseRows &s) {
  Matrix m(s.rows, s.cols);
  for (int64_t i = 0; i < s.rows; ++i)
    for (int64_t e = s.start[i]; e < s.start[i + 1]; ++e)
      m(i, s.column[e]) = s.value[e];
  return m;
}

/// Runs the test body with the task threads set, then restores one.
struct Threads {
  explicit Threads(int n) { setTaskThreads(n); }
  ~Threads() { setTaskThreads(1); }
};
} // namespace

TEST(SparseRows, CompressesExactlyTheNonzeros) {
  Matrix a = sparseMatrix(300, 517, 0.02, 1);
  a(0, 0) = -0.0; // a signed zero is kept
  a(299, 516) = 5.0;
  for (int threads : {1, 3}) {
    Threads t(threads);
    SparseRows s;
    ASSERT_TRUE(compressRows(a, 0.25, s));
    EXPECT_EQ(s.rows, 300);
    EXPECT_EQ(s.cols, 517);
    ASSERT_EQ(int64_t(s.start.size()), 301);
    int64_t nonzeros = 0;
    for (double x : a.values())
      nonzeros += x != 0.0 || std::signbit(x);
    EXPECT_EQ(s.nonzeros(), nonzeros);
    for (int64_t i = 0; i < s.rows; ++i)
      for (int64_t e = s.start[i] + 1; e < s.start[i + 1]; ++e)
        EXPECT_LT(s.column[e - 1], s.column[e]) << "row " << i;
    EXPECT_EQ(s.column[0], 0);
    EXPECT_TRUE(std::signbit(s.value[0]));
    Matrix back = expand(s);
    EXPECT_EQ(std::memcmp(back.data(), a.data(), 8 * a.size()), 0);
  }
}

TEST(SparseRows, RefusesADenseTile) {
  SparseRows s;
  EXPECT_FALSE(compressRows(sparseMatrix(200, 300, 0.5, 2), 0.25, s));
  // Dense in its last band only: that band stops the scan.
  Matrix a(400, 300);
  for (int64_t i = 350; i < 400; ++i)
    for (int64_t j = 0; j < 300; ++j)
      a(i, j) = 1.0;
  Threads t(4);
  EXPECT_FALSE(compressRows(a, 0.25, s));
}

TEST(SparseRows, TransposeMatchesTheDenseTranspose) {
  Matrix a = sparseMatrix(123, 77, 0.1, 3);
  SparseRows s;
  ASSERT_TRUE(compressRows(a, 0.25, s));
  SparseRows t = transposeSparse(s);
  EXPECT_EQ(t.rows, 77);
  EXPECT_EQ(t.cols, 123);
  Matrix back = expand(t), expected = transpose(a);
  EXPECT_EQ(std::memcmp(back.data(), expected.data(), 8 * a.size()), 0);
  for (int64_t i = 0; i < t.rows; ++i)
    for (int64_t e = t.start[i] + 1; e < t.start[i + 1]; ++e)
      EXPECT_LT(t.column[e - 1], t.column[e]);
}

TEST(SparseRows, ProductAgreesWithDgemv) {
  Matrix a = sparseMatrix(1000, 700, 0.03, 4);
  Matrix x = randomVector(700, 1, 5), y0 = randomVector(1000, 1, 6);
  SparseRows s;
  ASSERT_TRUE(compressRows(a, 0.25, s));
  Matrix one(1000, 1), three(1000, 1);
  {
    Threads t(1);
    multiplyAddSparse(s, x.data(), 0.0, one.data());
  }
  {
    Threads t(3);
    multiplyAddSparse(s, x.data(), 0.0, three.data());
  }
  Matrix expected = matmul(a, x);
  EXPECT_LT(relativeError(one, expected), 1e-14);
  // Each row adds in column order whichever band holds it.
  EXPECT_EQ(std::memcmp(one.data(), three.data(), 8 * one.size()), 0);
  // With the accumulator: y = A x + y0.
  Matrix y = y0;
  multiplyAddSparse(s, x.data(), 1.0, y.data());
  Matrix expectedAcc = y0;
  multiplyAdd(a, x, 1.0, expectedAcc);
  EXPECT_LT(relativeError(y, expectedAcc), 1e-14);
  // beta 0 never reads y: a NaN there is overwritten.
  Matrix garbage(1000, 1, std::numeric_limits<double>::quiet_NaN());
  multiplyAddSparse(s, x.data(), 0.0, garbage.data());
  EXPECT_EQ(std::memcmp(garbage.data(), one.data(), 8 * one.size()), 0);
}

TEST(SparseRows, BreakEvenDensity) {
  EXPECT_EQ(breakEvenDensity(1), 0.0);
  EXPECT_EQ(breakEvenDensity(2), 0.0);
  EXPECT_GT(breakEvenDensity(3), 0.0);
  // products * (1 - 3 d) = 2 + 60 d at the break-even density.
  for (int64_t p : {3, 12, 20, 40}) {
    double d = breakEvenDensity(p);
    EXPECT_NEAR(double(p) * (1 - 3 * d), 2 + 60 * d, 1e-9) << p;
  }
  EXPECT_EQ(breakEvenDensity(1000000), kSparseDensityLimit);
  EXPECT_LT(breakEvenDensity(12), breakEvenDensity(60));
}

TEST(SparseRows, SampledDensity) {
  EXPECT_NEAR(sampleDensity(sparseMatrix(2000, 1000, 0.01, 7)), 0.01, 0.003);
  EXPECT_NEAR(sampleDensity(sparseMatrix(2000, 1000, 0.3, 8)), 0.3, 0.02);
  EXPECT_EQ(sampleDensity(Matrix(50, 40)), 0.0);
  EXPECT_EQ(sampleDensity(Matrix(50, 40, 1.0)), 1.0);
}

/// Every orientation of a matrix-vector product on a SparseOperand against
/// the dense product.
TEST(SparseRows, VectorProductsInEveryOrientation) {
  Matrix a = sparseMatrix(600, 400, 0.01, 9);
  Matrix at = transpose(a);
  SparseOperand sparse(a, 60), sparseT(at, 60);
  Matrix col400 = randomVector(400, 1, 10), col600 = randomVector(600, 1, 11);
  Matrix row400 = randomVector(1, 400, 12), row600 = randomVector(1, 600, 13);
  struct Case {
    const char *what;
    const Matrix &a, &b;
    bool ta, tb;
    SparseOperand *sa, *sb;
    int64_t m, n;
  } cases[] = {
      {"A * x", a, col400, false, false, &sparse, nullptr, 600, 1},
      {"A' * x", a, col600, true, false, &sparse, nullptr, 400, 1},
      {"A * x (x a transposed row)", a, row400, false, true, &sparse, nullptr,
       600, 1},
      {"x' * A", row600, a, false, false, nullptr, &sparse, 1, 400},
      {"x' * A'", row400, a, false, true, nullptr, &sparse, 1, 600},
      {"(A')' * x", at, col400, true, false, &sparseT, nullptr, 600, 1},
  };
  for (const Case &c : cases) {
    Matrix got(c.m, c.n), expected(c.m, c.n);
    ASSERT_TRUE(
        multiplyAddVectorSparse(c.sa, c.sb, c.a, c.b, 0.0, got, c.ta, c.tb))
        << c.what;
    multiplyAdd(c.a, c.b, 0.0, expected, c.ta, c.tb);
    EXPECT_LT(relativeError(got, expected), 1e-14) << c.what;
  }
  EXPECT_NE(sparse.rows(), nullptr);
  EXPECT_NE(sparse.transposedRows(), nullptr);
}

TEST(SparseRows, RefusalsLeaveTheResultUntouched) {
  Matrix a = sparseMatrix(600, 400, 0.01, 14);
  Matrix x = randomVector(400, 1, 15);
  const double marker = 42.0;
  // A vector with an Inf or a NaN: 0 * Inf is NaN, which skipping loses.
  for (double bad : {std::numeric_limits<double>::infinity(),
                     std::numeric_limits<double>::quiet_NaN()}) {
    SparseOperand sparse(a, 60);
    Matrix v = x;
    v(7, 0) = bad;
    Matrix c(600, 1, marker);
    EXPECT_FALSE(
        multiplyAddVectorSparse(&sparse, nullptr, a, v, 0.0, c, false, false));
    EXPECT_EQ(c(0, 0), marker);
  }
  // Too dense for the products it serves, or too few products.
  Matrix dense = sparseMatrix(600, 400, 0.5, 16);
  SparseOperand denseOperand(dense, 60), fewProducts(a, 2);
  Matrix c(600, 1, marker);
  EXPECT_FALSE(multiplyAddVectorSparse(&denseOperand, nullptr, dense, x, 0.0, c,
                                       false, false));
  EXPECT_FALSE(multiplyAddVectorSparse(&fewProducts, nullptr, a, x, 0.0, c,
                                       false, false));
  EXPECT_EQ(denseOperand.rows(), nullptr);
  EXPECT_EQ(fewProducts.rows(), nullptr);
  // Not a matrix-vector product, or the vector's side has no operand.
  SparseOperand sparse(a, 60);
  Matrix b = randomVector(400, 3, 17), wide(600, 3, marker);
  EXPECT_FALSE(
      multiplyAddVectorSparse(&sparse, nullptr, a, b, 0.0, wide, false, false));
  EXPECT_FALSE(
      multiplyAddVectorSparse(nullptr, &sparse, a, x, 0.0, c, false, false));
  EXPECT_EQ(c(0, 0), marker);
  EXPECT_EQ(wide(0, 0), marker);
}

TEST(SparseRows, StatsCountWhatRan) {
  SparseStats before = sparseStats();
  Matrix a = sparseMatrix(300, 300, 0.01, 18);
  Matrix x = randomVector(300, 1, 19), c(300, 1);
  SparseOperand sparse(a, 10);
  for (int i = 0; i < 3; ++i)
    ASSERT_TRUE(
        multiplyAddVectorSparse(&sparse, nullptr, a, x, 0.0, c, false, false));
  SparseStats after = sparseStats();
  EXPECT_EQ(after.tiles - before.tiles, 1);
  EXPECT_EQ(after.products - before.products, 3);
  EXPECT_EQ(after.elements - before.elements, 90000);
  EXPECT_EQ(after.nonzeros - before.nonzeros, sparse.rows()->nonzeros());
}
