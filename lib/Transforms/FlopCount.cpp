//===- FlopCount.cpp - The flop cost model of the rewrites ------*- C++ -*-===//

#include "cmm/Transforms/FlopCount.h"

#include "cmm/Dialect/CmmDialect.h"

#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace cmm;

static double elements(Value v) {
  auto type = cast<RankedTensorType>(v.getType());
  return static_cast<double>(type.getDimSize(0)) * type.getDimSize(1);
}

double cmm::matmulFlops(int64_t m, int64_t k, int64_t n) {
  return 2.0 * static_cast<double>(m) * static_cast<double>(k) *
         static_cast<double>(n);
}

int64_t cmm::squaringProducts(int64_t k) {
  if (k <= 1)
    return 0;
  return llvm::Log2_64(static_cast<uint64_t>(k)) +
         llvm::popcount(static_cast<uint64_t>(k)) - 1;
}

static bool isMatrixProduct(Operation *op) { return isa<MatmulOp, PowOp>(op); }

double cmm::flopsOf(Operation *op) {
  return llvm::TypeSwitch<Operation *, double>(op)
      .Case<MatmulOp>([](MatmulOp m) {
        auto a = cast<RankedTensorType>(m.getLhs().getType());
        auto b = cast<RankedTensorType>(m.getRhs().getType());
        return matmulFlops(a.getDimSize(0), a.getDimSize(1), b.getDimSize(1));
      })
      .Case<PowOp>([](PowOp p) {
        int64_t n = p.getType().getDimSize(0);
        return squaringProducts(p.getExponent()) * matmulFlops(n, n, n);
      })
      .Case<InvOp>([](InvOp i) {
        double n = i.getType().getDimSize(0);
        return 2.0 * n * n * n; // LU (2/3 n^3) and inversion (4/3 n^3)
      })
      .Case<SolveOp>([](SolveOp s) {
        auto b = s.getType();
        double n = b.getDimSize(0), k = b.getDimSize(1);
        return 2.0 / 3.0 * n * n * n + 2.0 * n * n * k;
      })
      .Case<ScaleOp, NegOp, MapOp, AddOp, SubOp, MulOp, DivOp, EPowOp, MaxOp,
            MinOp, ModOp, CmpOp>(
          [](Operation *o) { return elements(o->getResult(0)); })
      .Case<ReduceOp>(
          [](ReduceOp r) { return elements(r.getInput()); })
      .Case<NormOp>([](NormOp n) { return 2.0 * elements(n.getInput()); })
      .Default([](Operation *) { return 0.0; });
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
