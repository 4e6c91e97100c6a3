//===- Density.cpp - Expected nonzeros of matrix values ---------*- C++ -*-===//

#include "cmm/Conversion/CmmToTaskGraph/Density.h"

#include "cmm/Dialect/Cmm/CmmDialect.h"
#include "cmm/Dialect/Cmm/ElementFn.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"

#include <algorithm>
#include <cmath>

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

/// Values in [0, max]; integers (never -0) when `integral`.
void setRange(ElementEstimate &e, std::optional<double> max, bool integral) {
  e.nonNegativeMax = max;
  e.integral = max && integral;
}

bool isInteger(double v) { return std::isfinite(v) && v == std::floor(v); }

ElementEstimate constant(double value) {
  ElementEstimate e = withDensity(value != 0.0 ? 1.0 : 0.0);
  e.constant = value;
  if (value >= 0 && !std::signbit(value) && std::isfinite(value))
    setRange(e, value, isInteger(value));
  return e;
}

/// The range of fn(a[, b]) (ElementEstimate::nonNegativeMax, integral).
void applyRange(ElementFn fn, const ElementEstimate &a,
                const ElementEstimate &b, ElementEstimate &out) {
  const bool both = a.nonNegativeMax && b.nonNegativeMax;
  const bool integers = a.integral && b.integral;
  switch (fn) {
  case ElementFn::Lt:
  case ElementFn::Le:
  case ElementFn::Gt:
  case ElementFn::Ge:
  case ElementFn::Eq:
    setRange(out, 1.0, true);
    return;
  case ElementFn::Add:
    if (both)
      setRange(out, *a.nonNegativeMax + *b.nonNegativeMax, integers);
    return;
  case ElementFn::Mul:
    if (both)
      setRange(out, *a.nonNegativeMax * *b.nonNegativeMax, integers);
    return;
  case ElementFn::Max:
    if (both)
      setRange(out, std::max(*a.nonNegativeMax, *b.nonNegativeMax), integers);
    return;
  case ElementFn::Min:
    if (both)
      setRange(out, std::min(*a.nonNegativeMax, *b.nonNegativeMax), integers);
    return;
  case ElementFn::Div:
    if (a.nonNegativeMax && b.constant && *b.constant > 0)
      setRange(out, *a.nonNegativeMax / *b.constant, false);
    return;
  case ElementFn::Mod:
    // mod(x, c) of x >= 0 is fmod: in [0, c), an integer for integers.
    if (a.nonNegativeMax && b.constant && *b.constant > 0) {
      bool whole = a.integral && isInteger(*b.constant);
      setRange(
          out,
          std::min(*a.nonNegativeMax, whole ? *b.constant - 1 : *b.constant),
          whole);
    }
    return;
  case ElementFn::Floor:
    if (a.nonNegativeMax)
      setRange(out, std::floor(*a.nonNegativeMax), true);
    return;
  case ElementFn::Round:
    if (a.nonNegativeMax)
      setRange(out, std::round(*a.nonNegativeMax), true);
    return;
  case ElementFn::Abs:
    if (a.nonNegativeMax)
      setRange(out, a.nonNegativeMax, a.integral);
    return;
  case ElementFn::Sqrt:
    if (a.nonNegativeMax)
      setRange(out, std::sqrt(*a.nonNegativeMax), false);
    return;
  default:
    return;
  }
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

/// The share of nonzeros of fn(a[, b]).
ElementEstimate applyDensity(ElementFn fn, const ElementEstimate &a,
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
  // max(x, y) and min(x, y) are 0 where both are (PageRank's
  // max(A, eye(n)) of a 1 % adjacency matrix).
  case ElementFn::Max:
  case ElementFn::Min:
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

/// The estimate of fn(a[, b]) element by element: what the elementwise ops
/// (cmm::elementFnOf) and a fused body's steps share.
ElementEstimate apply(ElementFn fn, const ElementEstimate &a,
                      const ElementEstimate &b) {
  ElementEstimate e = applyDensity(fn, a, b);
  applyRange(fn, a, b, e);
  return e;
}

/// The estimate of a product of `a` and `b` with inner dimension `depth`:
/// dense, and a bound of non-negative integers (exact in double below 2^53).
ElementEstimate product(const ElementEstimate &a, const ElementEstimate &b,
                        int64_t depth) {
  ElementEstimate e;
  if (a.integerMax() && b.integerMax()) {
    double bound = double(depth) * *a.integerMax() * *b.integerMax();
    if (bound < 9007199254740992.0) // 2^53
      setRange(e, bound, true);
  }
  return e;
}

ElementEstimate ofConstant(ElementsAttr value) {
  auto values = value.tryGetValues<double>();
  if (!values)
    return dense();
  int64_t count = 0, nonzero = 0;
  std::optional<double> first;
  bool same = true, nonNegative = true, integers = true;
  double max = 0;
  for (double v : *values) {
    ++count;
    nonzero += v != 0.0;
    if (!first)
      first = v;
    same &= v == *first;
    nonNegative &= v >= 0 && !std::signbit(v);
    integers &= isInteger(v);
    max = std::max(max, v);
  }
  if (count == 0)
    return dense();
  if (same)
    return constant(*first);
  ElementEstimate e = withDensity(double(nonzero) / double(count));
  if (nonNegative && std::isfinite(max))
    setRange(e, max, integers);
  return e;
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
        if (e.uniformUnit)
          setRange(e, 1.0, false);
        return e;
      })
      .Case([](RangeOp range) {
        ElementEstimate e;
        if (int64_t(range.getStart()) >= 0) // I64Attr reads as uint64_t
          setRange(e, double(range.getStop()), true);
        return e;
      })
      .Case([&](MatmulOp mul) {
        auto lhs = cast<RankedTensorType>(mul.getLhs().getType());
        return product(of(mul.getLhs()), of(mul.getRhs()), lhs.getDimSize(1));
      })
      .Case([&](GemmOp gemm) {
        return product(of(gemm.getLhs()), of(gemm.getRhs()),
                       gemm.getReadShape(/*lhs=*/true).second);
      })
      .Case([](FillOp fill) {
        return constant(fill.getValue().convertToDouble());
      })
      .Case([](ConstantOp c) { return ofConstant(c.getValue()); })
      .Case([](EyeOp eye) {
        auto type = cast<RankedTensorType>(eye.getType());
        double rows = double(type.getDimSize(0)),
               cols = double(type.getDimSize(1));
        ElementEstimate e = withDensity(std::min(rows, cols) / (rows * cols));
        setRange(e, 1.0, true);
        return e;
      })
      .Case([&](ScaleOp scale) {
        double factor = scale.getFactor().convertToDouble();
        ElementEstimate in = of(scale.getInput());
        ElementEstimate e = withDensity(factor == 0.0 ? 0.0 : in.density);
        if (in.nonNegativeMax && factor >= 0 && !std::signbit(factor))
          setRange(e, *in.nonNegativeMax * factor,
                   in.integral && isInteger(factor));
        return e;
      })
      .Case<TransposeOp, SliceOp, ReshapeOp>([&](Operation *same) {
        ElementEstimate in = of(same->getOperand(0));
        ElementEstimate e = withDensity(in.density);
        setRange(e, in.nonNegativeMax, in.integral);
        return e;
      })
      .Case([&](FusedOp fused) { return ofFused(fused, of); })
      .Default([](Operation *) { return dense(); });
}
