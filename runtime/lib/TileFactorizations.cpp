//===- TileFactorizations.cpp - Tile kernels of Cholesky and solves -------===//

#include "cmmrt/TileFactorizations.h"

#include "cmmrt/Factorizations.h"
#include "cmmrt/RowBands.h"

#include <cblas.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

using namespace cmmrt;

extern "C" {
// LAPACK (Fortran, column-major), provided by OpenBLAS.
void dpotrf_(const char *uplo, const int *n, double *a, const int *lda,
             int *info);
}

Matrix cmmrt::symmetryShare(const Matrix &tile, const Matrix *mirror) {
  // The mirror is read transposed: in blocks of 64 x 64 (32 KiB each), so
  // its rows stay in cache while a block of the tile's is read. A diagonal
  // tile is its own mirror: it holds both (i, j) and (j, i), so each pair
  // of A - A' once per element and each norm once; a tile and its mirror
  // hold each pair once, so twice, and both elements' norms. The block
  // rows are shared among the task's threads (memory-bound: a tenth of a
  // planned chol of n = 2000 on one thread), each summing its own, then
  // added in order: the same sums on any number of threads.
  constexpr int64_t kBlock = 64;
  const Matrix &other = mirror ? *mirror : tile;
  const int64_t rows = tile.rows(), cols = tile.cols();
  const double *x = tile.data(), *y = other.data();
  const int64_t blockRows = (rows + kBlock - 1) / kBlock;
  // Per block row: sum (A_ij - A_ji)^2, sum A_ij^2, sum A_ji^2.
  std::vector<std::array<double, 3>> sums(size_t(blockRows), {0, 0, 0});
  forEachRowBand(blockRows, kBlock * cols, [&](int64_t first, int64_t end) {
    for (int64_t block = first; block < end; ++block) {
      const int64_t i0 = block * kBlock, i1 = std::min(rows, i0 + kBlock);
      double off = 0, norm = 0, otherNorm = 0;
      for (int64_t j0 = 0; j0 < cols; j0 += kBlock) {
        const int64_t j1 = std::min(cols, j0 + kBlock);
        for (int64_t i = i0; i < i1; ++i) {
          const double *row = x + i * cols;
          double o = 0, n = 0, m = 0;
          for (int64_t j = j0; j < j1; ++j) {
            const double a = row[j], b = y[j * rows + i], d = a - b;
            n += a * a;
            m += b * b;
            o += d * d;
          }
          off += o;
          norm += n;
          otherNorm += m;
        }
      }
      sums[size_t(block)] = {off, norm, otherNorm};
    }
  });
  double off = 0, norm = 0, otherNorm = 0;
  for (const auto &s : sums) {
    off += s[0];
    norm += s[1];
    otherNorm += s[2];
  }
  Matrix share(1, 2);
  share(0, 0) = mirror ? 2 * off : off;
  share(0, 1) = mirror ? norm + otherNorm : norm;
  return share;
}

bool cmmrt::symmetricFromShares(const std::vector<const Matrix *> &shares) {
  double off = 0, norm = 0;
  for (const Matrix *s : shares) {
    off += (*s)(0, 0);
    norm += (*s)(0, 1);
  }
  // cmmrt::isSymmetric's test, NaN failing it.
  return std::sqrt(off) <= 1e-12 * std::sqrt(norm);
}

bool cmmrt::factorDiagonalTile(Matrix &r, int64_t row0, int64_t n,
                               std::string &error) {
  // The row-major upper triangle read column-major is the lower one:
  // LAPACK's L (L L' = A) read back row-major is R = L'.
  int b = static_cast<int>(r.rows()), info = 0;
  dpotrf_("L", &b, r.data(), &b, &info);
  if (info > 0) {
    error = notPositiveDefiniteError(n, row0 + info);
    return false;
  }
  for (int64_t i = 1; i < r.rows(); ++i)
    std::fill_n(r.data() + i * r.cols(), i, 0.0);
  return true;
}

void cmmrt::solveWithTriangle(const Matrix &t, TileTriangle how, Matrix &b) {
  if (b.size() == 0)
    return;
  cblas_dtrsm(CblasRowMajor, CblasLeft,
              how == TileTriangle::Lower || how == TileTriangle::LowerTransposed
                  ? CblasLower
                  : CblasUpper,
              how == TileTriangle::UpperTransposed ||
                      how == TileTriangle::LowerTransposed
                  ? CblasTrans
                  : CblasNoTrans,
              CblasNonUnit, static_cast<int>(b.rows()),
              static_cast<int>(b.cols()), 1.0, t.data(),
              static_cast<int>(t.cols()), b.data(), static_cast<int>(b.cols()));
}

bool cmmrt::hasZeroOnDiagonal(const Matrix &t) {
  for (int64_t i = 0; i < std::min(t.rows(), t.cols()); ++i)
    if (t(i, i) == 0.0)
      return true;
  return false;
}

void cmmrt::subtractGram(const Matrix &a, Matrix &c) {
  cblas_dsyrk(CblasRowMajor, CblasUpper, CblasTrans, static_cast<int>(c.rows()),
              static_cast<int>(a.rows()), -1.0, a.data(),
              static_cast<int>(a.cols()), 1.0, c.data(),
              static_cast<int>(c.cols()));
}

void cmmrt::subtractProduct(const Matrix &a, const Matrix &b, bool transposeA,
                            Matrix &c) {
  const int k = static_cast<int>(transposeA ? a.rows() : a.cols());
  cblas_dgemm(CblasRowMajor, transposeA ? CblasTrans : CblasNoTrans,
              CblasNoTrans, static_cast<int>(c.rows()),
              static_cast<int>(c.cols()), k, -1.0, a.data(),
              static_cast<int>(a.cols()), b.data(), static_cast<int>(b.cols()),
              1.0, c.data(), static_cast<int>(c.cols()));
}
