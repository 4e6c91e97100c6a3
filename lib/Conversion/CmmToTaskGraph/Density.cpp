//===- Density.cpp - Expected nonzeros of matrix values ---------*- C++ -*-===//

#include "cmm/Conversion/CmmToTaskGraph/Density.h"

#include "cmm/Dialect/Cmm/CmmDialect.h"
#include "cmm/Dialect/Cmm/ElementFn.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"

#include <algorithm>

using namespace mlir;
using namespace cmm;
using namespace cmm::tiling;

namespace {

ElementEstimate dense() { return {}; }

ElementEstimate withDensity(double density) {
  ElementEstimate e;
  e.density = std::clamp(density, 0.0, 1.0);
  return e;
}

ElementEstimate constant(double value) {
  ElementEstimate e = withDensity(value != 0.0 ? 1.0 : 0.0);
  e.constant = value;
  return e;
}

/// A comparison of `a` with `b` that is true for x < c (`below`) or x > c
/// of a uniform x and a constant c: the share of [0, 1) where it holds.
std::optional<double> uniformShare(const ElementEstimate &a,
                                   const ElementEstimate &b, bool below) {
  if (a.uniformUnit && b.constant)
    return below ? *b.constant : 1.0 - *b.constant;
  if (b.uniformUnit && a.constant) // c < x is x > c
    return below ? 1.0 - *a.constant : *a.constant;
  return std::nullopt;
}

/// The estimate of fn(a[, b]) element by element: what the elementwise ops
/// (cmm::elementFnOf) and a fused body's steps share.
ElementEstimate apply(ElementFn fn, const ElementEstimate &a,
                      const ElementEstimate &b) {
  switch (fn) {
  case ElementFn::Lt:
  case ElementFn::Le:
    if (std::optional<double> share = uniformShare(a, b, /*below=*/true))
      return withDensity(*share);
    return dense();
  case ElementFn::Gt:
  case ElementFn::Ge:
    if (std::optional<double> share = uniformShare(a, b, /*below=*/false))
      return withDensity(*share);
    return dense();
  case ElementFn::Eq:
    // A uniform value equals a given one on a set of measure zero.
    return (a.uniformUnit && b.constant) || (b.uniformUnit && a.constant)
               ? withDensity(0.0)
               : dense();
  case ElementFn::Mul:
    return withDensity(std::min(a.density, b.density));
  case ElementFn::Div:
    return withDensity(a.density);
  case ElementFn::Add:
  case ElementFn::Sub:
    return withDensity(a.density + b.density);
  // f(0) = 0: zeros stay zeros.
  case ElementFn::Neg:
  case ElementFn::Abs:
  case ElementFn::Sqrt:
  case ElementFn::Sin:
  case ElementFn::Tanh:
    return withDensity(a.density);
  default:
    return dense();
  }
}

ElementEstimate ofConstant(ElementsAttr value) {
  auto values = value.tryGetValues<double>();
  if (!values)
    return dense();
  int64_t count = 0, nonzero = 0;
  std::optional<double> first;
  bool same = true;
  for (double v : *values) {
    ++count;
    nonzero += v != 0.0;
    if (!first)
      first = v;
    same &= v == *first;
  }
  if (count == 0)
    return dense();
  if (same)
    return constant(*first);
  return withDensity(double(nonzero) / double(count));
}

/// A fused op's body, step by step from its inputs' estimates.
ElementEstimate ofFused(FusedOp fused,
                        function_ref<ElementEstimate(Value)> of) {
  Block &body = fused.getBody().front();
  llvm::DenseMap<Value, ElementEstimate> known;
  for (auto [arg, input] : llvm::zip(body.getArguments(), fused.getInputs()))
    known[arg] = of(input);
  auto get = [&](Value v) {
    auto it = known.find(v);
    return it == known.end() ? dense() : it->second;
  };
  for (Operation &op : body) {
    if (auto c = dyn_cast<arith::ConstantOp>(op)) {
      if (auto f = dyn_cast<FloatAttr>(c.getValue()))
        known[c.getResult()] = constant(f.getValueAsDouble());
    } else if (auto step = dyn_cast<ScalarOp>(op)) {
      ValueRange args = step.getArgs();
      known[step.getResult()] = apply(step.getFn(), get(args[0]),
                                      args.size() > 1 ? get(args[1]) : dense());
    } else if (auto yield = dyn_cast<YieldOp>(op)) {
      return get(yield.getValue());
    }
  }
  return dense();
}

} // namespace

ElementEstimate
cmm::tiling::estimateResult(Operation *op,
                            function_ref<ElementEstimate(Value)> of) {
  // add, sub, mul, div, cmp, neg, map...: as the fused body's steps.
  if (std::optional<ElementFn> fn = elementFnOf(op))
    return apply(*fn, of(op->getOperand(0)),
                 op->getNumOperands() > 1 ? of(op->getOperand(1)) : dense());
  return llvm::TypeSwitch<Operation *, ElementEstimate>(op)
      .Case([](RandOp rand) {
        ElementEstimate e;
        e.uniformUnit = rand.getDistribution() == Distribution::Uniform;
        return e;
      })
      .Case([](FillOp fill) {
        return constant(fill.getValue().convertToDouble());
      })
      .Case([](ConstantOp c) { return ofConstant(c.getValue()); })
      .Case([](EyeOp eye) {
        auto type = cast<RankedTensorType>(eye.getType());
        double rows = double(type.getDimSize(0)),
               cols = double(type.getDimSize(1));
        return withDensity(std::min(rows, cols) / (rows * cols));
      })
      .Case([&](ScaleOp scale) {
        return scale.getFactor().convertToDouble() == 0.0
                   ? withDensity(0.0)
                   : withDensity(of(scale.getInput()).density);
      })
      .Case<TransposeOp, SliceOp, ReshapeOp>([&](Operation *same) {
        return withDensity(of(same->getOperand(0)).density);
      })
      .Case([&](FusedOp fused) { return ofFused(fused, of); })
      .Default([](Operation *) { return dense(); });
}
