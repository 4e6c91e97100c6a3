//===- Factorizations.cpp - Dense factorizations on whole matrices -------===//
//
// LAPACK is column-major and a Matrix row-major: a row-major buffer read as
// column-major is the transpose. Symmetric inputs go as they are; the
// others are transposed into a column-major copy first.
//
//===----------------------------------------------------------------------===//

#include "cmmrt/Factorizations.h"
#include "cmmrt/TileFactorizations.h"

#include "cmmrt/Kernels.h"

#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string_view>
#include <utility>
#include <vector>

using namespace cmmrt;

extern "C" {
// LAPACK (Fortran, column-major), provided by OpenBLAS.
void dpotrf_(const char *uplo, const int *n, double *a, const int *lda,
             int *info);
void dgeqrf_(const int *m, const int *n, double *a, const int *lda, double *tau,
             double *work, const int *lwork, int *info);
void dorgqr_(const int *m, const int *n, const int *k, double *a,
             const int *lda, const double *tau, double *work, const int *lwork,
             int *info);
void dgesdd_(const char *jobz, const int *m, const int *n, double *a,
             const int *lda, double *s, double *u, const int *ldu, double *vt,
             const int *ldvt, double *work, const int *lwork, int *iwork,
             int *info);
void dsyevd_(const char *jobz, const char *uplo, const int *n, double *a,
             const int *lda, double *w, double *work, const int *lwork,
             int *iwork, const int *liwork, int *info);
void dgetrf_(const int *m, const int *n, double *a, const int *lda, int *ipiv,
             int *info);
void dposv_(const char *uplo, const int *n, const int *nrhs, double *a,
            const int *lda, double *b, const int *ldb, int *info);
void dtrtrs_(const char *uplo, const char *trans, const char *diag,
             const int *n, const int *nrhs, const double *a, const int *lda,
             double *b, const int *ldb, int *info);
void dgelsd_(const int *m, const int *n, const int *nrhs, double *a,
             const int *lda, double *b, const int *ldb, double *s,
             const double *rcond, int *rank, double *work, const int *lwork,
             int *iwork, int *info);
}

namespace {

std::string shapeOf(const Matrix &a) {
  return std::to_string(a.rows()) + "x" + std::to_string(a.cols());
}

int dim(int64_t d) { return static_cast<int>(d); }

/// A workspace size LAPACK asked for (lwork = -1 returns it in work[0]).
int workSize(double query) { return std::max(1, static_cast<int>(query)); }

// The workspaces the routines below allocate, as LAPACK's queries give
// them (in doubles; the integer workspaces in ints), at least 1:
// factorizationScratchBytes counts the same for the planner. A query reads
// no array.

/// dgeqrf's workspace for an m x n matrix.
double geqrfWork(int m, int n) {
  int lwork = -1, info = 0;
  double query = 0, none = 0;
  dgeqrf_(&m, &n, &none, &m, &none, &query, &lwork, &info);
  return std::max(1.0, query);
}

/// dorgqr's workspace for forming the thin Q of an m x n matrix.
double orgqrWork(int m, int n) {
  int lwork = -1, info = 0;
  double query = 0, none = 0;
  dorgqr_(&m, &n, &n, &none, &m, &none, &query, &lwork, &info);
  return std::max(1.0, query);
}

/// dgesdd's workspace (jobz "S": the thin vectors; "N": values only).
double gesddWork(const char *jobz, int m, int n) {
  int k = std::min(m, n), ldu = std::max(m, 1), ldvt = std::max(k, 1);
  int lwork = -1, info = 0, iwork = 0;
  double query = 0, none = 0;
  dgesdd_(jobz, &m, &n, &none, &m, &none, &none, &ldu, &none, &ldvt, &query,
          &lwork, &iwork, &info);
  return std::max(1.0, query);
}

/// dgesdd's integer workspace: 8 min(m, n).
int gesddIntWork(int m, int n) { return 8 * std::max(std::min(m, n), 1); }

/// dsyevd's workspaces (jobz "V": with the vectors), doubles and ints.
std::pair<double, int> syevdWork(const char *jobz, int n) {
  int lwork = -1, liwork = -1, iquery = 0, info = 0;
  double query = 0, none = 0;
  dsyevd_(jobz, "L", &n, &none, &n, &none, &query, &lwork, &iquery, &liwork,
          &info);
  return {std::max(1.0, query), std::max(1, iquery)};
}

/// dgelsd's workspaces for nrhs right-hand sides, doubles and ints.
std::pair<double, int> gelsdWork(int m, int n, int nrhs) {
  int ldb = std::max(m, n), rank = 0, lwork = -1, iquery = 0, info = 0;
  double query = 0, none = 0, rcond = 0;
  dgelsd_(&m, &n, &nrhs, &none, &m, &none, &ldb, &none, &rcond, &rank, &query,
          &lwork, &iquery, &info);
  return {std::max(1.0, query), std::max(1, iquery)};
}

/// The column-major copy of `a` (its row-major transpose). LAPACK's
/// copies and workspaces are Elements, from the tile pool: a buffer of a
/// megabyte or more from malloc is a fresh mapping each call
/// (keepFreedHeapMemory), whose page faults made a 20000 x 200 QR 16 %
/// slower and an SVD 18 % (development VM).
Elements columnMajor(const Matrix &a) {
  Elements out(static_cast<size_t>(a.size()));
  for (int64_t i = 0; i < a.rows(); ++i)
    for (int64_t j = 0; j < a.cols(); ++j)
      out[static_cast<size_t>(j * a.rows() + i)] = a(i, j);
  return out;
}

/// Columns `cols` of a column-major m-row buffer as a row-major matrix.
Matrix fromColumnMajor(const double *data, int64_t rows, int64_t cols,
                       int64_t ld) {
  Matrix out = Matrix::uninitialized(rows, cols);
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      out(i, j) = data[j * ld + i];
  return out;
}

/// x * sign with -0 made +0 (x + 0.0): a result prints no "-0".
double withSign(double x, double sign) { return x * sign + 0.0; }

/// Flips columns of `a` so that the entry of largest magnitude of each is
/// positive, and the same columns of `with`. On ties the first such entry
/// counts; magnitudes within a relative 1e-12 of the largest tie (rounding
/// must not decide between (1, -1) / sqrt(2) and its negation).
void makeLargestPositive(Matrix &a, Matrix *with) {
  for (int64_t j = 0; j < a.cols(); ++j) {
    double largest = 0;
    for (int64_t i = 0; i < a.rows(); ++i)
      largest = std::max(largest, std::abs(a(i, j)));
    int64_t at = 0;
    while (at + 1 < a.rows() && std::abs(a(at, j)) < largest * (1 - 1e-12))
      ++at;
    double sign = a.rows() && a(at, j) < 0 ? -1.0 : 1.0;
    for (int64_t i = 0; i < a.rows(); ++i)
      a(i, j) = withSign(a(i, j), sign);
    if (with)
      for (int64_t i = 0; i < with->rows(); ++i)
        (*with)(i, j) = withSign((*with)(i, j), sign);
  }
}

/// The symmetry test of `what` (chol, eig, eigvals); of a matrix symmetric
/// by construction only what can still fail it, an Inf or a NaN.
bool symmetricOrError(const Matrix &a, const char *what, std::string &error,
                      bool knownSymmetric) {
  if (knownSymmetric ? allFinite(a) : isSymmetric(a))
    return true;
  error = notSymmetricError(what, a.rows(), a.cols());
  return false;
}

/// a x = b by Cholesky (LAPACK reads a's lower triangle, read column-major:
/// a symmetric a goes as it is); false if a is not positive definite.
bool choleskySolve(const Matrix &a, const Matrix &b, Matrix &out) {
  int n = dim(a.rows()), nrhs = dim(b.cols()), info = 0;
  Matrix factor = a;
  Elements x = columnMajor(b);
  dposv_("L", &n, &nrhs, factor.data(), &n, x.data(), &n, &info);
  if (info != 0)
    return false;
  out = fromColumnMajor(x.data(), n, nrhs, n);
  return true;
}

/// op(a) x = b for a triangular a (op transposing it when `transposed`);
/// false for a zero on its diagonal. The row-major buffer read
/// column-major is a', so an upper a is passed as the lower a', solved
/// transposed for a x = b and as it is for a' x = b.
bool triangularSolve(const Matrix &a, const Matrix &b, bool upper,
                     bool transposed, Matrix &out) {
  int n = dim(a.rows()), nrhs = dim(b.cols()), info = 0;
  Elements x = columnMajor(b);
  dtrtrs_(upper ? "L" : "U", transposed ? "N" : "T", "N", &n, &nrhs, a.data(),
          &n, x.data(), &n, &info);
  if (info != 0)
    return false;
  out = fromColumnMajor(x.data(), n, nrhs, n);
  return true;
}

} // namespace

bool cmmrt::allFinite(const Matrix &a) {
  // No early exit: a vectorisable pass (an Inf or NaN makes x - x NaN).
  double zero = 0;
  for (double x : a.values())
    zero += x - x;
  return zero == 0;
}

bool cmmrt::isSymmetric(const Matrix &a) {
  // The whole matrix is one tile of a planned chol: one definition of the
  // test, whether the matrix is tiled or not.
  if (a.rows() != a.cols())
    return false;
  Matrix share = symmetryShare(a, nullptr);
  return symmetricFromShares({&share});
}

bool cmmrt::cholesky(const Matrix &a, Matrix &r, std::string &error,
                     bool knownSymmetric) {
  if (!symmetricOrError(a, "chol", error, knownSymmetric))
    return false;
  // LAPACK's lower factor L (L L' = A) of the buffer read column-major is,
  // read row-major, L' = R.
  r = a;
  int n = dim(a.rows()), info = 0;
  dpotrf_("L", &n, r.data(), &n, &info);
  if (info > 0) {
    error = notPositiveDefiniteError(a.rows(), info);
    return false;
  }
  for (int64_t i = 1; i < r.rows(); ++i)
    std::fill_n(r.data() + i * r.cols(), i, 0.0);
  return true;
}

bool cmmrt::qr(const Matrix &a, Matrix &q, Matrix &r, std::string &error) {
  int m = dim(a.rows()), n = dim(a.cols()), info = 0;
  if (m < n) {
    error = "qr: the " + shapeOf(a) + " matrix has fewer rows than columns";
    return false;
  }
  Elements f = columnMajor(a), tau(static_cast<size_t>(n));
  int lwork = workSize(geqrfWork(m, n));
  Elements work(static_cast<size_t>(lwork));
  dgeqrf_(&m, &n, f.data(), &m, tau.data(), work.data(), &lwork, &info);
  r = Matrix(n, n);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = i; j < n; ++j)
      r(i, j) = f[static_cast<size_t>(j * m + i)];
  lwork = workSize(orgqrWork(m, n));
  work.assign(static_cast<size_t>(lwork), 0.0);
  dorgqr_(&m, &n, &n, f.data(), &m, tau.data(), work.data(), &lwork, &info);
  q = fromColumnMajor(f.data(), m, n, m);
  for (int64_t i = 0; i < n; ++i) {
    double sign = r(i, i) < 0 ? -1.0 : 1.0;
    for (int64_t j = i; j < n; ++j)
      r(i, j) = withSign(r(i, j), sign);
    for (int64_t k = 0; k < m; ++k)
      q(k, i) = withSign(q(k, i), sign);
  }
  return true;
}

bool cmmrt::svd(const Matrix &a, Matrix *u, Matrix &s, Matrix *v,
                std::string &error) {
  int m = dim(a.rows()), n = dim(a.cols()), k = std::min(m, n), info = 0;
  Elements f = columnMajor(a), sv(static_cast<size_t>(k));
  bool vectors = u && v;
  Elements uc(vectors ? static_cast<size_t>(m) * k : 1),
      vt(vectors ? static_cast<size_t>(k) * n : 1);
  std::vector<int> iwork(static_cast<size_t>(gesddIntWork(m, n)));
  const char *jobz = vectors ? "S" : "N";
  int ldu = std::max(m, 1), ldvt = std::max(k, 1),
      lwork = workSize(gesddWork(jobz, m, n));
  Elements work(static_cast<size_t>(lwork));
  dgesdd_(jobz, &m, &n, f.data(), &m, sv.data(), uc.data(), &ldu, vt.data(),
          &ldvt, work.data(), &lwork, iwork.data(), &info);
  if (info != 0) {
    error = svdNotConvergedError("svd", a.rows(), a.cols());
    return false;
  }
  s = Matrix::uninitialized(k, 1);
  std::copy(sv.begin(), sv.end(), s.data());
  if (!vectors)
    return true;
  *u = fromColumnMajor(uc.data(), m, k, m);
  // V (n x k) is VT's transpose: VT column-major k x n read row-major.
  *v = Matrix::uninitialized(n, k);
  std::copy(vt.begin(), vt.end(), v->data());
  makeLargestPositive(*u, v);
  return true;
}

bool cmmrt::symmetricEigen(const Matrix &a, Matrix &values, Matrix *vectors,
                           std::string &error, bool knownSymmetric) {
  if (!symmetricOrError(a, vectors ? "eig" : "eigvals", error, knownSymmetric))
    return false;
  int n = dim(a.rows()), info = 0;
  Elements f(a.values().begin(), a.values().end()), w(static_cast<size_t>(n));
  const char *jobz = vectors ? "V" : "N";
  auto [query, liwork] = syevdWork(jobz, n);
  int lwork = workSize(query);
  Elements work(static_cast<size_t>(lwork));
  std::vector<int> iwork(static_cast<size_t>(liwork));
  dsyevd_(jobz, "L", &n, f.data(), &n, w.data(), work.data(), &lwork,
          iwork.data(), &liwork, &info);
  if (info != 0) {
    error = "eig: the eigendecomposition of the " + shapeOf(a) +
            " matrix did not converge";
    return false;
  }
  values = Matrix::uninitialized(n, 1);
  std::copy(w.begin(), w.end(), values.data());
  if (vectors) {
    *vectors = fromColumnMajor(f.data(), n, n, n);
    makeLargestPositive(*vectors, nullptr);
  }
  return true;
}

Matrix cmmrt::determinant(const Matrix &a) {
  // det(A') = det(A): the row-major buffer goes as it is.
  int n = dim(a.rows()), info = 0;
  Matrix lu = a;
  std::vector<int> ipiv(static_cast<size_t>(n));
  dgetrf_(&n, &n, lu.data(), &n, ipiv.data(), &info);
  double det = 1;
  for (int i = 0; i < n; ++i)
    det *= ipiv[static_cast<size_t>(i)] != i + 1 ? -lu(i, i) : lu(i, i);
  return Matrix(1, 1, det + 0.0); // no "-0" for a singular matrix
}

double cmmrt::pseudoInverseTolerance(int64_t rows, int64_t cols,
                                     double largest) {
  return static_cast<double>(std::min(rows, cols)) *
         std::numeric_limits<double>::epsilon() * largest;
}

void cmmrt::restateAs(const char *call, int64_t rows, int64_t cols,
                      std::string &error) {
  const std::string_view name(call);
  if (name == "inv" && error == singularSolveError(cols))
    error = singularInverseError(cols);
  else if (name == "pinv" &&
           error.find("did not converge") != std::string::npos)
    error = svdNotConvergedError("pinv", rows, cols);
}

bool cmmrt::invert(const Matrix &a, Matrix &out, std::string &error) {
  if (inverse(a, out))
    return true;
  error = singularInverseError(a.rows());
  return false;
}

bool cmmrt::pseudoInverse(const Matrix &a, Matrix &out, std::string &error) {
  Matrix u, s, v;
  if (!svd(a, &u, s, &v, error)) {
    error = svdNotConvergedError("pinv", a.rows(), a.cols());
    return false;
  }
  // pinv(A) = V diag(1 / s) U' over the singular values above the
  // tolerance.
  double tolerance =
      pseudoInverseTolerance(a.rows(), a.cols(), s.size() ? s(0, 0) : 0);
  for (int64_t j = 0; j < v.cols(); ++j) {
    double scale = s(j, 0) > tolerance ? 1 / s(j, 0) : 0;
    for (int64_t i = 0; i < v.rows(); ++i)
      v(i, j) *= scale;
  }
  out = matmul(v, u, /*transposeLhs=*/false, /*transposeRhs=*/true);
  return true;
}

bool cmmrt::leastSquares(const Matrix &a, const Matrix &b, Matrix &out,
                         std::string &error, int *rankOut) {
  int m = dim(a.rows()), n = dim(a.cols()), nrhs = dim(b.cols()), info = 0;
  int ldb = std::max(m, n), rank = 0;
  Elements f = columnMajor(a),
           x(static_cast<size_t>(ldb) * std::max(nrhs, 1), 0.0),
           s(static_cast<size_t>(std::min(m, n)));
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < nrhs; ++j)
      x[static_cast<size_t>(j * ldb + i)] = b(i, j);
  // dgelsd counts S(i) <= rcond * S(1) as zero: pinv's tolerance.
  double rcond = pseudoInverseTolerance(m, n, 1.0);
  auto [query, liwork] = gelsdWork(m, n, nrhs);
  int lwork = workSize(query);
  Elements work(static_cast<size_t>(lwork));
  std::vector<int> iwork(static_cast<size_t>(liwork));
  dgelsd_(&m, &n, &nrhs, f.data(), &m, x.data(), &ldb, s.data(), &rcond, &rank,
          work.data(), &lwork, iwork.data(), &info);
  if (info != 0) {
    error = "A \\ B: the least-squares solve with the " + shapeOf(a) +
            " matrix A did not converge";
    return false;
  }
  out = fromColumnMajor(x.data(), n, nrhs, ldb);
  if (rankOut)
    *rankOut = rank;
  return true;
}

bool cmmrt::isTriangular(SolveMethod method) {
  return method == SolveMethod::Upper || method == SolveMethod::Lower ||
         readsTransposed(method);
}

bool cmmrt::readsTransposed(SolveMethod method) {
  return method == SolveMethod::UpperTransposed ||
         method == SolveMethod::LowerTransposed;
}

bool cmmrt::readsUpper(SolveMethod method) {
  return method == SolveMethod::Upper || method == SolveMethod::UpperTransposed;
}

bool cmmrt::leftDivide(const Matrix &a, const Matrix &b, Matrix &out,
                       std::string &error, SolveMethod method) {
  if (a.rows() != a.cols() && method == SolveMethod::FullRank) {
    int rank = 0;
    if (!leastSquares(a, b, out, error, &rank))
      return false;
    if (rank == a.cols())
      return true;
    // The program's own (X' X) \ (X' Y) stops on the singular X' X.
    error = singularSolveError(a.cols());
    return false;
  }
  if (a.rows() != a.cols())
    return leastSquares(a, b, out, error);
  if (method == SolveMethod::Cholesky && choleskySolve(a, b, out))
    return true;
  if (isTriangular(method)) {
    if (triangularSolve(a, b, readsUpper(method), readsTransposed(method), out))
      return true;
  } else if (solve(a, b, out)) {
    return true;
  }
  error = singularSolveError(a.rows());
  return false;
}

std::string cmmrt::notSymmetricError(const char *what, int64_t rows,
                                     int64_t cols) {
  return std::string(what) + ": the " + std::to_string(rows) + "x" +
         std::to_string(cols) +
         " matrix is not symmetric (norm(A - A') > 1e-12 * norm(A))";
}

std::string cmmrt::notPositiveDefiniteError(int64_t n, int64_t order) {
  return "chol: the " + std::to_string(n) + "x" + std::to_string(n) +
         " matrix is not positive definite (its leading minor of order " +
         std::to_string(order) + " is not positive)";
}

std::string cmmrt::singularInverseError(int64_t n) {
  return "inv: the " + std::to_string(n) + "x" + std::to_string(n) +
         " matrix is singular";
}

std::string cmmrt::svdNotConvergedError(const char *what, int64_t rows,
                                        int64_t cols) {
  return std::string(what) + ": the singular value decomposition of the " +
         std::to_string(rows) + "x" + std::to_string(cols) +
         " matrix did not converge";
}

std::string cmmrt::singularSolveError(int64_t n) {
  return "A \\ B: the " + std::to_string(n) + "x" + std::to_string(n) +
         " matrix A is singular";
}

void cmmrt::keepTriangle(Matrix &a, bool lower, int64_t row0, int64_t col0) {
  for (int64_t i = 0; i < a.rows(); ++i) {
    // Row i keeps columns j with j <= d (lower) or j >= d (upper), d the
    // diagonal's column in the tile.
    int64_t d = row0 + i - col0;
    double *row = a.data() + i * a.cols();
    if (lower)
      std::fill(row + std::clamp<int64_t>(d + 1, 0, a.cols()), row + a.cols(),
                0.0);
    else
      std::fill(row, row + std::clamp<int64_t>(d, 0, a.cols()), 0.0);
  }
}

double cmmrt::factorizationScratchBytes(plan::CostClass cost, double longer,
                                        double shorter) {
  using plan::CostClass;
  const double word = sizeof(double), intWord = sizeof(int);
  const double m = longer, n = shorter, mn = m * n;
  // Beyond LAPACK's 32-bit sizes a workspace query's answer overflows (and
  // the runtime could not run the task; a square dgesdd asks for about
  // 4 n^2): the copies alone, for the memory check.
  const bool queries = mn * 8 <= double(std::numeric_limits<int>::max());
  const int mi = queries ? dim(int64_t(m)) : 0,
            ni = queries ? dim(int64_t(n)) : 0;
  switch (cost) {
  case CostClass::Solve: // the copy LU factors (solve, det; inv factors the
                         // result it is moved into, counted once more)
    return word * mn;
  case CostClass::Qr: { // the copy Q is formed in, tau, the workspaces
    // dorgqr's workspace replaces dgeqrf's; a larger one is allocated
    // while the other is still held.
    double geqrf = queries ? geqrfWork(mi, ni) : 0,
           orgqr = queries ? orgqrWork(mi, ni) : 0;
    return word * (mn + n + geqrf + (orgqr > geqrf ? orgqr : 0));
  }
  case CostClass::Svd: // the copy, the values, U and V' column-major
    return word * (mn + n + m * n + n * n +
                   (queries ? gesddWork("S", mi, ni) : 0)) +
           intWord * (queries ? gesddIntWork(mi, ni) : 8 * n);
  case CostClass::SvdVals:
    return word * (mn + n + 2 + (queries ? gesddWork("N", mi, ni) : 0)) +
           intWord * (queries ? gesddIntWork(mi, ni) : 8 * n);
  case CostClass::Eig:
  case CostClass::EigVals: { // the copy the vectors overwrite, the values
    auto [lwork, liwork] =
        queries ? syevdWork(cost == CostClass::Eig ? "V" : "N", ni)
                : std::pair<double, int>{0.0, 0};
    return word * (n * n + n + lwork) + intWord * liwork;
  }
  case CostClass::Lstsq: { // the copy, x, the values; one right-hand side
    auto [lwork, liwork] =
        queries ? gelsdWork(mi, ni, 1) : std::pair<double, int>{0.0, 0};
    return word * (mn + m + n + lwork) + intWord * liwork;
  }
  default:
    return 0;
  }
}
