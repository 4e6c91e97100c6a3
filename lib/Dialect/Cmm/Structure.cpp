//===- Structure.cpp - Matrix structure known by construction -----------===//

#include "cmm/Dialect/Cmm/Structure.h"

using namespace mlir;
using namespace cmm;

/// `exact`: symmetric bit for bit, whatever the rounding. Elementwise
/// arithmetic (+ - .* ./, scalings, negation, max, min) rounds a_ij and a_ji
/// alike from equal operands (programs are built with -ffp-contract=off),
/// and a + b = b + a in IEEE arithmetic; products, inverses, powers and the
/// library's maps are symmetric only up to rounding.
static bool symmetricByConstruction(Value v, bool exact, int depth) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  Operation *op = v.getDefiningOp();
  if (!op || !type || type.getDimSize(0) != type.getDimSize(1) || depth > 32)
    return false;
  auto symmetric = [&](Value x) {
    return symmetricByConstruction(x, exact, depth + 1);
  };
  auto isTransposeOf = [](Value t, Value x) {
    auto transpose = t.getDefiningOp<TransposeOp>();
    return transpose && transpose.getInput() == x;
  };
  if (isa<EyeOp, FillOp>(op))
    return true;
  if (auto c = dyn_cast<ConstantOp>(op)) {
    auto values = c.getValue().getValues<double>();
    int64_t n = type.getDimSize(0);
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = i + 1; j < n; ++j)
        if (values[i * n + j] != values[j * n + i])
          return false;
    return true;
  }
  if (!exact) {
    if (auto gemm = dyn_cast<GemmOp>(op))
      return gemm.isSymmetric();
    if (auto product = dyn_cast<MatmulOp>(op))
      return isTransposeOf(product.getLhs(), product.getRhs()) ||
             isTransposeOf(product.getRhs(), product.getLhs());
    if (isa<MapOp, PowOp, InvOp>(op))
      return symmetric(op->getOperand(0));
  }
  if (isa<AddOp, SubOp, MulOp, DivOp, MaxOp, MinOp>(op)) {
    Value a = op->getOperand(0), b = op->getOperand(1);
    if (isa<AddOp, MulOp>(op) && (isTransposeOf(a, b) || isTransposeOf(b, a)))
      return true;
    auto symmetricOrScalar = [&](Value x) {
      auto t = cast<RankedTensorType>(x.getType());
      return (t.getDimSize(0) == 1 && t.getDimSize(1) == 1) || symmetric(x);
    };
    return symmetricOrScalar(a) && symmetricOrScalar(b);
  }
  if (isa<ScaleOp, NegOp>(op))
    return symmetric(op->getOperand(0));
  return false;
}

bool cmm::isSymmetricByConstruction(Value v) {
  return symmetricByConstruction(v, /*exact=*/false, 0);
}

bool cmm::isExactlySymmetric(Value v) {
  return symmetricByConstruction(v, /*exact=*/true, 0);
}

bool cmm::isSemiDefinite(Value v) {
  Operation *op = v.getDefiningOp();
  if (!op)
    return false;
  if (auto g = dyn_cast<GemmOp>(op))
    return g.isSymmetric();
  if (auto m = dyn_cast<MatmulOp>(op)) {
    auto t = m.getLhs().getDefiningOp<TransposeOp>();
    auto u = m.getRhs().getDefiningOp<TransposeOp>();
    return (t && t.getInput() == m.getRhs()) ||
           (u && u.getInput() == m.getLhs());
  }
  if (isa<EyeOp>(op))
    return true;
  if (auto s = dyn_cast<ScaleOp>(op))
    return s.getFactor().convertToDouble() >= 0 && isSemiDefinite(s.getInput());
  if (auto a = dyn_cast<AddOp>(op))
    return a.getLhs().getType() == a.getRhs().getType() &&
           isSemiDefinite(a.getLhs()) && isSemiDefinite(a.getRhs());
  return false;
}

std::optional<Triangle> cmm::triangleOf(Value v) {
  Operation *op = v.getDefiningOp();
  if (isa_and_nonnull<CholOp, TriuOp>(op))
    return Triangle::Upper;
  if (isa_and_nonnull<TrilOp>(op))
    return Triangle::Lower;
  if (auto t = dyn_cast_or_null<TransposeOp>(op))
    if (auto inner = triangleOf(t.getInput()))
      return *inner == Triangle::Upper ? Triangle::Lower : Triangle::Upper;
  return std::nullopt;
}
