//===- Density.h - Expected nonzeros of matrix values -----------*- C++ -*-===//
//
// cmm values are dense, but the runtime multiplies vectors by a mostly-zero
// tile on its compressed rows (cmmrt/SparseRows.h) when a sample of the tile
// is sparse enough for the products that read it: hits, bfs and spmv ran
// 2-5x faster than the planner predicted for dense products. The planner
// predicts the same choice from what the program says of its matrices: the
// share of nonzero elements each value is expected to have, from the ops
// that make it (`rand(n, n) .< 0.01`: 1 %; a product, a load: unknown, so
// dense), propagated through elementwise ops and fused bodies. The same
// walk bounds the values that are small non-negative integers, whose
// products the runtime runs in single precision (cmmrt/IntegerProducts.h:
// reachability's 0/1 matrices, the Hill cipher's letters).
//
//===----------------------------------------------------------------------===//

#ifndef CMM_CONVERSION_CMMTOTASKGRAPH_DENSITY_H
#define CMM_CONVERSION_CMMTOTASKGRAPH_DENSITY_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>

namespace cmm::tiling {

/// What the planner expects of a value's elements.
struct ElementEstimate {
  /// The expected share of nonzero elements, in [0, 1].
  double density = 1.0;
  /// Uniform on [0, 1) (`rand`): a comparison with a constant c keeps a
  /// share c (`.<`, `.<=`) or 1 - c (`.>`, `.>=`) of the elements.
  bool uniformUnit = false;
  /// Every element is this (a fill, a constant scalar).
  std::optional<double> constant;
  /// Every element is in [0, nonNegativeMax] (nullopt: not known to be).
  std::optional<double> nonNegativeMax;
  /// ... and an integer, never -0: comparisons, eye, floor(26 * rand(...)),
  /// mod(..., 26), and sums, products and maxima of such values.
  bool integral = false;
  /// The bound of a matrix of non-negative integers, else nullopt: a product
  /// of two whose depth times both bounds is at most 2^24 runs exactly in
  /// single precision (cmmrt/IntegerProducts.h), at about twice dgemm's rate.
  std::optional<double> integerMax() const {
    return integral ? nonNegativeMax : std::nullopt;
  }
};

/// The estimate of `op`'s first result from its operands' (`of`); dense
/// for an op it does not know.
ElementEstimate
estimateResult(mlir::Operation *op,
               llvm::function_ref<ElementEstimate(mlir::Value)> of);

} // namespace cmm::tiling

#endif // CMM_CONVERSION_CMMTOTASKGRAPH_DENSITY_H
