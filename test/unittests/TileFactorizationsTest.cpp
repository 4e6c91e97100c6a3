//===- TileFactorizationsTest.cpp - chol's and solves' tile kernels -------===//
//
// Each kernel against a hand-computed case, and the kernels composed as the
// tiler composes them (right-looking Cholesky, block substitution) on
// ragged tiles against the whole-matrix LAPACK results of
// cmmrt/Factorizations.h and the defining identities.
//
//===----------------------------------------------------------------------===//

#include "cmmrt/TileFactorizations.h"

#include "cmmrt/Factorizations.h"
#include "cmmrt/RowBands.h"

#include "RelativeError.h"
#include "TestMatrices.h"

#include <gtest/gtest.h>

#include <limits>

using namespace cmmrt;
using namespace cmmrt::test;

namespace {

/// A symmetric positive definite n x n matrix: X' X + n I.
Matrix spd(int64_t n, unsigned seed) {
  Matrix x = randomMatrix(n, n, seed);
  Matrix a = product(transposed(x), x);
  for (int64_t i = 0; i < n; ++i)
    a(i, i) += double(n);
  return a;
}

/// The block of `a` at tile (i, j) of a grid of `size`-tiles.
Matrix tileOf(const Matrix &a, int64_t size, int64_t i, int64_t j) {
  int64_t r0 = i * size, c0 = j * size;
  int64_t rows = std::min(size, a.rows() - r0),
          cols = std::min(size, a.cols() - c0);
  Matrix t(rows, cols);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      t(r, c) = a(r0 + r, c0 + c);
  return t;
}

void putTile(Matrix &a, int64_t size, int64_t i, int64_t j, const Matrix &t) {
  for (int64_t r = 0; r < t.rows(); ++r)
    for (int64_t c = 0; c < t.cols(); ++c)
      a(i * size + r, j * size + c) = t(r, c);
}

/// chol(a) by the tile kernels in Tiling.cpp's order; false with the
/// kernel's message.
bool tiledCholesky(const Matrix &a, int64_t size, Matrix &r,
                   std::string &error) {
  const int64_t t = (a.rows() + size - 1) / size;
  std::vector<std::vector<Matrix>> cur(t, std::vector<Matrix>(t));
  std::vector<Matrix> shares;
  for (int64_t i = 0; i < t; ++i)
    for (int64_t j = i; j < t; ++j) {
      cur[i][j] = tileOf(a, size, i, j);
      Matrix mirror = tileOf(a, size, j, i);
      shares.push_back(symmetryShare(cur[i][j], i == j ? nullptr : &mirror));
    }
  std::vector<const Matrix *> sharePointers;
  for (const Matrix &s : shares)
    sharePointers.push_back(&s);
  if (!symmetricFromShares(sharePointers)) {
    error = "not symmetric";
    return false;
  }
  r = Matrix(a.rows(), a.cols());
  for (int64_t k = 0; k < t; ++k) {
    if (!factorDiagonalTile(cur[k][k], k * size, a.rows(), error))
      return false;
    const Matrix &rkk = cur[k][k];
    for (int64_t j = k + 1; j < t; ++j)
      solveWithTriangle(rkk, TileTriangle::UpperTransposed, cur[k][j]);
    for (int64_t i = k + 1; i < t; ++i) {
      subtractGram(cur[k][i], cur[i][i]);
      for (int64_t j = i + 1; j < t; ++j)
        subtractProduct(cur[k][i], cur[k][j], /*transposeA=*/true, cur[i][j]);
    }
  }
  for (int64_t i = 0; i < t; ++i)
    for (int64_t j = i; j < t; ++j)
      putTile(r, size, i, j, cur[i][j]);
  return true;
}

} // namespace

TEST(TileFactorizations, PotrfByHandAndItsOrderInTheMatrix) {
  // [4 2; 2 5] = R' R with R = [2 1; 0 2]; the lower input is not read.
  Matrix r = make(2, 2, {4, 2, -99, 5});
  std::string error;
  ASSERT_TRUE(factorDiagonalTile(r, 0, 2, error)) << error;
  expectNear(r, make(2, 2, {2, 1, 0, 2}), 1e-15);
  // [1 2; 2 1] fails at its minor of order 2: order 5 of the matrix when
  // the tile starts at row 3.
  r = make(2, 2, {1, 2, 2, 1});
  EXPECT_FALSE(factorDiagonalTile(r, 3, 9, error));
  EXPECT_EQ(error, "chol: the 9x9 matrix is not positive definite (its "
                   "leading minor of order 5 is not positive)");
}

TEST(TileFactorizations, TrsmByHandInEveryReading) {
  // T = [2 1; 0 4]: T x = [4; 8] is [1; 2]; T' x = [4; 8] is [2; 1.5].
  Matrix upper = make(2, 2, {2, 1, 0, 4});
  Matrix b = make(2, 1, {4, 8});
  solveWithTriangle(upper, TileTriangle::Upper, b);
  expectNear(b, make(2, 1, {1, 2}), 1e-15);
  b = make(2, 1, {4, 8});
  solveWithTriangle(upper, TileTriangle::UpperTransposed, b);
  expectNear(b, make(2, 1, {2, 1.5}), 1e-15);
  b = make(2, 1, {4, 8});
  solveWithTriangle(make(2, 2, {2, 0, 1, 4}), TileTriangle::Lower, b);
  expectNear(b, make(2, 1, {2, 1.5}), 1e-15);
  EXPECT_FALSE(hasZeroOnDiagonal(upper));
  EXPECT_TRUE(hasZeroOnDiagonal(make(2, 2, {2, 1, 0, 0})));
}

TEST(TileFactorizations, UpdatesByHand) {
  // c - a' a on c's upper triangle: a = [1 2], c = [10 10; 7 10]:
  // a' a = [1 2; 2 4], so [9 8; 7 6] (7 below the diagonal untouched).
  Matrix c = make(2, 2, {10, 10, 7, 10});
  subtractGram(make(1, 2, {1, 2}), c);
  expectNear(c, make(2, 2, {9, 8, 7, 6}), 1e-15);
  // c - a' b and c - a b.
  Matrix a = make(2, 2, {1, 2, 3, 4}), b = make(2, 1, {1, 1});
  Matrix d = make(2, 1, {10, 10});
  subtractProduct(a, b, /*transposeA=*/true, d); // a' b = [4; 6]
  expectNear(d, make(2, 1, {6, 4}), 1e-15);
  d = make(2, 1, {10, 10});
  subtractProduct(a, b, /*transposeA=*/false, d); // a b = [3; 7]
  expectNear(d, make(2, 1, {7, 3}), 1e-15);
}

TEST(TileFactorizations, SymmetrySharesAgreeWithTheWholeTest) {
  Matrix a = spd(7, 1);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (double change : {0.0, 1e-3, nan}) {
    Matrix b = a;
    b(5, 1) += change;
    for (int64_t size : {2, 3, 7}) {
      std::vector<Matrix> shares;
      const int64_t t = (7 + size - 1) / size;
      for (int64_t i = 0; i < t; ++i)
        for (int64_t j = i; j < t; ++j) {
          Matrix mirror = tileOf(b, size, j, i);
          shares.push_back(
              symmetryShare(tileOf(b, size, i, j), i == j ? nullptr : &mirror));
        }
      std::vector<const Matrix *> pointers;
      for (const Matrix &s : shares)
        pointers.push_back(&s);
      EXPECT_EQ(symmetricFromShares(pointers), isSymmetric(b))
          << "change " << change << ", tiles of " << size;
    }
  }
}

TEST(TileFactorizations, SymmetryShareIsTheSameOnAnyThreadCount) {
  // 300 x 260 tiles: 5 block rows of 64 (the last ragged), enough elements
  // to be split among threads; the sums by hand over every element.
  Matrix tile = randomMatrix(300, 260, 3), mirror = randomMatrix(260, 300, 4);
  double off = 0, norm = 0;
  for (int64_t i = 0; i < 300; ++i)
    for (int64_t j = 0; j < 260; ++j) {
      double d = tile(i, j) - mirror(j, i);
      off += 2 * d * d;
      norm += tile(i, j) * tile(i, j) + mirror(j, i) * mirror(j, i);
    }
  setTaskThreads(1);
  Matrix one = symmetryShare(tile, &mirror);
  setTaskThreads(2);
  Matrix two = symmetryShare(tile, &mirror);
  setTaskThreads(1);
  EXPECT_EQ(one(0, 0), two(0, 0));
  EXPECT_EQ(one(0, 1), two(0, 1));
  EXPECT_NEAR(one(0, 0), off, 1e-12 * off);
  EXPECT_NEAR(one(0, 1), norm, 1e-12 * norm);
}

TEST(TileFactorizations, TiledCholeskyEqualsTheWholeOne) {
  for (int64_t size : {1, 3, 4, 11}) {
    Matrix a = spd(11, 2), tiled, whole;
    std::string error;
    ASSERT_TRUE(tiledCholesky(a, size, tiled, error)) << error;
    ASSERT_TRUE(cholesky(a, whole, error)) << error;
    EXPECT_LT(relativeError(tiled, whole), 1e-13) << "tiles of " << size;
    EXPECT_LT(relativeError(product(transposed(tiled), tiled), a), 1e-14);
  }
  // Not positive definite: the whole one's minor, found in a later tile.
  Matrix a = spd(6, 3), r;
  a(4, 4) = -1e3;
  std::string tiledError, wholeError;
  EXPECT_FALSE(tiledCholesky(a, 2, r, tiledError));
  EXPECT_FALSE(cholesky(a, r, wholeError));
  EXPECT_EQ(tiledError, wholeError);
}

TEST(TileFactorizations, BlockSubstitutionEqualsTheWholeSolve) {
  // op(S) \ B for S = R (upper) and S = R' (lower), read as stored or
  // transposed, on tiles of 3 (ragged: 8 rows) as Tiling.cpp orders them
  // (tile (i, j) of S' is tile (j, i) of S read transposed), against the
  // whole-matrix solve with op(S) made explicitly.
  Matrix r, a = spd(8, 4), b = randomMatrix(8, 2, 5);
  std::string error;
  ASSERT_TRUE(cholesky(a, r, error)) << error;
  for (SolveMethod method :
       {SolveMethod::Upper, SolveMethod::Lower, SolveMethod::UpperTransposed,
        SolveMethod::LowerTransposed}) {
    const bool stored = readsUpper(method), transpose = readsTransposed(method);
    Matrix s = stored ? r : transposed(r);
    Matrix op = transpose ? transposed(s) : s;
    const bool upper = stored != transpose; // op(S)'s triangle
    TileTriangle how = tileTriangle(stored, transpose);
    auto opTile = [&](int64_t i, int64_t j) {
      return transpose ? tileOf(s, 3, j, i) : tileOf(s, 3, i, j);
    };
    const int64_t size = 3, tiles = 3;
    std::vector<Matrix> x(tiles);
    for (int64_t step = 0; step < tiles; ++step) {
      int64_t i = upper ? tiles - 1 - step : step;
      Matrix acc = tileOf(b, size, i, 0);
      for (int64_t before = 0; before < step; ++before) {
        int64_t j = upper ? tiles - 1 - before : before;
        subtractProduct(opTile(i, j), x[j], transpose, acc);
      }
      solveWithTriangle(tileOf(s, size, i, i), how, acc);
      x[i] = acc;
    }
    Matrix tiled(8, 2), whole, explicitOp;
    for (int64_t i = 0; i < tiles; ++i)
      putTile(tiled, size, i, 0, x[i]);
    ASSERT_TRUE(leftDivide(s, b, whole, error, method)) << error;
    ASSERT_TRUE(leftDivide(op, b, explicitOp, error,
                           upper ? SolveMethod::Upper : SolveMethod::Lower))
        << error;
    EXPECT_LT(relativeError(tiled, whole), 1e-13) << int(method);
    EXPECT_LT(relativeError(whole, explicitOp), 1e-13) << int(method);
    EXPECT_LT(relativeError(product(op, tiled), b), 1e-13) << int(method);
  }
}
