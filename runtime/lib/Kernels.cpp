//===- Kernels.cpp - Dense matrix kernels on whole matrices -----*- C++ -*-===//

#include "cmmrt/Kernels.h"

#include "cmmrt/Format.h"

#include <cblas.h>

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

using namespace cmmrt;

extern "C" {
// LAPACK (Fortran, column-major), provided by OpenBLAS.
void dgesv_(const int *n, const int *nrhs, double *a, const int *lda,
            int *ipiv, double *b, const int *ldb, int *info);
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

Matrix cmmrt::matmul(const Matrix &a, const Matrix &b) {
  assert(a.cols() == b.rows() && "matmul shape mismatch");
  Matrix c(a.rows(), b.cols());
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, a.rows(), b.cols(),
              a.cols(), 1.0, a.data(), a.cols(), b.data(), b.cols(), 0.0,
              c.data(), c.cols());
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
  Matrix t(a.cols(), a.rows());
  for (int64_t i = 0; i < a.rows(); ++i)
    for (int64_t j = 0; j < a.cols(); ++j)
      t(j, i) = a(i, j);
  return t;
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
  case BinaryFn::Add:
    return x + y;
  case BinaryFn::Sub:
    return x - y;
  case BinaryFn::Mul:
    return x * y;
  case BinaryFn::Div:
    return x / y;
  case BinaryFn::Pow:
    return std::pow(x, y);
  case BinaryFn::Max:
    return (std::isnan(x) || std::isnan(y))
               ? std::numeric_limits<double>::quiet_NaN()
               : std::max(x, y);
  case BinaryFn::Min:
    return (std::isnan(x) || std::isnan(y))
               ? std::numeric_limits<double>::quiet_NaN()
               : std::min(x, y);
  case BinaryFn::Mod: {
    // Julia's mod and NumPy's: the result takes the sign of the divisor,
    // including a zero result (mod(-6, 3) is +0).
    double r = std::fmod(x, y);
    if (r == 0)
      return std::copysign(0.0, y);
    if ((r < 0) != (y < 0))
      r += y;
    return r;
  }
  case BinaryFn::Gt:
    return x > y;
  case BinaryFn::Lt:
    return x < y;
  case BinaryFn::Ge:
    return x >= y;
  case BinaryFn::Le:
    return x <= y;
  case BinaryFn::Eq:
    return x == y;
  }
  return 0;
}

Matrix cmmrt::broadcast(BinaryFn fn, const Matrix &a, const Matrix &b) {
  MatrixShape shape;
  bool ok = broadcastShape(a.shape(), b.shape(), shape);
  assert(ok && "shapes do not broadcast");
  (void)ok;
  Matrix r(shape.rows, shape.cols);
  // Stride 0 along a stretched dimension.
  int64_t ari = a.rows() == 1 ? 0 : 1, acj = a.cols() == 1 ? 0 : 1;
  int64_t bri = b.rows() == 1 ? 0 : 1, bcj = b.cols() == 1 ? 0 : 1;
  for (int64_t i = 0; i < shape.rows; ++i)
    for (int64_t j = 0; j < shape.cols; ++j)
      r(i, j) = applyBinary(fn, a(i * ari, j * acj), b(i * bri, j * bcj));
  return r;
}

double cmmrt::applyMap(MapFn fn, double x) {
  switch (fn) {
  case MapFn::Sqrt:
    return std::sqrt(x);
  case MapFn::Exp:
    return std::exp(x);
  case MapFn::Log:
    return std::log(x);
  case MapFn::Abs:
    return std::fabs(x);
  case MapFn::Sin:
    return std::sin(x);
  case MapFn::Cos:
    return std::cos(x);
  case MapFn::Tanh:
    return std::tanh(x);
  case MapFn::Floor:
    return std::floor(x);
  case MapFn::Round:
    return std::nearbyint(x); // ties to even in the default rounding mode
  }
  return x;
}

Matrix cmmrt::map(MapFn fn, const Matrix &a) {
  Matrix r = a;
  for (double &x : r.values())
    x = applyMap(fn, x);
  return r;
}

namespace {
/// Accumulates one reduction; NaN wins for Max and Min (Julia semantics).
struct Reducer {
  ReduceFn fn;
  double acc;
  int64_t count = 0;
  explicit Reducer(ReduceFn fn)
      : fn(fn), acc(fn == ReduceFn::Max   ? -INFINITY
                    : fn == ReduceFn::Min ? INFINITY
                                          : 0.0) {}
  void add(double x) {
    ++count;
    switch (fn) {
    case ReduceFn::Sum:
    case ReduceFn::Mean:
      acc += x;
      break;
    case ReduceFn::Max:
    case ReduceFn::Min:
      acc = applyBinary(fn == ReduceFn::Max ? BinaryFn::Max : BinaryFn::Min,
                        acc, x);
      break;
    }
  }
  double result() const {
    return fn == ReduceFn::Mean ? acc / static_cast<double>(count) : acc;
  }
};
} // namespace

Matrix cmmrt::reduce(ReduceFn fn, const Matrix &a, int dim) {
  if (dim == 0) {
    Matrix r(1, 1);
    if (fn == ReduceFn::Sum || fn == ReduceFn::Mean) {
      double s = sumOf(a); // pairwise, for accuracy on large matrices
      r(0, 0) = fn == ReduceFn::Mean ? s / static_cast<double>(a.size()) : s;
      return r;
    }
    Reducer red(fn);
    for (double x : a.values())
      red.add(x);
    r(0, 0) = red.result();
    return r;
  }
  if (dim == 1) {
    Matrix r(1, a.cols());
    for (int64_t j = 0; j < a.cols(); ++j) {
      Reducer red(fn);
      for (int64_t i = 0; i < a.rows(); ++i)
        red.add(a(i, j));
      r(0, j) = red.result();
    }
    return r;
  }
  Matrix r(a.rows(), 1);
  for (int64_t i = 0; i < a.rows(); ++i) {
    Reducer red(fn);
    for (int64_t j = 0; j < a.cols(); ++j)
      red.add(a(i, j));
    r(i, 0) = red.result();
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
  Matrix at = transpose(a);  // column-major A
  Matrix bt = transpose(b);  // column-major B
  std::vector<int> ipiv(n);
  int info = 0;
  dgesv_(&n, &nrhs, at.data(), &n, ipiv.data(), bt.data(), &n, &info);
  if (info != 0)
    return false;
  out = transpose(bt);
  return true;
}
