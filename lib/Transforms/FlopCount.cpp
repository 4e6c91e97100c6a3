//===- FlopCount.cpp - The flop cost model of the rewrites ------*- C++ -*-===//

#include "cmm/Transforms/FlopCount.h"

#include "cmm/Dialect/Cmm/CmmDialect.h"

using namespace mlir;
using namespace cmm;

static bool isMatrixProduct(Operation *op) {
  return isa<MatmulOp, GemmOp, PowOp>(op);
}

double cmm::flopsOf(Operation *op) {
  if (auto semantics = dyn_cast<OpSemantics>(op))
    return semantics.getFlops();
  return 0;
}

FlopCount cmm::countFlops(func::FuncOp func) {
  FlopCount count;
  func.walk([&](Operation *op) {
    double f = flopsOf(op);
    count.total += f;
    if (isMatrixProduct(op))
      count.matmul += f;
  });
  return count;
}
