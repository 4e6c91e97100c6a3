//===- Scalar.h - What every elementwise op does to one element -*- C++ -*-===//
//
// The one definition of each elementwise function on a single element, inline
// so that the loops calling it vectorise: the whole-matrix kernels
// (cmmrt::broadcastTo, applyBinary), the reference interpreter's fused
// kernels (cmmrt/Fused.h) and the loop nests cmm-translate generates for
// fused ops all call these, so a fused and an unfused program compute the same
// bits. exp, log, sin, cos and tanh are not here: they run on SLEEF's vector
// functions (cmmrt/VectorMath.h) over whole arrays.
//
//===----------------------------------------------------------------------===//

#ifndef CMMRT_SCALAR_H
#define CMMRT_SCALAR_H

#include <algorithm>
#include <cmath>
#include <limits>

namespace cmmrt::scalar {

inline double add(double x, double y) { return x + y; }
inline double sub(double x, double y) { return x - y; }
inline double mul(double x, double y) { return x * y; }
inline double div(double x, double y) { return x / y; }
/// x .^ y; a square is x * x, what pow gives for it, without the call.
inline double pow(double x, double y) {
  return y == 2.0 ? x * x : std::pow(x, y);
}
/// NaN in either operand gives NaN, and -0 counts below +0 (Julia's max and
/// min, IEEE 754-2019 maximum/minimum), whatever the operand order.
inline double max(double x, double y) {
  if (std::isnan(x) || std::isnan(y))
    return std::numeric_limits<double>::quiet_NaN();
  if (x == y)
    return std::signbit(x) ? y : x;
  return std::max(x, y);
}
inline double min(double x, double y) {
  if (std::isnan(x) || std::isnan(y))
    return std::numeric_limits<double>::quiet_NaN();
  if (x == y)
    return std::signbit(x) ? x : y;
  return std::min(x, y);
}

/// fmod(x, y), bit for bit, faster. fmod is exact but slow (tens of ns
/// when x / y is large: the Hill cipher spent 70 % of its time in it). With
/// q = trunc(x / y) below 2^52 in magnitude the remainder x - q y is exact
/// under a fused multiply-add: for the true quotient it is fmod's result
/// (always representable); the rounded division can only overshoot by one,
/// and then x - q y is that result minus y (within a factor 2 of y, exact
/// by Sterbenz's lemma), corrected by adding y back, exactly. Huge
/// quotients, Inf, NaN and y = 0 go to fmod.
inline double truncatedRemainder(double x, double y) {
  double q = std::trunc(x / y);
  if (!std::isfinite(y) || !(std::fabs(q) < 0x1p52))
    return std::fmod(x, y);
  double r = std::fma(-q, y, x);
  if (r != 0 && (r < 0) != (x < 0))
    r += (x < 0) == (y < 0) ? y : -y;
  return r;
}
/// Julia's mod and NumPy's: the result takes the sign of the divisor,
/// including a zero result (mod(-6, 3) is +0).
inline double mod(double x, double y) {
  double r = truncatedRemainder(x, y);
  if (r == 0)
    return std::copysign(0.0, y);
  if ((r < 0) != (y < 0))
    r += y;
  return r;
}
inline double gt(double x, double y) { return x > y ? 1.0 : 0.0; }
inline double lt(double x, double y) { return x < y ? 1.0 : 0.0; }
inline double ge(double x, double y) { return x >= y ? 1.0 : 0.0; }
inline double le(double x, double y) { return x <= y ? 1.0 : 0.0; }
inline double eq(double x, double y) { return x == y ? 1.0 : 0.0; }

inline double neg(double x) { return -x; }
inline double sqrt(double x) { return std::sqrt(x); }
inline double abs(double x) { return std::fabs(x); }
inline double floor(double x) { return std::floor(x); }
/// Ties to even (the default rounding mode), as NumPy's round.
inline double round(double x) { return std::nearbyint(x); }

} // namespace cmmrt::scalar

#endif // CMMRT_SCALAR_H
