//===- IntegerProducts.h - Exact products of small integers -----*- C++ -*-===//
//
// Products of matrices whose elements are small integers (0/1 adjacency
// matrices, comparisons, `floor(26 * rand(...))`, `mod(..., 26)`: the
// reachability, hill and bfs benchmarks) are exact in single precision: when
// every element of op(A) (m x k) and op(B) (k x n) is an integer with
// |a| <= maxA and |b| <= maxB, and k * maxA * maxB <= 2^24, every product
// and every partial sum, in any order and with or without fused
// multiply-adds, is an integer that float represents exactly, as double
// does. sgemm then gives the same result as dgemm, bit for bit, at about
// twice the rate (twice the elements per vector register and half the
// bytes). The check reads each operand once while converting it, stops at
// the first element that is not such an integer (at once for `rand`
// values), and is tried only for products large enough that the
// conversions are small next to the product (every dimension at least
// kMinIntegerProductDim).
//
//===----------------------------------------------------------------------===//

#ifndef CMMRT_INTEGERPRODUCTS_H
#define CMMRT_INTEGERPRODUCTS_H

#include "cmmrt/Matrix.h"

#include <algorithm>

namespace cmmrt {

/// The smallest m, n and k for which a product is tried in single precision.
constexpr int64_t kMinIntegerProductDim = 128;

/// Integers up to this magnitude are exact in float (2^24).
constexpr double kFloatExactIntegerLimit = 16777216.0;

/// Whether an m x n product of depth k is large enough for the conversions
/// to single precision to be small next to it.
inline bool largeEnoughForSingle(int64_t m, int64_t n, int64_t k) {
  return std::min({m, n, k}) >= kMinIntegerProductDim;
}

/// Whether an m x n product of depth k runs in single precision when every
/// element of op(a) is an integer in [0, maxA] or [-maxA, maxA] and every
/// element of op(b) one bounded by maxB (negative bounds: not integers):
/// large enough to gain, and k * maxA * maxB <= 2^24. The one rule of the
/// runtime's choice and the planner's class sgemm.
inline bool singlePrecisionIsExact(int64_t m, int64_t n, int64_t k, double maxA,
                                   double maxB) {
  return largeEnoughForSingle(m, n, k) && maxA >= 0 && maxB >= 0 &&
         double(k) * maxA * maxB <= kFloatExactIntegerLimit;
}

/// c = op(a) * op(b) + beta * c in single precision when that is exact (see
/// above); returns false, leaving c untouched, when it is not or the product
/// is too small to gain from it. `beta` is 0 or 1 (a fresh result or a
/// tiled product's accumulator).
bool multiplyAddExactInSingle(const Matrix &a, const Matrix &b, double beta,
                              Matrix &c, bool transposeA, bool transposeB);

/// Whether multiplyAddExactInSingle runs op(a) * op(b) (b not transposed)
/// in single precision: large enough, every element of both an integer (not
/// -0) whose magnitudes bound the sums as above. For tests and tools.
bool isExactInSingle(const Matrix &a, const Matrix &b, bool transposeA);

} // namespace cmmrt

#endif // CMMRT_INTEGERPRODUCTS_H
