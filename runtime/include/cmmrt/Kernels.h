//===- Kernels.h - Dense matrix kernels on whole matrices -------*- C++ -*-===//
//
// The arithmetic of every cmm op on whole in-memory matrices: products on
// OpenBLAS (dgemm), inverses and solves on LAPACK (dgetrf/dgetri, dgesv),
// the rest in plain loops. The reference interpreter runs on these; the
// generated programs call them on tiles.
//
//===----------------------------------------------------------------------===//

#ifndef CMMRT_KERNELS_H
#define CMMRT_KERNELS_H

#include "cmmrt/Matrix.h"

#include <algorithm>

namespace cmmrt {

/// The elementwise functions (cmmrt/ElementFunctions.def, cmmrt/Scalar.h).
enum class BinaryFn {
#define CMM_BINARY(Enumerator, name) Enumerator,
#include "cmmrt/ElementFunctions.def"
};
enum class MapFn {
#define CMM_MAP(Enumerator, name) Enumerator,
#include "cmmrt/ElementFunctions.def"
};
enum class ReduceFn { Sum, Max, Min, Mean };

/// The shape of a broadcasting op (each dim equal or 1), or false.
bool broadcastShape(MatrixShape a, MatrixShape b, MatrixShape &out);

Matrix identity(int64_t n);
Matrix range(int64_t start, int64_t stop);

/// C = op(A) * op(B) with dgemm, where op transposes an operand as it is
/// read when asked (dgemm's TRANSA and TRANSB: no transpose is made); dgemv
/// for a vector operand, dsyrk for one matrix against its own transpose
/// (A' * A, A * A': the upper triangle, mirrored). Shapes must agree.
Matrix matmul(const Matrix &a, const Matrix &b, bool transposeA = false,
              bool transposeB = false);
/// C = op(A) * op(B) + beta * C, in place (dsyrk only where C is symmetric).
void multiplyAdd(const Matrix &a, const Matrix &b, double beta, Matrix &c,
                 bool transposeA = false, bool transposeB = false);
/// Whether an m x n product op(A) * op(B) is one matrix against its own
/// transpose (A' * A, A * A'), which multiplyAdd runs on dsyrk: the upper
/// triangle, half dgemm's flops (given a symmetric accumulator, as a tiled
/// product's diagonal tile has). The planner's class syrk.
inline bool runsOnSyrk(bool sameOperand, bool transposeA, bool transposeB,
                       int64_t m, int64_t n) {
  return sameOperand && transposeA != transposeB && m > 1 && n > 1;
}
/// The depth `k` by which class syrk counts such a product of depth
/// `depth`: half, as dsyrk does half the multiply-adds (at least 1).
inline int64_t syrkCostDepth(int64_t depth) {
  return std::max<int64_t>(1, (depth + 1) / 2);
}
/// A^k for a square A and k >= 0, by repeated squaring.
Matrix power(const Matrix &a, int64_t k);
Matrix transpose(const Matrix &a);
/// Rows [first, end) of a's transpose into t (a.cols() x a.rows()).
void transposeRows(const Matrix &a, Matrix &t, int64_t first, int64_t end);
Matrix scale(const Matrix &a, double factor);
Matrix negate(const Matrix &a);

/// Elementwise with Julia broadcasting; shapes must broadcast. Max and Min
/// propagate NaN; Mod takes the sign of the divisor; comparisons give 1.0 or
/// 0.0.
Matrix broadcast(BinaryFn fn, const Matrix &a, const Matrix &b);
/// The same into `out`, which has the broadcast shape and may be `a` or `b`
/// itself (elements are read before they are written).
void broadcastTo(BinaryFn fn, const Matrix &a, const Matrix &b, Matrix &out);
/// Rows [first, end) of broadcastTo's result, the others untouched.
void broadcastRows(BinaryFn fn, const Matrix &a, const Matrix &b, Matrix &out,
                   int64_t first, int64_t end);
double applyBinary(BinaryFn fn, double x, double y);
double applyMap(MapFn fn, double x);

/// Elementwise function; Round ties to even.
Matrix map(MapFn fn, const Matrix &a);
void mapInPlace(MapFn fn, Matrix &a);
/// x[e] = fn(x[e]), e < n: the loop of mapInPlace, for part of a matrix.
void mapValues(MapFn fn, double *x, int64_t n);

/// dim 0 reduces everything to 1x1, dim 1 each column (1xn), dim 2 each row
/// (mx1). Max and Min propagate NaN.
Matrix reduce(ReduceFn fn, const Matrix &a, int dim);

/// Blocks (docs/language.md, "Indexing" and "Concatenation"): the
/// `rows` x `cols` block of `a` at (row0, col0), counted from 0; `dest`
/// with that block replaced by `block`; `parts` side by side (dim 2) or
/// stacked (dim 1); the diagonal of a square matrix as a column, or the
/// diagonal matrix of a vector; the elements in column-major order filled
/// into `rows` x `cols` (Julia's reshape). Shapes are the caller's to check
/// (the cmm ops' verifiers).
Matrix sliceOf(const Matrix &a, int64_t row0, int64_t col0, int64_t rows,
               int64_t cols);
Matrix insertBlock(const Matrix &dest, const Matrix &block, int64_t row0,
                   int64_t col0);
Matrix concatenate(const std::vector<const Matrix *> &parts, int dim);
Matrix diagonal(const Matrix &a);
Matrix reshapeColumnMajor(const Matrix &a, int64_t rows, int64_t cols);

/// Inverse and solution of A X = B; false if A is exactly singular (as
/// Julia's SingularException).
bool inverse(const Matrix &a, Matrix &out);
bool solve(const Matrix &a, const Matrix &b, Matrix &out);

} // namespace cmmrt

#endif // CMMRT_KERNELS_H
