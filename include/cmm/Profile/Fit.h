//===- Fit.h - Least-squares fits of Table 1 polynomials --------*- C++ -*-===//
//
// cmm-profile's fits (docs/machine-model.md): a time polynomial of the
// paper's Table 1 form through measured times, minimising the *relative*
// error of the prediction (each observation weighted by 1 / its time), so a
// 50x50 call is predicted as well as a 2000x2000 one and the constant term
// is the per-call overhead the small calls show, not the intercept of a fit
// dominated by the large ones. Coefficients are kept non-negative (a model
// file forbids negative ones) with Lawson and Hanson's active-set method.
//
//===----------------------------------------------------------------------===//

#ifndef CMM_PROFILE_FIT_H
#define CMM_PROFILE_FIT_H

#include "cmm/Scheduling/MachineModel.h"

#include <bitset>
#include <vector>

namespace cmm::profile {

/// One measured signature: an operation on an m x n tile (k: the inner
/// dimension of a product, 1 otherwise) took `seconds` (a mean).
struct Observation {
  double m = 1, n = 1, k = 1;
  double seconds = 0;
};

/// Which of the eight monomials (1, m, n, k, mn, mk, nk, mnk) a fit may use.
using Terms = std::bitset<8>;
enum Monomial { One = 0, M, N, K, MN, MK, NK, MNK };
Terms terms(std::initializer_list<Monomial> used);

struct PolynomialFit {
  scheduling::TimePolynomial poly;
  unsigned points = 0;
  /// sqrt(mean((predicted - measured)^2 / measured^2)) over the points.
  double rmsRelativeError = 0;
  /// The largest |predicted / measured - 1|.
  double maxRelativeError = 0;
};

/// The non-negative polynomial in `use` minimising the sum of squared
/// relative errors over `points` (observations with a time <= 0 are
/// skipped). Terms whose monomial is constant over the points (e.g. k when
/// every k is 1) are taken out, so the fit is well posed. With `roofline`
/// the fit is of TimePolynomial::evalRoofline: each point is given to the
/// mn or the mnk term (whichever the last fit made larger there, starting
/// from the sum's fit) and the polynomial refitted, until an assignment
/// repeats or leaves a term no point; the iterate of the lowest roofline
/// error is returned.
PolynomialFit fitTimePolynomial(const std::vector<Observation> &points,
                                Terms use, bool roofline = false);

/// Non-negative least squares: the x >= 0 minimising ||A x - b|| for A of
/// `rows` x `cols` (column-major), by Lawson and Hanson's algorithm (Solving
/// Least Squares Problems, 1974, chapter 23). For the small systems of the
/// profiler (cols <= 8).
std::vector<double> nonNegativeLeastSquares(const std::vector<double> &a,
                                            unsigned rows, unsigned cols,
                                            const std::vector<double> &b);

} // namespace cmm::profile

#endif // CMM_PROFILE_FIT_H
