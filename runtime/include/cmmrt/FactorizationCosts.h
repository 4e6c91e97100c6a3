//===- FactorizationCosts.h - The work of whole-matrix factorizations -----===//
//
// The flops of the dense factorizations that run as one task over whole
// operands (Golub and Van Loan, "Matrix Computations", 4th ed.), and the
// depth `k` by which their cost classes count them. The classes use the
// solve polynomial's units, in which an n x n inverse (2 n^3 flops) is
// m = n = k: a factorization of `flops` on an m x n matrix has
// k = flops / (2 m n) (docs/machine-model.md, "Factorizations"). One
// definition for the planner (each op's tiling rule) and cmm-profile (the
// shapes it times and fits).
//
//===----------------------------------------------------------------------===//

#ifndef CMMRT_FACTORIZATIONCOSTS_H
#define CMMRT_FACTORIZATIONCOSTS_H

#include "cmmrt/Plan.h"

namespace cmmrt {

/// Householder QR of an m x n matrix with the thin Q formed (dgeqrf and
/// dorgqr): 4 m n^2 - 4 n^3 / 3 for m >= n; a wide matrix factors its
/// m x m part and updates the rest, 2 m^2 n + 2 m^3 / 3.
double qrFlops(double m, double n);

/// LAPACK's thin SVD (dgesdd) of an m x n matrix, l = max, s = min:
/// 4 l s^2 + 8 s^3 with the singular vectors (R-bidiagonalization),
/// 4 l s^2 - 4 s^3 / 3 without.
double svdFlops(double m, double n, bool vectors);

/// The symmetric eigendecomposition (dsyevd) of an n x n matrix: about
/// 9 n^3 with the eigenvectors, 4 n^3 / 3 without.
double symmetricEigenFlops(double n, bool vectors);

/// LU with partial pivoting and `rhs` right-hand sides (dgesv):
/// 2 n^3 / 3 + 2 n^2 rhs.
double luSolveFlops(double n, double rhs);

/// Least squares by dgelsd (a QR of A, an SVD of its s x s R), l = max,
/// s = min: 2 l s^2 + 2 s^3 + 4 m n rhs.
double leastSquaresFlops(double m, double n, double rhs);

/// The `k` of a whole-matrix task of `flops` on an m x n operand, at
/// least 1.
double wholeTaskDepth(double flops, double m, double n);

/// The flops of the task cmm-profile times for the factorization class
/// `cost` (qr, svd, svdvals, eig, eigvals, lstsq: least squares with one
/// right-hand side) on an m x n operand, m >= n; 0 for the other classes.
double factorizationFlops(plan::CostClass cost, double m, double n);

} // namespace cmmrt

#endif // CMMRT_FACTORIZATIONCOSTS_H
