//===- SparseRows.h - Compressed rows of a mostly-zero tile -----*- C++ -*-===//
//
// cmm values are dense, but a program may compute a matrix that is mostly
// zeros (`rand(n, n) .< 0.01`: the link graphs of hits, bfs and spmv) and
// then multiply vectors by it again and again. A dense matrix-vector
// product reads every element each time: memory-bound at 8 bytes per
// element. The same product on the matrix's compressed rows (CSR: each
// row's nonzero values and their columns) reads 12 bytes per nonzero
// instead, 60x less at 1 % density. As SystemDS's MatrixBlock picks its
// sparse or dense representation by the number of nonzeros (its
// SPARSITY_TURN_POINT), the executor compresses a tile that several planned
// matrix-vector products read, once, when its first reader runs, and keeps
// the dense one for every other use; a tile denser than
// kSparseDensityLimit stays dense (the scan stops early).
//
// Only the order in which a row's products are added differs from dgemv,
// the reassociation the language allows (docs/language.md); skipping a zero
// element skips a product that is +-0 unless the vector holds an Inf or a
// NaN, so a vector that does takes the dense product.
//
//===----------------------------------------------------------------------===//

#ifndef CMMRT_SPARSEROWS_H
#define CMMRT_SPARSEROWS_H

#include "cmmrt/Matrix.h"

#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace cmmrt {

/// Tiles with more nonzeros than this fraction of their elements stay
/// dense whatever the number of products: at 12 bytes per nonzero against
/// 8 per element, and gathers of the vector instead of a stream, the
/// compressed product is no faster than dgemv from about 30 % on.
constexpr double kSparseDensityLimit = 0.25;

/// Tiles with fewer elements than this are not worth compressing (a dense
/// product on them takes microseconds).
constexpr int64_t kMinSparseElements = int64_t(1) << 16;

/// A rows x cols matrix by its nonzero elements, row by row: row i's are
/// value[start[i] .. start[i+1]), in columns column[...], ascending.
/// -0.0 counts as nonzero (its products keep their sign).
struct SparseRows {
  int64_t rows = 0, cols = 0;
  std::vector<int64_t> start; // rows + 1 entries
  std::vector<int32_t> column;
  std::vector<double> value;
  int64_t nonzeros() const { return int64_t(value.size()); }
};

/// What compressed rows cost, in units of one dense matrix-vector product
/// of the tile (bench/sparse on the development VM, 4000 x 4000, 2
/// threads): compressing a tile of density d costs about
/// kCompressProducts + kCompressPerDensity * d (a scan at about half
/// dgemv's rate, then 12 bytes written per nonzero), each product on the
/// compressed rows about kSparseProductPerDensity * d. The runtime decides
/// by them (breakEvenDensity), the planner predicts by them
/// (Conversion/CmmToTaskGraph/Density.h).
constexpr double kCompressProducts = 2.0;
constexpr double kCompressPerDensity = 60.0;
constexpr double kSparseProductPerDensity = 3.0;
/// Transposing compressed rows (the other orientation of a tile read both
/// ways, as HITS reads A' h and A a, is made from the first: a counting sort
/// of its nonzeros, no second scan of the dense tile) costs about
/// kTransposeSparsePerDensity * d in the same units (bench/sparse: 0.2 at
/// d = 0.01, 4.6 at 0.1, 12 at 0.2; scattered writes grow with d).
constexpr double kTransposeSparsePerDensity = 50.0;
/// The planner's class `compress` (CostClasses.def) times the first reader
/// of a tile, whose compressed rows are written to fresh pages; a first
/// reader of the other orientation also transposes them, at about this
/// share of the compression's cost per nonzero (2026-12-02, a 1400 x 1400
/// tile at 1 % on fresh pages: compression 2.6-3.6 ms and 187-207 page
/// faults, transposition 0.39-0.53 ms and 29-40 faults; most of either
/// is its faults).
constexpr double kTransposeShareOfCompression = 0.25;

/// The largest density at which compressing a tile pays for itself over
/// `products` matrix-vector products: while products * (1 - 3 d) > 2 + 60 d
/// in the units above. At most kSparseDensityLimit; 0 for fewer than 3
/// products.
double breakEvenDensity(int64_t products);

/// The fraction of a's elements that are nonzero, estimated from up to 64
/// of its rows spread evenly over it (a few percent of one product).
double sampleDensity(const Matrix &a);

/// The compressed rows of `a`, or false when more than maxDensity of its
/// elements are nonzero (the scan stops once a band of rows has more) or a
/// column index would not fit in 32 bits. Banded over the task's threads.
bool compressRows(const Matrix &a, double maxDensity, SparseRows &out);

/// The compressed rows of a's transpose (its compressed columns).
SparseRows transposeSparse(const SparseRows &a);

/// y = A x + beta y, for x of a.cols elements and y of a.rows (beta 0: y is
/// only written). Each row's products are added in column order, so the
/// result is the same on any number of threads.
void multiplyAddSparse(const SparseRows &a, const double *x, double beta,
                       double *y);

/// A dense tile that `products` planned matrix-vector products read, and
/// its compressed forms, each made on first request (from any thread: the
/// others wait for it) when a sample of the tile is sparse enough for them
/// to pay for it (breakEvenDensity). The tile must not change while this
/// lives.
class SparseOperand {
public:
  SparseOperand(const Matrix &tile, int64_t products)
      : tile(tile), products(products) {}
  /// The tile's compressed rows, or null when it is too dense.
  const SparseRows *rows();
  /// Its transpose's compressed rows, or null when it is too dense.
  const SparseRows *transposedRows();

private:
  const Matrix &tile;
  int64_t products;
  std::once_flag rowsOnce, transposedOnce;
  std::unique_ptr<SparseRows> rows_, transposed_;
};

/// c = op(a) * op(b) + beta * c on compressed rows when the product is a
/// matrix times a vector whose matrix operand has a SparseOperand here
/// (`sparseA` for op(a) * column, `sparseB` for row * op(b); either may be
/// null) that is sparse enough, and the vector is finite. False, leaving c
/// untouched, when not: the caller takes the dense product.
bool multiplyAddVectorSparse(SparseOperand *sparseA, SparseOperand *sparseB,
                             const Matrix &a, const Matrix &b, double beta,
                             Matrix &c, bool transposeA, bool transposeB);

/// What this process has compressed and run on compressed rows (--stats).
struct SparseStats {
  long long tiles = 0;    // tiles compressed
  long long nonzeros = 0; // ... their nonzeros
  long long elements = 0; // ... and all their elements
  long long products = 0; // matrix-vector products run on compressed rows
};
SparseStats sparseStats();

} // namespace cmmrt

#endif // CMMRT_SPARSEROWS_H
