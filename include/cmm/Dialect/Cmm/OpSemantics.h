//===- OpSemantics.h - What each cmm op is to each stage --------*- C++ -*-===//
//
// The OpSemantics interface every cmm op implements (CmmInterfaces.td) and
// the planner's tiling rules it returns.
//
//===----------------------------------------------------------------------===//

#ifndef CMM_DIALECT_OPSEMANTICS_H
#define CMM_DIALECT_OPSEMANTICS_H

#include "cmmrt/Factorizations.h"
#include "cmmrt/Matrix.h"
#include "cmmrt/Plan.h"

#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OperationSupport.h"

#include <cstdint>
#include <optional>

namespace cmm {

/// How the planner makes tasks of an op (docs/planner.md, "Tiling").
enum class TileStrategy {
  Generate,    // each tile made from nothing: rand, fill, eye, range, constant
  Load,        // each tile read from a file, on the master
  Product,     // C = A * B on tiles (gemm/gemm_acc), or one COSMA gang task
  Power,       // square-and-multiply over Product; A^0 generated as I
  Elementwise, // a task per result tile; operands broadcast
  Transpose,   // tile (i, j) of the result from tile (j, i)
  Reduce,      // a partial per tile, combined along `dim`
  Whole,       // one task over whole operands, on the master: inv, solve
  Cholesky,    // chol's tile algorithm: potrf, trsm, syrk, gemm_sub
  TriangularSolve, // A \ B for a triangular A: trsm and gemm_sub on tiles
  Gather,          // every tile of the operand to the master: print, save
  None,            // no task: a compile-time scalar's print
};

/// An op's tiling: its strategy, the time-model class of its tasks, and the
/// strategy's parameters.
struct TilingRule {
  TileStrategy strategy = TileStrategy::None;
  cmmrt::plan::CostClass cost = cmmrt::plan::CostClass::Elementwise;
  /// Reduce: 0 for all elements, 1 along columns, 2 along rows.
  int dim = 0;
  /// Reduce: the work of a partial per element, in elementwise units.
  double work = 1;
  /// Power: the exponent.
  uint64_t exponent = 0;
  /// Product: the operands read transposed (cmm.gemm; BLAS TRANSA/TRANSB).
  bool transposeLhs = false, transposeRhs = false;
  /// Whole: the time model's m, n, k (docs/machine-model.md); Elementwise:
  /// k alone (class fused: the kernel's steps; 0 is 1).
  double m = 0, n = 0, k = 0;
};

/// 2 m k n: the flops of an m x k by k x n product.
double matmulFlops(int64_t m, int64_t k, int64_t n);

/// About 9 n^3: the flops of the symmetric eigendecomposition of an n x n
/// matrix with its vectors (Golub and Van Loan, 4th ed., section 8.3).
double eigFlops(int64_t n);

/// Products needed for A^k by squaring: floor(log2 k) squarings and
/// popcount(k) - 1 products (0 for k <= 1).
int64_t squaringProducts(int64_t k);

} // namespace cmm

#include "cmm/Dialect/Cmm/CmmInterfaces.h.inc"

#endif // CMM_DIALECT_OPSEMANTICS_H
