//===- Factorizations.h - Dense factorizations on whole matrices -*- C++
//-*-===//
//
// The dense linear algebra of the language (docs/language.md, "Dense linear
// algebra"): Cholesky, thin QR, thin SVD, the symmetric eigendecomposition,
// the determinant, the pseudo-inverse, least squares and the triangles, on
// LAPACK from OpenBLAS. LAPACK leaves signs and orders open; these results
// are made unique by the language's conventions, so the interpreter, every
// tiling and NumPy agree:
//  - chol: upper R with a positive diagonal (Julia's cholesky(A).U);
//  - qr: R's diagonal non-negative (Q's column flipped with R's row);
//  - svd, eig: the entry of largest magnitude of each column of U (eig: of
//    each eigenvector) positive, the first such on ties; V's column flipped
//    with U's.
// Each call that can fail returns false with `error` set to the message the
// program reports at the op's source line; the interpreter and the
// generated programs both say it (one text).
//
//===----------------------------------------------------------------------===//

#ifndef CMMRT_FACTORIZATIONS_H
#define CMMRT_FACTORIZATIONS_H

#include "cmmrt/Matrix.h"
#include "cmmrt/Plan.h"

#include <string>

namespace cmmrt {

/// The language's symmetry test (as eig's): norm(A - A') <= 1e-12 norm(A),
/// Frobenius norms; a non-square matrix is not symmetric.
bool isSymmetric(const Matrix &a);

/// Whether every element of `a` is finite: what is left of the symmetry
/// test for a matrix symmetric by construction (an Inf or a NaN makes
/// A - A' NaN there, which fails it).
bool allFinite(const Matrix &a);

/// R upper-triangular with a positive diagonal and R' * R = a; false if a is
/// not symmetric or not positive definite. `knownSymmetric`: a is symmetric
/// by construction (cmm.chol's `symmetric`): of the symmetry test only
/// allFinite is left.
bool cholesky(const Matrix &a, Matrix &r, std::string &error,
              bool knownSymmetric = false);

/// The bytes qr, svd (with or without vectors), symmetricEigen,
/// leastSquares (one right-hand side) and the LU of solve, det and inv
/// allocate beyond their operands and results for the factorization class
/// `cost` of a `longer` x `shorter` operand: LAPACK's column-major copy it
/// overwrites, its column-major results and its workspaces (as LAPACK's own
/// workspace query gives them); 0 for the other classes. A task's fresh pages
/// include them (the planner's first touch, Scheduling/MemoryTimeline.h): a
/// 20000 x 100 SVD allocates 32 MB of them beside its 16 MB operand and 16 MB
/// of U. Not counted: least squares' further right-hand sides, and pinv's
/// row-major U and V (pinv is costed as its SVD).
double factorizationScratchBytes(plan::CostClass cost, double longer,
                                 double shorter);

/// Thin QR of an m x n a, m >= n: q m x n with orthonormal columns, r n x n
/// upper-triangular with a non-negative diagonal.
bool qr(const Matrix &a, Matrix &q, Matrix &r, std::string &error);

/// Thin SVD, k = min(m, n): u m x k, s k x 1 descending, v n x k, a = u *
/// diag(s) * v'. With `u` and `v` null, the singular values alone.
bool svd(const Matrix &a, Matrix *u, Matrix &s, Matrix *v, std::string &error);

/// Eigenvalues (n x 1, ascending) and, unless null, orthonormal
/// eigenvectors (columns of n x n) of a symmetric a; false if a is not
/// symmetric (tested, or only for Inf and NaN if `knownSymmetric`, as for
/// cholesky).
bool symmetricEigen(const Matrix &a, Matrix &values, Matrix *vectors,
                    std::string &error, bool knownSymmetric = false);

/// The determinant of a square a, 1x1 (0 for an exactly singular a).
Matrix determinant(const Matrix &a);

/// The singular values of `s` (k x 1, descending) that count as zero lie at
/// or below this: min(m, n) * eps * max(s) (Julia's pinv default).
double pseudoInverseTolerance(int64_t rows, int64_t cols, double largest);

/// The error of a failed leftDivide of a rows x cols A restated as
/// `call`'s ("inv", "pinv": the solve cmm-linear-solves made of inv(A) * B
/// or pinv(X) * B): a singular A is inv's "inv: the NxN matrix is
/// singular" (N = cols, also the order of X' X for the normal equations'
/// full-rank solve), a least-squares solve that did not converge is pinv's
/// SVD that did not.
void restateAs(const char *call, int64_t rows, int64_t cols,
               std::string &error);

/// inv(a) of a square a (cmmrt::inverse), with the language's message
/// when a is singular.
bool invert(const Matrix &a, Matrix &out, std::string &error);

/// The Moore-Penrose pseudo-inverse, n x m.
bool pseudoInverse(const Matrix &a, Matrix &out, std::string &error);

/// The least-squares solution of a x = b for a non-square a (m x n, b with
/// m rows): the minimal-norm x among those of minimal residual, the rank
/// decided with pseudoInverseTolerance (pinv(a) * b in exact arithmetic).
bool leastSquares(const Matrix &a, const Matrix &b, Matrix &out,
                  std::string &error, int *rank = nullptr);

/// How a square A \ B is solved (the compiler's cmm.solve attributes; the
/// `method` of a plan's solve op).
enum class SolveMethod : int {
  General = 0,         // LU with partial pivoting (dgesv)
  Cholesky = 1,        // A symmetric positive semi-definite by construction:
                       // Cholesky first (dposv), LU when it fails
  Upper = 2,           // A upper-triangular: one substitution (dtrtrs)
  Lower = 3,           // A lower-triangular
  FullRank = 4,        // least squares for the normal equations (X' X) \ (X' Y)
                       // it replaced: a rank-deficient X is their singular X' X
  UpperTransposed = 5, // A' \ B for an upper-triangular A (R' \ B after
                       // chol), A read in place: no transpose is made
  LowerTransposed = 6, // A' \ B for a lower-triangular A
};

/// Whether `method` is one substitution, and whether it reads A transposed
/// and A's upper triangle (as it is stored).
bool isTriangular(SolveMethod method);
bool readsTransposed(SolveMethod method);
bool readsUpper(SolveMethod method);

/// The run-time errors of the factorizations and solves, for the whole
/// matrix (here) and for its tiles (cmmrt/TileFactorizations.h):
/// "WHAT: the RxC matrix is not symmetric (...)", chol's "... is not
/// positive definite (its leading minor of order K ...)", "A \ B: the
/// NxN matrix A is singular", inv's "inv: the NxN matrix is singular" and
/// "WHAT: the singular value decomposition of the RxC matrix did not
/// converge" (svd, svdvals, pinv).
std::string notSymmetricError(const char *what, int64_t rows, int64_t cols);
std::string notPositiveDefiniteError(int64_t n, int64_t order);
std::string singularSolveError(int64_t n);
std::string singularInverseError(int64_t n);
std::string svdNotConvergedError(const char *what, int64_t rows, int64_t cols);

/// A \ B: for a square a the solution of a x = b (false if a is exactly
/// singular, as Julia's SingularException), by `method`; otherwise
/// leastSquares.
bool leftDivide(const Matrix &a, const Matrix &b, Matrix &out,
                std::string &error, SolveMethod method = SolveMethod::General);

/// Zeroes the elements of `a` outside its lower (i >= j) or upper (i <= j)
/// triangle (tril, triu); `row0`, `col0` place a tile in its matrix.
void keepTriangle(Matrix &a, bool lower, int64_t row0 = 0, int64_t col0 = 0);

} // namespace cmmrt

#endif // CMMRT_FACTORIZATIONS_H
