//===- Kernels.cpp - Dense matrix kernels on whole matrices -----*- C++ -*-===//

#include "cmmrt/Kernels.h"

#include "cmmrt/BlasThreads.h"
#include "cmmrt/Format.h"
#include "cmmrt/IntegerProducts.h"
#include "cmmrt/RowBands.h"
#include "cmmrt/Scalar.h"
#include "cmmrt/VectorMath.h"

#include <cblas.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <vector>

using namespace cmmrt;

extern "C" {
// LAPACK (Fortran, column-major), provided by OpenBLAS.
void dgesv_(const int *n, const int *nrhs, double *a, const int *lda, int *ipiv,
            double *b, const int *ldb, int *info);
void dgetrf_(const int *m, const int *n, double *a, const int *lda, int *ipiv,
             int *info);
void dgetri_(const int *n, double *a, const int *lda, const int *ipiv,
             double *work, const int *lwork, int *info);
}

bool cmmrt::broadcastShape(MatrixShape a, MatrixShape b, MatrixShape &out) {
  auto dim = [](int64_t x, int64_t y, int64_t &r) {
    if (x == y || y == 1)
      r = x;
    else if (x == 1)
      r = y;
    else
      return false;
    return true;
  };
  return dim(a.rows, b.rows, out.rows) && dim(a.cols, b.cols, out.cols);
}

Matrix cmmrt::identity(int64_t n) {
  Matrix m(n, n);
  for (int64_t i = 0; i < n; ++i)
    m(i, i) = 1.0;
  return m;
}

Matrix cmmrt::range(int64_t start, int64_t stop) {
  Matrix m(1, stop - start + 1);
  for (int64_t j = 0; j < m.cols(); ++j)
    m(0, j) = static_cast<double>(start + j);
  return m;
}

namespace {
bool isSymmetric(const Matrix &c) {
  for (int64_t i = 0; i < c.rows(); ++i)
    for (int64_t j = 0; j < i; ++j)
      if (c(i, j) != c(j, i))
        return false;
  return true;
}
} // namespace

void cmmrt::multiplyAdd(const Matrix &a, const Matrix &b, double beta,
                        Matrix &c, bool transposeA, bool transposeB) {
  const int64_t m = transposeA ? a.cols() : a.rows(),
                k = transposeA ? a.rows() : a.cols(),
                n = transposeB ? b.rows() : b.cols();
  assert(k == (transposeB ? b.cols() : b.rows()) && c.rows() == m &&
         c.cols() == n && "matmul shape mismatch");
  if (c.size() == 0)
    return;
  if (k == 0) { // an empty sum: C = beta C, which dgemm would not touch
    if (beta == 0.0)
      std::fill(c.values().begin(), c.values().end(), 0.0);
    else if (beta != 1.0)
      for (double &x : c.values())
        x *= beta;
    return;
  }
  const CBLAS_TRANSPOSE opA = transposeA ? CblasTrans : CblasNoTrans,
                        opB = transposeB ? CblasTrans : CblasNoTrans;
  // Matrix-vector products on dgemv: dgemm with one column streams the
  // matrix several times slower. A vector is contiguous transposed or not.
  if (n == 1) {
    cblas_dgemv(CblasRowMajor, opA, a.rows(), a.cols(), 1.0, a.data(), a.cols(),
                b.data(), 1, beta, c.data(), 1);
    return;
  }
  if (m == 1) { // c' = op(B)' * op(A)'
    cblas_dgemv(CblasRowMajor, transposeB ? CblasNoTrans : CblasTrans, b.rows(),
                b.cols(), 1.0, b.data(), b.cols(), a.data(), 1, beta, c.data(),
                1);
    return;
  }
  // Small integers (0/1 adjacency matrices, letters mod 26): single
  // precision is exact and twice as fast (IntegerProducts.h).
  if (multiplyAddExactInSingle(a, b, beta, c, transposeA, transposeB))
    return;
  // A' * A and A * A': dsyrk computes the upper triangle (half the flops of
  // dgemm, as NumPy does for A.T @ A); the lower one is its mirror. With an
  // accumulator, only where that is symmetric too (a tiled product's
  // diagonal tile accumulates symmetric partial products).
  if (runsOnSyrk(a.data() == b.data(), transposeA, transposeB, m, n) &&
      (beta == 0.0 || isSymmetric(c))) {
    cblas_dsyrk(CblasRowMajor, CblasUpper, opA, n, k, 1.0, a.data(), a.cols(),
                beta, c.data(), c.cols());
    const int64_t block = 64; // the mirror in blocks, to stay in cache
    for (int64_t i0 = 0; i0 < n; i0 += block)
      for (int64_t j0 = 0; j0 <= i0; j0 += block)
        for (int64_t i = i0; i < std::min(n, i0 + block); ++i)
          for (int64_t j = j0; j < std::min(i, j0 + block); ++j)
            c(i, j) = c(j, i);
    return;
  }
  OneBlasThreadUnlessFaster threads(m, n, k);
  cblas_dgemm(CblasRowMajor, opA, opB, m, n, k, 1.0, a.data(), a.cols(),
              b.data(), b.cols(), beta, c.data(), c.cols());
}

Matrix cmmrt::matmul(const Matrix &a, const Matrix &b, bool transposeA,
                     bool transposeB) {
  // Every path writes each element of C when beta is 0.
  Matrix c = Matrix::uninitialized(transposeA ? a.cols() : a.rows(),
                                   transposeB ? b.rows() : b.cols());
  multiplyAdd(a, b, 0.0, c, transposeA, transposeB);
  return c;
}

Matrix cmmrt::power(const Matrix &a, int64_t k) {
  Matrix result = identity(a.rows());
  Matrix square = a;
  bool first = true;
  while (k > 0) {
    if (k & 1) {
      result = first ? square : matmul(result, square);
      first = false;
    }
    k >>= 1;
    if (k)
      square = matmul(square, square);
  }
  return result;
}

Matrix cmmrt::transpose(const Matrix &a) {
  // In blocks of 256 rows x 4 columns: each block writes 4 runs of 256
  // consecutive elements of the result and reads 256 input lines that the
  // next block reuses from L1. A row-by-row copy misses on every write,
  // and square 32 x 32 blocks of a power-of-two-sized matrix land their 32
  // output rows in one cache set. Measured on this machine (8192 x 512,
  // 4096 x 4096, 4000 x 4000, 1000 x 3000): 1.4-6x faster than 32 x 32.
  Matrix t = Matrix::uninitialized(a.cols(), a.rows());
  transposeRows(a, t, 0, t.rows());
  return t;
}

void cmmrt::transposeRows(const Matrix &a, Matrix &t, int64_t first,
                          int64_t end) {
  const int64_t rows = a.rows(), cols = a.cols(), blockRows = 256,
                blockCols = 4;
  const double *in = a.data();
  double *out = t.data();
  for (int64_t i0 = 0; i0 < rows; i0 += blockRows)
    for (int64_t j0 = first; j0 < end; j0 += blockCols) {
      const int64_t i1 = std::min(rows, i0 + blockRows),
                    j1 = std::min(end, j0 + blockCols);
      for (int64_t i = i0; i < i1; ++i)
        for (int64_t j = j0; j < j1; ++j)
          out[j * rows + i] = in[i * cols + j];
    }
}

Matrix cmmrt::scale(const Matrix &a, double factor) {
  Matrix r = a;
  for (double &x : r.values())
    x *= factor;
  return r;
}

Matrix cmmrt::negate(const Matrix &a) {
  Matrix r = a;
  for (double &x : r.values())
    x = -x;
  return r;
}

double cmmrt::applyBinary(BinaryFn fn, double x, double y) {
  switch (fn) {
#define CMM_BINARY(Fn, function)                                               \
  case BinaryFn::Fn:                                                           \
    return scalar::function(x, y);
#include "cmmrt/ElementFunctions.def"
  }
  return 0;
}

namespace {
/// out (rows x cols) = f(a, b) with broadcasting, the function inlined so
/// the common cases (same shapes, a scalar operand, a row or column against
/// a matrix) vectorise.
template <typename F>
void broadcastInto(double *out, int64_t rows, int64_t cols, BroadcastOperand a,
                   BroadcastOperand b, F f) {
  const double *x = a.data, *y = b.data;
  const int64_t n = rows * cols;
  const bool aWhole = a.rows == rows && a.cols == cols,
             bWhole = b.rows == rows && b.cols == cols;
  if (aWhole && bWhole) {
    for (int64_t e = 0; e < n; ++e)
      out[e] = f(x[e], y[e]);
    return;
  }
  if (aWhole && b.rows * b.cols == 1) {
    const double v = y[0];
    for (int64_t e = 0; e < n; ++e)
      out[e] = f(x[e], v);
    return;
  }
  if (bWhole && a.rows * a.cols == 1) {
    const double v = x[0];
    for (int64_t e = 0; e < n; ++e)
      out[e] = f(v, y[e]);
    return;
  }
  // Stride 0 along a stretched dimension.
  const int64_t ari = a.rows == 1 ? 0 : a.cols, acj = a.cols == 1 ? 0 : 1;
  const int64_t bri = b.rows == 1 ? 0 : b.cols, bcj = b.cols == 1 ? 0 : 1;
  for (int64_t i = 0; i < rows; ++i) {
    const double *xr = x + i * ari, *yr = y + i * bri;
    double *o = out + i * cols;
    if (acj && bcj)
      for (int64_t j = 0; j < cols; ++j)
        o[j] = f(xr[j], yr[j]);
    else if (acj)
      for (int64_t j = 0; j < cols; ++j)
        o[j] = f(xr[j], yr[0]);
    else if (bcj)
      for (int64_t j = 0; j < cols; ++j)
        o[j] = f(xr[0], yr[j]);
    else
      for (int64_t j = 0; j < cols; ++j)
        o[j] = f(xr[0], yr[0]);
  }
}

/// A matrix as an operand of broadcastInto.
BroadcastOperand operandOf(const Matrix &m) {
  return {m.data(), m.rows(), m.cols()};
}
} // namespace

Matrix cmmrt::broadcast(BinaryFn fn, const Matrix &a, const Matrix &b) {
  MatrixShape shape;
  bool ok = broadcastShape(a.shape(), b.shape(), shape);
  assert(ok && "shapes do not broadcast");
  (void)ok;
  Matrix r = Matrix::uninitialized(shape.rows, shape.cols);
  broadcastTo(fn, a, b, r);
  return r;
}

void cmmrt::broadcastTo(BinaryFn fn, const Matrix &a, const Matrix &b,
                        Matrix &r) {
  broadcastRows(fn, a, b, r, 0, r.rows());
}

void cmmrt::broadcastRows(BinaryFn fn, const Matrix &a, const Matrix &b,
                          Matrix &r, int64_t first, int64_t end) {
  const int64_t rows = r.rows(), cols = r.cols();
  double *out = r.data() + first * cols;
  BroadcastOperand x = bandOf(operandOf(a), rows, first, end),
                   y = bandOf(operandOf(b), rows, first, end);
  switch (fn) { // the loop inside the switch, the function inlined
#define CMM_BINARY(Fn, function)                                               \
  case BinaryFn::Fn:                                                           \
    broadcastInto(out, end - first, cols, x, y, scalar::function);             \
    break;
#include "cmmrt/ElementFunctions.def"
  }
}

double cmmrt::applyMap(MapFn fn, double x) {
  if (isVectorMathFunction(fn)) { // the same code path as a whole tile's
    double y;
    vectorMap(fn, &x, &y, 1);
    return y;
  }
  switch (fn) {
  case MapFn::Sqrt:
    return scalar::sqrt(x);
  case MapFn::Abs:
    return scalar::abs(x);
  case MapFn::Floor:
    return scalar::floor(x);
  case MapFn::Round:
    return scalar::round(x);
  default:
    break;
  }
  return x;
}

Matrix cmmrt::map(MapFn fn, const Matrix &a) {
  Matrix r = a;
  mapInPlace(fn, r);
  return r;
}

void cmmrt::mapInPlace(MapFn fn, Matrix &r) {
  mapValues(fn, r.data(), r.size());
}

void cmmrt::mapValues(MapFn fn, double *x, int64_t n) {
  switch (fn) { // the loop inside the switch: one call per element at most
  case MapFn::Abs:
    for (int64_t e = 0; e < n; ++e)
      x[e] = scalar::abs(x[e]);
    break;
  case MapFn::Floor:
    for (int64_t e = 0; e < n; ++e)
      x[e] = scalar::floor(x[e]);
    break;
  case MapFn::Sqrt:
    for (int64_t e = 0; e < n; ++e)
      x[e] = scalar::sqrt(x[e]);
    break;
  case MapFn::Round:
    for (int64_t e = 0; e < n; ++e)
      x[e] = scalar::round(x[e]);
    break;
  default: // exp, log, sin, cos, tanh: SLEEF on the CPU's widest vectors
    vectorMap(fn, x, x, n);
  }
}

namespace {
/// Reductions by max and min with Julia's rules (NaN anywhere gives NaN;
/// -0 counts below +0) at the speed of a sum: the loops keep plain compares
/// (MAXPD/MINPD, which pass over a NaN) and a running sum as a probe (NaN
/// once a NaN is seen; compares alone get every Inf right); the rare cases
/// (a NaN probe, a zero result whose sign matters) are settled afterwards
/// by `settle`, which rescans.
template <bool IsMax> inline double better(double acc, double x) {
  return IsMax ? (x > acc ? x : acc) : (x < acc ? x : acc);
}

#if defined(__SSE2__)
/// `better` on two lanes: MAXPD(x, acc) is x > acc ? x : acc, lane by lane.
template <bool IsMax> inline __m128d better(__m128d acc, __m128d x) {
  return IsMax ? _mm_max_pd(x, acc) : _mm_min_pd(x, acc);
}
#endif

/// The exact result for elements x[0], x[stride], ... given the plain
/// compares' `acc` and `probe`.
template <bool IsMax>
double settle(double acc, double probe, const double *x, int64_t n,
              int64_t stride) {
  if (std::isnan(probe)) // a NaN seen (or +Inf and -Inf)
    for (int64_t e = 0; e < n; ++e)
      if (std::isnan(x[e * stride]))
        return std::numeric_limits<double>::quiet_NaN();
  if (acc == 0) // the first zero seen won: take the sign the rules want
    for (int64_t e = 0; e < n; ++e)
      if (x[e * stride] == 0 && std::signbit(x[e * stride]) != IsMax)
        return x[e * stride];
  return acc;
}

/// One row's (or a whole tile's) extremum: eight lanes of independent
/// running extrema, as a sum keeps several partial sums, so that compares
/// do not wait in line (rows of 32, k-means' distances, run at a sum's
/// rate: 0.5 -> 0.2 ns per element hot).
template <bool IsMax> double extremumOf(const double *x, int64_t n) {
  const double start = IsMax ? -INFINITY : INFINITY;
  double acc = start, probe = 0;
  int64_t e = 0;
#if defined(__SSE2__)
  if (n >= 8) {
    __m128d a0 = _mm_set1_pd(start), a1 = a0, a2 = a0, a3 = a0;
    __m128d p0 = _mm_setzero_pd(), p1 = p0;
    for (; e + 8 <= n; e += 8) {
      __m128d x0 = _mm_loadu_pd(x + e), x1 = _mm_loadu_pd(x + e + 2);
      __m128d x2 = _mm_loadu_pd(x + e + 4), x3 = _mm_loadu_pd(x + e + 6);
      a0 = better<IsMax>(a0, x0);
      a1 = better<IsMax>(a1, x1);
      a2 = better<IsMax>(a2, x2);
      a3 = better<IsMax>(a3, x3);
      p0 = _mm_add_pd(p0, _mm_add_pd(x0, x1));
      p1 = _mm_add_pd(p1, _mm_add_pd(x2, x3));
    }
    __m128d a = better<IsMax>(better<IsMax>(a0, a1), better<IsMax>(a2, a3));
    __m128d p = _mm_add_pd(p0, p1);
    acc = better<IsMax>(_mm_cvtsd_f64(a), _mm_cvtsd_f64(_mm_unpackhi_pd(a, a)));
    probe = _mm_cvtsd_f64(p) + _mm_cvtsd_f64(_mm_unpackhi_pd(p, p));
  }
#endif
  for (; e < n; ++e) {
    acc = better<IsMax>(acc, x[e]);
    probe += x[e];
  }
  return settle<IsMax>(acc, probe, x, n, 1);
}

/// Column extrema (dim = 1) row by row into `r` (cache order: the inner
/// loop runs along a row, independent per column).
template <bool IsMax> void columnExtrema(const Matrix &a, Matrix &r) {
  double *acc = r.data();
  std::vector<double> probe(a.cols(), 0.0);
  std::fill(acc, acc + a.cols(), IsMax ? -INFINITY : INFINITY);
  for (int64_t i = 0; i < a.rows(); ++i) {
    const double *row = a.data() + i * a.cols();
    for (int64_t j = 0; j < a.cols(); ++j) {
      acc[j] = better<IsMax>(acc[j], row[j]);
      probe[j] += row[j];
    }
  }
  for (int64_t j = 0; j < a.cols(); ++j)
    acc[j] = settle<IsMax>(acc[j], probe[j], a.data() + j, a.rows(), a.cols());
}
} // namespace

Matrix cmmrt::reduce(ReduceFn fn, const Matrix &a, int dim) {
  bool sum = fn == ReduceFn::Sum || fn == ReduceFn::Mean;
  if (dim == 0) {
    Matrix r(1, 1);
    if (sum) {
      double s = sumOf(a); // pairwise, for accuracy on large matrices
      r(0, 0) = fn == ReduceFn::Mean ? s / static_cast<double>(a.size()) : s;
    } else {
      r(0, 0) = fn == ReduceFn::Max ? extremumOf<true>(a.data(), a.size())
                                    : extremumOf<false>(a.data(), a.size());
    }
    return r;
  }
  if (dim == 1) {
    Matrix r(1, a.cols());
    if (sum) {
      // Each column adds top to bottom, all columns at once.
      double *acc = r.data();
      for (int64_t i = 0; i < a.rows(); ++i) {
        const double *row = a.data() + i * a.cols();
        for (int64_t j = 0; j < a.cols(); ++j)
          acc[j] += row[j];
      }
      if (fn == ReduceFn::Mean)
        for (int64_t j = 0; j < a.cols(); ++j)
          acc[j] /= static_cast<double>(a.rows());
    } else if (fn == ReduceFn::Max) {
      columnExtrema<true>(a, r);
    } else {
      columnExtrema<false>(a, r);
    }
    return r;
  }
  Matrix r(a.rows(), 1);
  for (int64_t i = 0; i < a.rows(); ++i) {
    const double *row = a.data() + i * a.cols();
    if (sum) {
      double s = sumOf(row, a.cols());
      r(i, 0) = fn == ReduceFn::Mean ? s / static_cast<double>(a.cols()) : s;
    } else {
      r(i, 0) = fn == ReduceFn::Max ? extremumOf<true>(row, a.cols())
                                    : extremumOf<false>(row, a.cols());
    }
  }
  return r;
}

bool cmmrt::inverse(const Matrix &a, Matrix &out) {
  int n = static_cast<int>(a.rows());
  // The inverse of the transpose is the transpose of the inverse, so the
  // row-major data can go to LAPACK as it is.
  out = a;
  std::vector<int> ipiv(n);
  int info = 0;
  dgetrf_(&n, &n, out.data(), &n, ipiv.data(), &info);
  if (info != 0)
    return false;
  int lwork = -1;
  double query = 0;
  dgetri_(&n, out.data(), &n, ipiv.data(), &query, &lwork, &info);
  lwork = std::max(1, static_cast<int>(query));
  std::vector<double> work(lwork);
  dgetri_(&n, out.data(), &n, ipiv.data(), work.data(), &lwork, &info);
  return info == 0;
}

bool cmmrt::solve(const Matrix &a, const Matrix &b, Matrix &out) {
  int n = static_cast<int>(a.rows());
  int nrhs = static_cast<int>(b.cols());
  Matrix at = transpose(a); // column-major A
  Matrix bt = transpose(b); // column-major B
  std::vector<int> ipiv(n);
  int info = 0;
  dgesv_(&n, &nrhs, at.data(), &n, ipiv.data(), bt.data(), &n, &info);
  if (info != 0)
    return false;
  out = transpose(bt);
  return true;
}

//===----------------------------------------------------------------------===//
// Blocks
//===----------------------------------------------------------------------===//

Matrix cmmrt::sliceOf(const Matrix &a, int64_t row0, int64_t col0, int64_t rows,
                      int64_t cols) {
  Matrix out = Matrix::uninitialized(rows, cols);
  for (int64_t i = 0; i < rows; ++i)
    std::copy_n(a.data() + (row0 + i) * a.cols() + col0, cols,
                out.data() + i * cols);
  return out;
}

Matrix cmmrt::insertBlock(const Matrix &dest, const Matrix &block, int64_t row0,
                          int64_t col0) {
  Matrix out = dest;
  for (int64_t i = 0; i < block.rows(); ++i)
    std::copy_n(block.data() + i * block.cols(), block.cols(),
                out.data() + (row0 + i) * out.cols() + col0);
  return out;
}

Matrix cmmrt::concatenate(const std::vector<const Matrix *> &parts, int dim) {
  int64_t rows = 0, cols = 0;
  for (const Matrix *p : parts) {
    rows = dim == 1 ? rows + p->rows() : p->rows();
    cols = dim == 2 ? cols + p->cols() : p->cols();
  }
  Matrix out = Matrix::uninitialized(rows, cols);
  int64_t at = 0; // the first row (dim 1) or column (dim 2) of each part
  for (const Matrix *p : parts) {
    for (int64_t i = 0; i < p->rows(); ++i)
      std::copy_n(p->data() + i * p->cols(), p->cols(),
                  dim == 1 ? out.data() + (at + i) * cols
                           : out.data() + i * cols + at);
    at += dim == 1 ? p->rows() : p->cols();
  }
  return out;
}

Matrix cmmrt::diagonal(const Matrix &a) {
  if (a.rows() == 1 || a.cols() == 1) {
    int64_t n = a.size();
    Matrix out(n, n);
    for (int64_t i = 0; i < n; ++i)
      out.data()[i * n + i] = a.data()[i];
    return out;
  }
  Matrix out = Matrix::uninitialized(a.rows(), 1);
  for (int64_t i = 0; i < a.rows(); ++i)
    out.data()[i] = a.data()[i * a.cols() + i];
  return out;
}

Matrix cmmrt::reshapeColumnMajor(const Matrix &a, int64_t rows, int64_t cols) {
  // Element k in column-major order is (k % rows, k / rows) in both.
  Matrix out = Matrix::uninitialized(rows, cols);
  for (int64_t k = 0; k < a.size(); ++k)
    out.data()[(k % rows) * cols + k / rows] =
        a.data()[(k % a.rows()) * a.cols() + k / a.rows()];
  return out;
}
