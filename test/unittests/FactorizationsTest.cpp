//===- FactorizationsTest.cpp - chol, qr, svd, eig, det, pinv, lstsq -*- C++
//-*-===//
//
// Hand-computed factorizations of small matrices (the conventions that make
// them unique: signs, orders) and, on random matrices, the defining
// identities checked by plain loops.
//
//===----------------------------------------------------------------------===//

#include "cmmrt/Factorizations.h"
#include "cmmrt/Kernels.h"
#include "cmmrt/TileMemory.h"

#include "RelativeError.h"
#include "TestMatrices.h"

#include <gtest/gtest.h>

#include <cmath>
#include <initializer_list>
#include <random>

using namespace cmmrt;
using namespace cmmrt::test;

namespace {

Matrix identityOf(int64_t n) {
  Matrix m(n, n);
  for (int64_t i = 0; i < n; ++i)
    m(i, i) = 1;
  return m;
}

/// The column of `a` has its entry of largest magnitude positive (random
/// columns have no ties).
void expectLargestPositive(const Matrix &a) {
  for (int64_t j = 0; j < a.cols(); ++j) {
    int64_t at = 0;
    for (int64_t i = 1; i < a.rows(); ++i)
      if (std::abs(a(i, j)) > std::abs(a(at, j)))
        at = i;
    EXPECT_GT(a(at, j), 0) << "column " << j;
  }
}

} // namespace

TEST(Factorizations, CholeskyByHand) {
  Matrix r;
  std::string error;
  ASSERT_TRUE(cholesky(make(2, 2, {4, 2, 2, 3}), r, error)) << error;
  expectNear(r, make(2, 2, {2, 1, 0, std::sqrt(2.0)}));
}

TEST(Factorizations, CholeskyOfRandomSpd) {
  Matrix x = randomMatrix(9, 6, 1);
  Matrix a = product(transposed(x), x);
  Matrix r;
  std::string error;
  ASSERT_TRUE(cholesky(a, r, error)) << error;
  for (int64_t i = 0; i < r.rows(); ++i) {
    EXPECT_GT(r(i, i), 0);
    for (int64_t j = 0; j < i; ++j)
      EXPECT_EQ(r(i, j), 0);
  }
  EXPECT_LT(relativeError(product(transposed(r), r), a), 1e-13);
}

TEST(Factorizations, CholeskyRefusesWithReasons) {
  Matrix r;
  std::string error;
  EXPECT_FALSE(cholesky(make(2, 2, {1, 2, 2, 1}), r, error));
  EXPECT_EQ(error, "chol: the 2x2 matrix is not positive definite (its "
                   "leading minor of order 2 is not positive)");
  EXPECT_FALSE(cholesky(make(2, 2, {2, 1, 0, 2}), r, error));
  EXPECT_EQ(error, "chol: the 2x2 matrix is not symmetric (norm(A - A') > "
                   "1e-12 * norm(A))");
  // Symmetric within the tolerance is symmetric.
  EXPECT_TRUE(cholesky(make(2, 2, {4, 2 + 1e-15, 2, 3}), r, error)) << error;
}

TEST(Factorizations, CholeskyOfAKnownSymmetricMatrixMakesNoTest) {
  // cmm.chol `symmetric`: the caller knows the input symmetric, nothing is
  // tested and the factor is that of the triangle LAPACK reads. By hand for
  // a matrix that is not symmetric (which a compiled program never passes):
  // [2 1; 0 2] read as [2 1; 1 2], R = [sqrt 2, 1 / sqrt 2; 0, sqrt 1.5].
  Matrix r;
  std::string error;
  ASSERT_TRUE(cholesky(make(2, 2, {2, 1, 0, 2}), r, error,
                       /*knownSymmetric=*/true))
      << error;
  expectNear(
      r, make(2, 2, {std::sqrt(2.0), 1 / std::sqrt(2.0), 0, std::sqrt(1.5)}));
  // Not positive definite is still found, and an Inf or a NaN, which fails
  // the symmetry test (A - A' is NaN there) whatever the construction.
  EXPECT_FALSE(cholesky(make(2, 2, {1, 2, 2, 1}), r, error, true));
  EXPECT_NE(error.find("not positive definite"), std::string::npos) << error;
  const double nan = std::nan(""), inf = HUGE_VAL;
  EXPECT_FALSE(cholesky(make(2, 2, {4, nan, nan, 3}), r, error, true));
  EXPECT_EQ(error, "chol: the 2x2 matrix is not symmetric (norm(A - A') > "
                   "1e-12 * norm(A))");
  error.clear();
  EXPECT_FALSE(cholesky(make(2, 2, {inf, 1, 1, 3}), r, error, true));
  EXPECT_NE(error.find("not symmetric"), std::string::npos) << error;
  Matrix values;
  EXPECT_FALSE(
      symmetricEigen(make(2, 2, {1, 0, 0, nan}), values, nullptr, error, true));
  EXPECT_NE(error.find("eigvals: the 2x2 matrix is not symmetric"),
            std::string::npos)
      << error;
  EXPECT_TRUE(allFinite(make(2, 2, {1, -0.0, 1e308, 4})));
}

// The errors of a solve that replaces inv(A) * B or pinv(X) * B are stated
// as those calls state them (cmm.solve `replaces`); others stay.
TEST(Factorizations, RestatedAsTheReplacedCall) {
  Matrix x;
  std::string error;
  ASSERT_FALSE(leftDivide(make(2, 2, {1, 2, 2, 4}), make(2, 1, {1, 1}), x,
                          error, SolveMethod::General));
  restateAs("inv", 2, 2, error);
  EXPECT_EQ(error, "inv: the 2x2 matrix is singular");
  // The normal equations' full-rank least squares: X is 4x2, X' X 2x2.
  ASSERT_FALSE(leftDivide(make(4, 2, {1, 0, 2, 0, 3, 0, 4, 0}),
                          make(4, 1, {1, 2, 3, 5}), x, error,
                          SolveMethod::FullRank));
  restateAs("inv", 4, 2, error);
  EXPECT_EQ(error, "inv: the 2x2 matrix is singular");
  error = "A \\ B: the least-squares solve with the 3x2 matrix A did not "
          "converge";
  restateAs("pinv", 3, 2, error);
  EXPECT_EQ(error, "pinv: the singular value decomposition of the 3x2 matrix "
                   "did not converge");
  // Only the replaced call's own errors change.
  error = "A \\ B: the 3x3 matrix A is singular";
  restateAs("pinv", 3, 3, error);
  EXPECT_EQ(error, "A \\ B: the 3x3 matrix A is singular");
}

TEST(Factorizations, QrByHand) {
  // Columns (3, 4) and (0, 5): q1 = (0.6, 0.8), r12 = 4, q2 = (-0.8, 0.6).
  Matrix q, r;
  std::string error;
  ASSERT_TRUE(qr(make(2, 2, {3, 0, 4, 5}), q, r, error)) << error;
  expectNear(q, make(2, 2, {0.6, -0.8, 0.8, 0.6}));
  expectNear(r, make(2, 2, {5, 4, 0, 3}));
  // A negative diagonal in LAPACK's R is flipped with Q's column.
  ASSERT_TRUE(qr(make(2, 1, {-3, -4}), q, r, error)) << error;
  expectNear(q, make(2, 1, {-0.6, -0.8}));
  expectNear(r, make(1, 1, {5}));
}

TEST(Factorizations, QrOfTallRandom) {
  Matrix a = randomMatrix(7, 4, 2), q, r;
  std::string error;
  ASSERT_TRUE(qr(a, q, r, error)) << error;
  ASSERT_EQ(q.rows(), 7);
  ASSERT_EQ(q.cols(), 4);
  for (int64_t i = 0; i < 4; ++i) {
    EXPECT_GE(r(i, i), 0);
    for (int64_t j = 0; j < i; ++j)
      EXPECT_EQ(r(i, j), 0);
  }
  expectNear(product(transposed(q), q), identityOf(4), 1e-14);
  EXPECT_LT(relativeError(product(q, r), a), 1e-14);
  EXPECT_FALSE(qr(randomMatrix(2, 3, 3), q, r, error));
}

TEST(Factorizations, SvdByHand) {
  Matrix u, s, v;
  std::string error;
  ASSERT_TRUE(svd(make(2, 2, {3, 0, 0, -2}), &u, s, &v, error)) << error;
  expectNear(s, make(2, 1, {3, 2}));
  expectNear(u, make(2, 2, {1, 0, 0, 1}));
  expectNear(v, make(2, 2, {1, 0, 0, -1}));
}

TEST(Factorizations, SvdOfRandomBothShapes) {
  for (auto [m, n] : {std::pair<int64_t, int64_t>{6, 4}, {4, 6}, {5, 5}}) {
    Matrix a = randomMatrix(m, n, unsigned(m * 10 + n)), u, s, v;
    std::string error;
    ASSERT_TRUE(svd(a, &u, s, &v, error)) << error;
    int64_t k = std::min(m, n);
    ASSERT_EQ(u.rows(), m);
    ASSERT_EQ(u.cols(), k);
    ASSERT_EQ(v.rows(), n);
    ASSERT_EQ(v.cols(), k);
    for (int64_t i = 1; i < k; ++i)
      EXPECT_GE(s(i - 1, 0), s(i, 0));
    EXPECT_GE(s(k - 1, 0), 0);
    Matrix us = u;
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < k; ++j)
        us(i, j) *= s(j, 0);
    EXPECT_LT(relativeError(product(us, transposed(v)), a), 1e-14);
    expectNear(product(transposed(u), u), identityOf(k), 1e-14);
    expectNear(product(transposed(v), v), identityOf(k), 1e-14);
    expectLargestPositive(u);
    Matrix values;
    ASSERT_TRUE(svd(a, nullptr, values, nullptr, error)) << error;
    expectNear(values, s, 1e-13);
  }
}

TEST(Factorizations, SymmetricEigenByHand) {
  Matrix values, vectors;
  std::string error;
  ASSERT_TRUE(symmetricEigen(make(2, 2, {2, 1, 1, 2}), values, &vectors, error))
      << error;
  expectNear(values, make(2, 1, {1, 3}));
  // (1, -1) / sqrt(2): a tie in magnitude, the first entry made positive.
  double h = 1 / std::sqrt(2.0);
  expectNear(vectors, make(2, 2, {h, h, -h, h}));
  EXPECT_FALSE(
      symmetricEigen(make(2, 2, {2, 1, 0, 2}), values, nullptr, error));
  EXPECT_EQ(error, "eigvals: the 2x2 matrix is not symmetric (norm(A - A') > "
                   "1e-12 * norm(A))");
  // Known symmetric (cmm.eigvals `symmetric`): no test; [2 1; 0 2] is read
  // as the triangle LAPACK reads, [2 1; 1 2], eigenvalues 1 and 3.
  ASSERT_TRUE(symmetricEigen(make(2, 2, {2, 1, 0, 2}), values, nullptr, error,
                             /*knownSymmetric=*/true))
      << error;
  expectNear(values, make(2, 1, {1, 3}));
}

TEST(Factorizations, SymmetricEigenOfRandom) {
  Matrix x = randomMatrix(6, 6, 4);
  Matrix a = product(x, transposed(x));
  for (int64_t i = 0; i < 6; ++i)
    a(i, i) -= 3; // some negative eigenvalues
  Matrix values, vectors;
  std::string error;
  ASSERT_TRUE(symmetricEigen(a, values, &vectors, error)) << error;
  for (int64_t i = 1; i < 6; ++i)
    EXPECT_LE(values(i - 1, 0), values(i, 0));
  Matrix vw = vectors;
  for (int64_t i = 0; i < 6; ++i)
    for (int64_t j = 0; j < 6; ++j)
      vw(i, j) *= values(j, 0);
  EXPECT_LT(relativeError(product(vw, transposed(vectors)), a), 1e-13);
  expectNear(product(transposed(vectors), vectors), identityOf(6), 1e-13);
  expectLargestPositive(vectors);
}

TEST(Factorizations, DeterminantByHand) {
  expectNear(determinant(make(2, 2, {1, 2, 3, 4})), make(1, 1, {-2}));
  expectNear(determinant(make(2, 2, {0, 1, 1, 0})), make(1, 1, {-1}));
  expectNear(determinant(make(2, 2, {1, 2, 2, 4})), make(1, 1, {0}));
  // An upper-triangular 3x3 matrix: the product of its diagonal.
  expectNear(determinant(make(3, 3, {2, 7, 1, 0, 3, 5, 0, 0, -4})),
             make(1, 1, {-24}), 1e-12);
}

TEST(Factorizations, InverseByHandAndSingular) {
  Matrix out;
  std::string error;
  // [1 2; 3 4]^-1 = [-2 1; 1.5 -0.5].
  ASSERT_TRUE(invert(make(2, 2, {1, 2, 3, 4}), out, error)) << error;
  expectNear(out, make(2, 2, {-2, 1, 1.5, -0.5}), 1e-14);
  EXPECT_FALSE(invert(make(2, 2, {1, 2, 2, 4}), out, error));
  EXPECT_EQ(error, "inv: the 2x2 matrix is singular");
}

TEST(Factorizations, PseudoInverse) {
  Matrix p;
  std::string error;
  ASSERT_TRUE(pseudoInverse(make(2, 1, {1, 2}), p, error)) << error;
  expectNear(p, make(1, 2, {0.2, 0.4}));
  // Rank one: 1 1' (3x2) has pinv 1 1' / 6 (2x3).
  ASSERT_TRUE(pseudoInverse(Matrix(3, 2, 1.0), p, error)) << error;
  expectNear(p, Matrix(2, 3, 1.0 / 6), 1e-14);
  ASSERT_TRUE(pseudoInverse(Matrix(2, 3, 0.0), p, error)) << error;
  expectNear(p, Matrix(3, 2, 0.0));
  // The Moore-Penrose conditions on a rank-deficient 5x4 matrix.
  Matrix a = product(randomMatrix(5, 2, 5), randomMatrix(2, 4, 6));
  ASSERT_TRUE(pseudoInverse(a, p, error)) << error;
  EXPECT_LT(relativeError(product(product(a, p), a), a), 1e-13);
  EXPECT_LT(relativeError(product(product(p, a), p), p), 1e-13);
  Matrix ap = product(a, p), pa = product(p, a);
  EXPECT_LT(relativeError(ap, transposed(ap)), 1e-13);
  EXPECT_LT(relativeError(pa, transposed(pa)), 1e-13);
}

TEST(Factorizations, LeastSquaresByHand) {
  Matrix x;
  std::string error;
  // Fitting 1, 2, 2 at t = 0, 1, 2: the normal equations give 7/6 + t / 2.
  ASSERT_TRUE(leftDivide(make(3, 2, {1, 0, 1, 1, 1, 2}), make(3, 1, {1, 2, 2}),
                         x, error))
      << error;
  expectNear(x, make(2, 1, {7.0 / 6, 0.5}));
  // Underdetermined: the minimal-norm solution of x1 + x2 = 2.
  ASSERT_TRUE(leftDivide(make(1, 2, {1, 1}), make(1, 1, {2}), x, error));
  expectNear(x, make(2, 1, {1, 1}));
  // Rank-deficient: pinv(A) * b, (1, 1) for A = 1 1' (3x2), b = (1, 2, 3).
  ASSERT_TRUE(leftDivide(Matrix(3, 2, 1.0), make(3, 1, {1, 2, 3}), x, error));
  expectNear(x, make(2, 1, {1, 1}), 1e-13);
  // A square singular A stays an error.
  EXPECT_FALSE(
      leftDivide(make(2, 2, {1, 2, 2, 4}), make(2, 1, {1, 1}), x, error));
  EXPECT_EQ(error, "A \\ B: the 2x2 matrix A is singular");
}

TEST(Factorizations, SolveMethods) {
  Matrix x;
  std::string error;
  // [4 2; 2 3] x = [2; 1]: x = [0.5; 0] by every method that applies.
  Matrix a = make(2, 2, {4, 2, 2, 3}), b = make(2, 1, {2, 1});
  for (SolveMethod m : {SolveMethod::General, SolveMethod::Cholesky}) {
    ASSERT_TRUE(leftDivide(a, b, x, error, m)) << error;
    expectNear(x, make(2, 1, {0.5, 0}));
  }
  // Not positive definite: Cholesky falls back to LU ([1 2; 2 1] x = [3; 3]
  // gives [1; 1]).
  ASSERT_TRUE(leftDivide(make(2, 2, {1, 2, 2, 1}), make(2, 1, {3, 3}), x, error,
                         SolveMethod::Cholesky))
      << error;
  expectNear(x, make(2, 1, {1, 1}));
  // Substitution reads only its triangle: [2 9; 1 4] as lower is [2 0; 1 4].
  ASSERT_TRUE(leftDivide(make(2, 2, {2, 9, 1, 4}), make(2, 1, {2, 6}), x, error,
                         SolveMethod::Lower))
      << error;
  expectNear(x, make(2, 1, {1, 1.25}));
  // ... and as upper, [2 9; 0 4]: x2 = 1.5, x1 = (2 - 13.5) / 2.
  ASSERT_TRUE(leftDivide(make(2, 2, {2, 9, 1, 4}), make(2, 1, {2, 6}), x, error,
                         SolveMethod::Upper))
      << error;
  expectNear(x, make(2, 1, {-5.75, 1.5}));
  // Transposed, [2 9; 1 4] read as upper is [2 0; 9 4] (x1 = 1, x2 =
  // (6 - 9) / 4), read as lower [2 1; 0 4] (x2 = 1.5, x1 = (2 - 1.5) / 2).
  ASSERT_TRUE(leftDivide(make(2, 2, {2, 9, 1, 4}), make(2, 1, {2, 6}), x, error,
                         SolveMethod::UpperTransposed))
      << error;
  expectNear(x, make(2, 1, {1, -0.75}));
  ASSERT_TRUE(leftDivide(make(2, 2, {2, 9, 1, 4}), make(2, 1, {2, 6}), x, error,
                         SolveMethod::LowerTransposed))
      << error;
  expectNear(x, make(2, 1, {0.25, 1.5}));
  for (SolveMethod m : {SolveMethod::Upper, SolveMethod::UpperTransposed}) {
    EXPECT_FALSE(
        leftDivide(make(2, 2, {1, 2, 0, 0}), make(2, 1, {1, 1}), x, error, m));
    EXPECT_EQ(error, "A \\ B: the 2x2 matrix A is singular");
  }
}

TEST(Factorizations, LeastSquaresIsPinvTimesB) {
  Matrix a = randomMatrix(8, 3, 7), b = randomMatrix(8, 2, 8), x, p;
  std::string error;
  ASSERT_TRUE(leftDivide(a, b, x, error)) << error;
  ASSERT_TRUE(pseudoInverse(a, p, error)) << error;
  EXPECT_LT(relativeError(x, product(p, b)), 1e-12);
}

TEST(Factorizations, Triangles) {
  auto kept = [](Matrix a, bool lower, int64_t row0 = 0, int64_t col0 = 0) {
    keepTriangle(a, lower, row0, col0);
    return a;
  };
  Matrix a = make(2, 3, {1, 2, 3, 4, 5, 6});
  expectNear(kept(a, /*lower=*/true), make(2, 3, {1, 0, 0, 4, 5, 0}));
  expectNear(kept(a, /*lower=*/false), make(2, 3, {1, 2, 3, 0, 5, 6}));
  // A tile at (2, 1) of its matrix: its (0, 0) is the matrix's (2, 1).
  expectNear(kept(a, /*lower=*/false, 2, 1), make(2, 3, {0, 2, 3, 0, 0, 6}));
  expectNear(kept(a, /*lower=*/true, 2, 1), make(2, 3, {1, 2, 0, 4, 5, 6}));
  // Tiles wholly below or above the diagonal.
  expectNear(kept(a, /*lower=*/true, 0, 5), Matrix(2, 3, 0.0));
  expectNear(kept(a, /*lower=*/false, 5, 0), Matrix(2, 3, 0.0));
  expectNear(kept(a, /*lower=*/false, 0, 5), a);
  expectNear(kept(a, /*lower=*/true, 5, 0), a);
}

// The planner's count of a factorization's working memory
// (factorizationScratchBytes, which its first-touch charge and memory check
// use) is what the routine allocates: the peak of the tile pool's live
// bytes over one call, less its results. Buffers under the pool's
// threshold come from malloc, not the pool (the values, tau, the integer
// workspace; least squares' x here): the tolerance.
TEST(Factorizations, ScratchBytesAreWhatTheRoutinesAllocate) {
  using plan::CostClass;
  auto pooled = [](const Matrix &r) {
    double bytes = double(r.size()) * sizeof(double);
    return bytes >= double(kPooledBufferBytes) ? bytes : 0.0;
  };
  auto freshBytesOf = [](auto &&call) {
    trimTileMemory();
    uint64_t before = tileMemoryStats().liveBytes;
    call();
    return double(tileMemoryStats().peakLiveBytes - before);
  };
  const double tolerance = 2.0 * kPooledBufferBytes;
  std::string error;
  Matrix tall = randomMatrix(3000, 300, 7), rhs = randomMatrix(3000, 1, 8);
  Matrix square = randomMatrix(600, 600, 9);
  Matrix symmetric = broadcast(BinaryFn::Add, square, transposed(square));
  {
    Matrix u, s, v;
    double fresh =
        freshBytesOf([&] { EXPECT_TRUE(svd(tall, &u, s, &v, error)); });
    EXPECT_NEAR(fresh - pooled(u) - pooled(v),
                factorizationScratchBytes(CostClass::Svd, 3000, 300),
                tolerance);
    // LAPACK's own copies are about 2.4 x the operand here (A, U, V', the
    // workspace of 0.4 m n): more than the operand and result counted alone.
    EXPECT_GT(factorizationScratchBytes(CostClass::Svd, 3000, 300),
              2 * 3000 * 300 * 8.0);
  }
  {
    Matrix s;
    double fresh = freshBytesOf(
        [&] { EXPECT_TRUE(svd(tall, nullptr, s, nullptr, error)); });
    EXPECT_NEAR(fresh, factorizationScratchBytes(CostClass::SvdVals, 3000, 300),
                tolerance);
  }
  {
    Matrix q, r;
    double fresh = freshBytesOf([&] { EXPECT_TRUE(qr(tall, q, r, error)); });
    EXPECT_NEAR(fresh - pooled(q) - pooled(r),
                factorizationScratchBytes(CostClass::Qr, 3000, 300), tolerance);
  }
  for (bool vectors : {true, false}) {
    Matrix values, v;
    double fresh = freshBytesOf([&] {
      EXPECT_TRUE(symmetricEigen(symmetric, values, vectors ? &v : nullptr,
                                 error, /*knownSymmetric=*/true));
    });
    EXPECT_NEAR(fresh - pooled(v),
                factorizationScratchBytes(
                    vectors ? CostClass::Eig : CostClass::EigVals, 600, 600),
                tolerance)
        << "vectors " << vectors;
  }
  {
    Matrix x;
    double fresh =
        freshBytesOf([&] { EXPECT_TRUE(leastSquares(tall, rhs, x, error)); });
    EXPECT_NEAR(fresh, factorizationScratchBytes(CostClass::Lstsq, 3000, 300),
                tolerance);
  }
  // The solve class's LU: a square solve and det factor a copy of A; inv
  // factors its result in place, which the count charges once more.
  {
    Matrix x, b = randomMatrix(600, 1, 10);
    double fresh = freshBytesOf([&] { EXPECT_TRUE(solve(square, b, x)); });
    EXPECT_NEAR(fresh - pooled(x),
                factorizationScratchBytes(CostClass::Solve, 600, 600),
                tolerance);
    fresh = freshBytesOf([&] { (void)determinant(square); });
    EXPECT_NEAR(fresh, factorizationScratchBytes(CostClass::Solve, 600, 600),
                tolerance);
    Matrix inverted;
    fresh = freshBytesOf([&] { EXPECT_TRUE(inverse(square, inverted)); });
    EXPECT_NEAR(fresh - pooled(inverted), 0.0, tolerance);
  }
  EXPECT_EQ(factorizationScratchBytes(CostClass::Gemm, 300, 300), 0.0);
  // Past LAPACK's 32-bit sizes: the copies alone (no query), never less.
  EXPECT_GE(factorizationScratchBytes(CostClass::Svd, 3e5, 3e4),
            2 * 3e5 * 3e4 * 8.0);
}
