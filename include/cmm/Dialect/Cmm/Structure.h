//===- Structure.h - Matrix structure known by construction -----*- C++ -*-===//
//
// What the rewrites may assume of a value from the ops that made it: that
// it is symmetric (cmm-polynomials: A^k through eig), symmetric positive
// semi-definite (cmm-linear-solves: the Cholesky route) or triangular (a
// substitution). Each holds in exact arithmetic whatever the inputs; the
// run time checks what rounding may break (chol's symmetry test).
//
//===----------------------------------------------------------------------===//

#ifndef CMM_DIALECT_CMM_STRUCTURE_H
#define CMM_DIALECT_CMM_STRUCTURE_H

#include "cmm/Dialect/Cmm/CmmDialect.h"

#include <optional>

namespace cmm {

/// Whether the square `v` is symmetric by construction: X' X and X X' (a
/// value against its own transpose), v + v' and v .* v', the identity,
/// fills and symmetric constants, and scalings, negations, maps, powers,
/// inverses, sums, differences, elementwise products, quotients, maxima
/// and minima of symmetric matrices (or by scalars).
bool isSymmetricByConstruction(mlir::Value v);

/// Whether `v` is symmetric bit for bit by construction, whatever the
/// rounding: the identity, fills, symmetric constants, v + v' and v .* v',
/// and elementwise arithmetic (+ - .* ./ max min, scalings, negation) of
/// such matrices and scalars. A run-time symmetry test of it can fail only
/// for an Inf or a NaN (A - A' is NaN there).
bool isExactlySymmetric(mlir::Value v);

/// Whether `v` is symmetric positive semi-definite by construction: X' X
/// and X X', the identity, and sums and positive scalings of those.
bool isSemiDefinite(mlir::Value v);

/// The triangle `v` keeps by construction: a Cholesky factor and triu are
/// upper, tril lower, and a transpose swaps them.
std::optional<Triangle> triangleOf(mlir::Value v);

} // namespace cmm

#endif // CMM_DIALECT_CMM_STRUCTURE_H
