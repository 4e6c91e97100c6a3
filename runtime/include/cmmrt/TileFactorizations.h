//===- TileFactorizations.h - Tile kernels of Cholesky and solves -*- C++
//-*-===//
//
// The kernels of the tile algorithms of PLASMA/DPLASMA (Buttari, Langou,
// Kurzak and Dongarra, "A class of parallel tiled linear algebra algorithms
// for multicore architectures", 2009, Algorithm 2), in the upper form the
// language's chol returns (R' R = A, docs/language.md §15): a planned
// chol(A) is POTRF on each diagonal tile, TRSM on the tiles right of it,
// SYRK and GEMM updates of the trailing tiles (Tiling.cpp); a solve with a
// triangular matrix is TRSM on its diagonal tiles and GEMM updates of the
// right-hand side's tiles. Each works on row-major tiles (cmmrt::Matrix)
// through CBLAS, and POTRF through LAPACK, as cmmrt/Factorizations.h does
// for whole matrices.
//
//===----------------------------------------------------------------------===//

#ifndef CMMRT_TILEFACTORIZATIONS_H
#define CMMRT_TILEFACTORIZATIONS_H

#include "cmmrt/Matrix.h"

#include <cstdint>
#include <string>
#include <vector>

namespace cmmrt {

/// The share of chol's symmetry test (norm(A - A') <= 1e-12 norm(A),
/// cmmrt::isSymmetric) that tile (i, j) of the upper triangle and its
/// mirror (j, i) hold: a 1x2 tile of ||A_ij - A_ji'||^2 counted for both
/// and ||A_ij||^2 + ||A_ji||^2; `mirror` is null for a diagonal tile.
Matrix symmetryShare(const Matrix &tile, const Matrix *mirror);

/// Whether the shares of every tile pair say the matrix is symmetric.
bool symmetricFromShares(const std::vector<const Matrix *> &shares);

/// POTRF, in place: the diagonal tile A (its upper triangle read) becomes
/// its upper factor R (R' R = A, R's strictly lower part zero); the tile
/// sits at row `row0` of the `n` x `n` matrix being factored. False with
/// chol's message when the leading minor of some order is not positive.
bool factorDiagonalTile(Matrix &tile, int64_t row0, int64_t n,
                        std::string &error);

/// How TRSM reads its triangle `t`: chol's step solves R_kk' X = A_kj with
/// the upper R_kk (UpperTransposed), as R' \\ B does; a solve R X = B or
/// L X = B reads t as it is, L' \\ B transposed.
enum class TileTriangle { Upper, Lower, UpperTransposed, LowerTransposed };

/// TRSM: b = op(t)^-1 b for the triangle `t` (square, as many rows as b).
void solveWithTriangle(const Matrix &t, TileTriangle how, Matrix &b);

/// The TileTriangle of an upper or lower triangle, read transposed or not.
inline TileTriangle tileTriangle(bool upper, bool transposed) {
  if (upper)
    return transposed ? TileTriangle::UpperTransposed : TileTriangle::Upper;
  return transposed ? TileTriangle::LowerTransposed : TileTriangle::Lower;
}

/// Whether the triangle `t` has a zero on its diagonal (a singular solve).
bool hasZeroOnDiagonal(const Matrix &t);

/// SYRK: c = c - a' a on c's upper triangle (its strictly lower part is
/// left as it is: POTRF reads the upper one).
void subtractGram(const Matrix &a, Matrix &c);

/// GEMM: c = c - op(a) b, op transposing a when `transposeA`.
void subtractProduct(const Matrix &a, const Matrix &b, bool transposeA,
                     Matrix &c);

} // namespace cmmrt

#endif // CMMRT_TILEFACTORIZATIONS_H
