//===- FlopCount.h - The flop cost model of the rewrites --------*- C++ -*-===//
//
// Floating-point operations of each cmm op, the cost model every rewrite
// decision uses: 2mkn for a product (m x k times k x n), one per element for
// elementwise ops, scalings and reductions, none for transposes and
// constructors, LU-based counts for inv and solve.
//
//===----------------------------------------------------------------------===//

#ifndef CMM_TRANSFORMS_FLOPCOUNT_H
#define CMM_TRANSFORMS_FLOPCOUNT_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Operation.h"

namespace cmm {

/// 2 m k n.
double matmulFlops(int64_t m, int64_t k, int64_t n);

/// Products needed for A^k by squaring: floor(log2 k) squarings and
/// popcount(k) - 1 products (0 for k <= 1).
int64_t squaringProducts(int64_t k);

/// Flops of one op.
double flopsOf(mlir::Operation *op);

struct FlopCount {
  double total = 0;
  double matmul = 0; // in matrix products and powers
};

FlopCount countFlops(mlir::func::FuncOp func);

} // namespace cmm

#endif // CMM_TRANSFORMS_FLOPCOUNT_H
