//===- FlopCount.h - The flop cost model of the rewrites --------*- C++ -*-===//
//
// Floating-point operations of a program, the cost model every rewrite
// decision uses: 2mkn for a product (m x k times k x n), one per element for
// elementwise ops, scalings and reductions, none for transposes and
// constructors, LU-based counts for inv and solve (each op's getFlops).
//
//===----------------------------------------------------------------------===//

#ifndef CMM_TRANSFORMS_FLOPCOUNT_H
#define CMM_TRANSFORMS_FLOPCOUNT_H

#include "cmm/Dialect/Cmm/OpSemantics.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Operation.h"

namespace cmm {

/// Flops of one op: its OpSemantics::getFlops (lib/Dialect/Cmm/CmmOpSemantics.cpp,
/// where matmulFlops and squaringProducts are too); 0 for other dialects.
double flopsOf(mlir::Operation *op);

struct FlopCount {
  double total = 0;
  double matmul = 0; // in matrix products and powers
};

FlopCount countFlops(mlir::func::FuncOp func);

} // namespace cmm

#endif // CMM_TRANSFORMS_FLOPCOUNT_H
