//===- CmmCanonicalize.cpp - Static algebraic simplifications ---*- C++ -*-===//
//
// Size-independent rewrites of cmm, each a small pattern named for its rule
// with the algebra in a comment (as SystemDS's
// RewriteAlgebraicSimplificationStatic). They are the dialect's
// canonicalization patterns and the body of `cmm-algebraic-simplify`, which
// counts them.
//
// Note: like SystemDS, `A .* 0 -> 0` and `A * 0 -> 0` ignore NaN and Inf in A
// (and so does the dynamic rule X - Y.*X -> (1-Y).*X: Inf - 0.5*Inf is NaN,
// (1-0.5)*Inf is Inf).
//
//===----------------------------------------------------------------------===//

#include "cmm/Dialect/Cmm/CmmDialect.h"
#include "cmm/Dialect/Cmm/RulePattern.h"
#include "cmmrt/Kernels.h"

#include "mlir/IR/PatternMatch.h"

#include <cmath>

using namespace mlir;
using namespace cmm;

namespace {

RankedTensorType matrixTypeOf(Value v) {
  return cast<RankedTensorType>(v.getType());
}

bool isIdentity(Value v) { return v.getDefiningOp<EyeOp>() != nullptr; }
bool isZero(Value v) {
  auto s = getSplatValue(v);
  return s && *s == 0.0;
}
bool isTranspose(Value v) { return v.getDefiningOp<TransposeOp>() != nullptr; }

/// A fill of `type` with `value`.
Value makeFill(PatternRewriter &rewriter, Location loc, Type type,
               double value) {
  return FillOp::create(rewriter, loc, type, rewriter.getF64FloatAttr(value));
}

/// (A')' -> A
struct TransposeTranspose : RulePattern<TransposeOp> {
  using RulePattern::RulePattern;
  LogicalResult rewrite(TransposeOp op, PatternRewriter &r) const override {
    auto inner = op.getInput().getDefiningOp<TransposeOp>();
    if (!inner)
      return failure();
    r.replaceOp(op, inner.getInput());
    return success();
  }
};

/// A*I -> A, I*A -> A
struct MatmulIdentity : RulePattern<MatmulOp> {
  using RulePattern::RulePattern;
  LogicalResult rewrite(MatmulOp op, PatternRewriter &r) const override {
    if (isIdentity(op.getRhs()))
      r.replaceOp(op, op.getLhs());
    else if (isIdentity(op.getLhs()))
      r.replaceOp(op, op.getRhs());
    else
      return failure();
    return success();
  }
};

/// A + 0 -> A, 0 + A -> A, A - 0 -> A (when no broadcast widens A)
template <typename OpTy>
struct AddZero : RulePattern<OpTy> {
  using RulePattern<OpTy>::RulePattern;
  LogicalResult rewrite(OpTy op, PatternRewriter &r) const override {
    Type type = op.getType();
    if (isZero(op.getRhs()) && op.getLhs().getType() == type) {
      r.replaceOp(op, op.getLhs());
      return success();
    }
    if (std::is_same<OpTy, AddOp>::value && isZero(op.getLhs()) &&
        op.getRhs().getType() == type) {
      r.replaceOp(op, op.getRhs());
      return success();
    }
    return failure();
  }
};

/// A .* 0 -> 0, A * 0 -> 0, 0 * A -> 0
template <typename OpTy>
struct MulZero : RulePattern<OpTy> {
  using RulePattern<OpTy>::RulePattern;
  LogicalResult rewrite(OpTy op, PatternRewriter &r) const override {
    if (!isZero(op.getLhs()) && !isZero(op.getRhs()))
      return failure();
    r.replaceOp(op, makeFill(r, op.getLoc(), op.getType(), 0.0));
    return success();
  }
};

/// Whether s * t can stand for two scalings by s and t: a product that
/// overflows to Inf or underflows to 0 (or a subnormal) would change every
/// finite element (1e200 * (1e200 * A) is finite for A near 1e-300), and a
/// zero or non-finite factor changes which elements become NaN.
static bool foldableFactors(double s, double t) {
  return std::isnormal(s) && std::isnormal(t) && std::isnormal(s * t);
}

/// s*(t*A) -> (s*t)*A
struct ScaleScale : RulePattern<ScaleOp> {
  using RulePattern::RulePattern;
  LogicalResult rewrite(ScaleOp op, PatternRewriter &r) const override {
    auto inner = op.getInput().getDefiningOp<ScaleOp>();
    if (!inner)
      return failure();
    double outer = op.getFactor().convertToDouble(),
           innerFactor = inner.getFactor().convertToDouble();
    if (!foldableFactors(outer, innerFactor))
      return failure();
    double s = outer * innerFactor;
    r.replaceOpWithNewOp<ScaleOp>(op, inner.getInput(), r.getF64FloatAttr(s));
    return success();
  }
};

/// 1*A -> A
struct ScaleOne : RulePattern<ScaleOp> {
  using RulePattern::RulePattern;
  LogicalResult rewrite(ScaleOp op, PatternRewriter &r) const override {
    if (op.getFactor().convertToDouble() != 1.0)
      return failure();
    r.replaceOp(op, op.getInput());
    return success();
  }
};

/// (s*A)*B -> s*(A*B), A*(s*B) -> s*(A*B), only where the product is no
/// larger than the scaled operand, so the scaling never costs more. (Chain
/// ordering looks through scalings anyway and places them itself; an
/// unconditional rule would undo that.)
struct MatmulScale : RulePattern<MatmulOp> {
  using RulePattern::RulePattern;
  static double elements(Value v) {
    auto t = matrixTypeOf(v);
    return double(t.getDimSize(0)) * double(t.getDimSize(1));
  }
  LogicalResult rewrite(MatmulOp op, PatternRewriter &r) const override {
    Value lhs = op.getLhs(), rhs = op.getRhs();
    double s = 1.0, scaledElements = 0;
    bool changed = false;
    for (Value *side : {&lhs, &rhs})
      if (auto scale = side->getDefiningOp<ScaleOp>();
          scale && scale->hasOneUse()) {
        double factor = scale.getFactor().convertToDouble();
        if (!foldableFactors(s, factor))
          return failure();
        s *= factor;
        scaledElements += elements(*side);
        *side = scale.getInput();
        changed = true;
      }
    if (changed && elements(op) > scaledElements)
      return failure();
    if (!changed)
      return failure();
    Value product = MatmulOp::create(r, op.getLoc(), op.getType(), lhs, rhs);
    r.replaceOpWithNewOp<ScaleOp>(op, product, r.getF64FloatAttr(s));
    return success();
  }
};

/// -(-A) -> A
struct NegNeg : RulePattern<NegOp> {
  using RulePattern::RulePattern;
  LogicalResult rewrite(NegOp op, PatternRewriter &r) const override {
    auto inner = op.getInput().getDefiningOp<NegOp>();
    if (!inner)
      return failure();
    r.replaceOp(op, inner.getInput());
    return success();
  }
};

/// A^0 -> I, A^1 -> A
struct PowZeroOne : RulePattern<PowOp> {
  using RulePattern::RulePattern;
  LogicalResult rewrite(PowOp op, PatternRewriter &r) const override {
    if (op.getExponent() == 1)
      r.replaceOp(op, op.getInput());
    else if (op.getExponent() == 0)
      r.replaceOpWithNewOp<EyeOp>(op, op.getType());
    else
      return failure();
    return success();
  }
};

/// Value of `v'` without a new transpose, if there is one: the input of a
/// transpose, a 1x1 value, or a fill/eye of the swapped shape.
Value freeTranspose(PatternRewriter &r, Location loc, Value v) {
  if (auto t = v.getDefiningOp<TransposeOp>())
    return t.getInput();
  auto type = matrixTypeOf(v);
  if (type.getDimSize(0) == 1 && type.getDimSize(1) == 1)
    return v;
  auto swapped =
      getMatrixType(r.getContext(), type.getDimSize(1), type.getDimSize(0));
  if (auto fill = v.getDefiningOp<FillOp>())
    return FillOp::create(r, loc, swapped, fill.getValueAttr());
  if (v.getDefiningOp<EyeOp>())
    return v;
  return {};
}

Value transposeOf(PatternRewriter &r, Location loc, Value v) {
  if (Value free = freeTranspose(r, loc, v))
    return free;
  auto type = matrixTypeOf(v);
  return TransposeOp::create(
      r, loc,
      getMatrixType(r.getContext(), type.getDimSize(1), type.getDimSize(0)),
      v);
}

/// (A*B)' -> B'*A', only where it leaves fewer transposes: (A'*B)' -> B'*A,
/// (A'*B')' -> B*A.
struct TransposeMatmul : RulePattern<TransposeOp> {
  using RulePattern::RulePattern;
  LogicalResult rewrite(TransposeOp op, PatternRewriter &r) const override {
    auto product = op.getInput().getDefiningOp<MatmulOp>();
    if (!product || !product->hasOneUse())
      return failure();
    Value a = product.getLhs(), b = product.getRhs();
    int before = 1 + isTranspose(a) + isTranspose(b);
    int after = !isTranspose(a) + !isTranspose(b);
    if (after >= before)
      return failure();
    Value bt = transposeOf(r, op.getLoc(), b);
    Value at = transposeOf(r, op.getLoc(), a);
    r.replaceOpWithNewOp<MatmulOp>(op, op.getType(), bt, at);
    return success();
  }
};

/// The values already in the IR that equal `v'`: the input of `v` when `v`
/// is a transpose, and every transpose of `v`.
SmallVector<Value, 2> existingTransposes(Value v) {
  SmallVector<Value, 2> found;
  if (auto t = v.getDefiningOp<TransposeOp>())
    found.push_back(t.getInput());
  for (Operation *user : v.getUsers())
    if (auto t = dyn_cast<TransposeOp>(user))
      found.push_back(t.getResult());
  return found;
}

/// A*B -> (B'*A')' when the product B'*A' is computed earlier in the same
/// block: one product and a transpose instead of two products (synth's
/// `A*B + B'*A'` is `X + X'`). Only reads values that exist, so it creates
/// no transpose it does not need; the earlier product dominates this one.
struct TransposedProductTwin : RulePattern<MatmulOp> {
  using RulePattern::RulePattern;
  LogicalResult rewrite(MatmulOp op, PatternRewriter &r) const override {
    for (Value lhs : existingTransposes(op.getRhs()))
      for (Value rhs : existingTransposes(op.getLhs()))
        for (Operation *user : lhs.getUsers()) {
          auto twin = dyn_cast<MatmulOp>(user);
          // A twin without uses is on its way out (transpose-matmul just
          // replaced its user): reviving it would undo that rule forever.
          if (!twin || twin == op || twin->use_empty() ||
              twin.getLhs() != lhs || twin.getRhs() != rhs ||
              twin->getBlock() != op->getBlock() || !twin->isBeforeInBlock(op))
            continue;
          r.replaceOpWithNewOp<TransposeOp>(op, op.getType(), twin);
          return success();
        }
    return failure();
  }
};

/// The `rows` x `cols` block of `v` at (row, col): `v` itself when that is
/// all of it.
Value blockOf(PatternRewriter &r, Location loc, Value v, int64_t row,
              int64_t col, int64_t rows, int64_t cols) {
  auto type = matrixTypeOf(v);
  if (row == 0 && col == 0 && rows == type.getDimSize(0) &&
      cols == type.getDimSize(1))
    return v;
  return SliceOp::create(r, loc, getMatrixType(r.getContext(), rows, cols), v,
                         r.getI64IntegerAttr(row), r.getI64IntegerAttr(col));
}

/// A block of a product computes only the rows and columns it needs:
/// (A*B)[r, c] -> A[r, :] * B[:, c], when nothing else reads the product.
struct SliceMatmul : RulePattern<SliceOp> {
  using RulePattern::RulePattern;
  LogicalResult rewrite(SliceOp op, PatternRewriter &r) const override {
    auto product = op.getInput().getDefiningOp<MatmulOp>();
    if (!product || !product->hasOneUse())
      return failure();
    int64_t rows = op.getType().getDimSize(0),
            cols = op.getType().getDimSize(1);
    int64_t inner = matrixTypeOf(product.getLhs()).getDimSize(1);
    Location loc = op.getLoc();
    Value lhs = blockOf(r, loc, product.getLhs(), op.getRow(), 0, rows, inner);
    Value rhs = blockOf(r, loc, product.getRhs(), 0, op.getCol(), inner, cols);
    r.replaceOpWithNewOp<MatmulOp>(op, op.getType(), lhs, rhs);
    return success();
  }
};

/// A block of a transpose is the transpose of a block: (A')[r, c] ->
/// (A[c, r])', a smaller transpose, when nothing else reads A'.
struct SliceTranspose : RulePattern<SliceOp> {
  using RulePattern::RulePattern;
  LogicalResult rewrite(SliceOp op, PatternRewriter &r) const override {
    auto transpose = op.getInput().getDefiningOp<TransposeOp>();
    if (!transpose || !transpose->hasOneUse())
      return failure();
    int64_t rows = op.getType().getDimSize(0),
            cols = op.getType().getDimSize(1);
    Value block = blockOf(r, op.getLoc(), transpose.getInput(), op.getCol(),
                          op.getRow(), cols, rows);
    r.replaceOpWithNewOp<TransposeOp>(op, op.getType(), block);
    return success();
  }
};

/// Transposes move toward the leaves, where they cancel or vanish:
///   (s*A)' -> s*A',  (-A)' -> -(A'),  f(A)' -> f(A'),
///   (A .op B)' -> A' .op B' when at most one operand needs a transpose.
struct TransposePush : RulePattern<TransposeOp> {
  using RulePattern::RulePattern;
  LogicalResult rewrite(TransposeOp op, PatternRewriter &r) const override {
    Operation *def = op.getInput().getDefiningOp();
    if (!def || !def->hasOneUse())
      return failure();
    Location loc = op.getLoc();
    Type type = op.getType();
    if (auto scale = dyn_cast<ScaleOp>(def)) {
      Value t = transposeOf(r, loc, scale.getInput());
      r.replaceOpWithNewOp<ScaleOp>(op, t, scale.getFactorAttr());
      return success();
    }
    if (auto neg = dyn_cast<NegOp>(def)) {
      r.replaceOpWithNewOp<NegOp>(op, transposeOf(r, loc, neg.getInput()));
      return success();
    }
    if (auto map = dyn_cast<MapOp>(def)) {
      r.replaceOpWithNewOp<MapOp>(op, map.getFn(),
                                  transposeOf(r, loc, map.getInput()));
      return success();
    }
    if (!isa<AddOp, SubOp, MulOp, DivOp, EPowOp, MaxOp, MinOp, ModOp, CmpOp>(
            def))
      return failure();
    Value lhs = def->getOperand(0), rhs = def->getOperand(1);
    // Decide before creating anything: a pattern that fails must not change
    // the IR.
    auto needsTranspose = [](Value v) {
      if (v.getDefiningOp<TransposeOp>() || v.getDefiningOp<FillOp>() ||
          v.getDefiningOp<EyeOp>())
        return false;
      auto t = matrixTypeOf(v);
      return !(t.getDimSize(0) == 1 && t.getDimSize(1) == 1);
    };
    if (needsTranspose(lhs) && needsTranspose(rhs))
      return failure();
    Value lt = transposeOf(r, loc, lhs), rt = transposeOf(r, loc, rhs);
    OperationState state(loc, def->getName());
    state.addOperands({lt, rt});
    state.addTypes(type);
    state.addAttributes(def->getAttrs());
    Operation *pushed = r.create(state);
    r.replaceOp(op, pushed->getResults());
    return success();
  }
};

/// Constant folding of fills: fill a .op fill b, s * fill a, -(fill a) and
/// (fill a)' are fills.
template <typename OpTy>
struct FoldFillBinary : RulePattern<OpTy> {
  FoldFillBinary(MLIRContext *ctx, StringRef rule, RuleCounts *counts,
                 cmmrt::BinaryFn fn)
      : RulePattern<OpTy>(ctx, rule, counts), fn(fn) {}
  LogicalResult rewrite(OpTy op, PatternRewriter &r) const override {
    auto a = getSplatValue(op->getOperand(0));
    auto b = getSplatValue(op->getOperand(1));
    if (!a || !b)
      return failure();
    r.replaceOp(op, makeFill(r, op.getLoc(), op.getType(),
                             cmmrt::applyBinary(fn, *a, *b)));
    return success();
  }
  cmmrt::BinaryFn fn;
};

struct FoldFillScale : RulePattern<ScaleOp> {
  using RulePattern::RulePattern;
  LogicalResult rewrite(ScaleOp op, PatternRewriter &r) const override {
    auto a = getSplatValue(op.getInput());
    if (!a)
      return failure();
    r.replaceOp(op, makeFill(r, op.getLoc(), op.getType(),
                             *a * op.getFactor().convertToDouble()));
    return success();
  }
};

struct FoldFillNeg : RulePattern<NegOp> {
  using RulePattern::RulePattern;
  LogicalResult rewrite(NegOp op, PatternRewriter &r) const override {
    auto a = getSplatValue(op.getInput());
    if (!a)
      return failure();
    r.replaceOp(op, makeFill(r, op.getLoc(), op.getType(), -*a));
    return success();
  }
};

struct FoldFillTranspose : RulePattern<TransposeOp> {
  using RulePattern::RulePattern;
  LogicalResult rewrite(TransposeOp op, PatternRewriter &r) const override {
    auto a = getSplatValue(op.getInput());
    if (!a)
      return failure();
    r.replaceOp(op, makeFill(r, op.getLoc(), op.getType(), *a));
    return success();
  }
};

} // namespace

std::optional<double> cmm::getSplatValue(Value v) {
  if (auto fill = v.getDefiningOp<FillOp>())
    return fill.getValue().convertToDouble();
  if (auto constant = v.getDefiningOp<ConstantOp>())
    if (constant.getValue().isSplat())
      return constant.getValue().getSplatValue<double>();
  return std::nullopt;
}

void cmm::populateAlgebraicSimplifyPatterns(RewritePatternSet &patterns,
                                            RuleCounts *counts) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<TransposeTranspose>(ctx, "transpose-transpose", counts);
  patterns.add<MatmulIdentity>(ctx, "matmul-identity", counts);
  patterns.add<AddZero<AddOp>, AddZero<SubOp>>(ctx, "add-zero", counts);
  patterns.add<MulZero<MulOp>, MulZero<MatmulOp>>(ctx, "mul-zero", counts);
  patterns.add<ScaleScale>(ctx, "scale-scale", counts);
  patterns.add<ScaleOne>(ctx, "scale-one", counts);
  patterns.add<MatmulScale>(ctx, "matmul-scale", counts);
  patterns.add<NegNeg>(ctx, "neg-neg", counts);
  patterns.add<PowZeroOne>(ctx, "pow-zero-one", counts);
  patterns.add<TransposeMatmul>(ctx, "transpose-matmul", counts);
  patterns.add<TransposedProductTwin>(ctx, "transposed-product-twin", counts);
  patterns.add<TransposePush>(ctx, "transpose-push", counts);
  patterns.add<SliceMatmul>(ctx, "slice-matmul", counts);
  patterns.add<SliceTranspose>(ctx, "slice-transpose", counts);
  patterns.add<FoldFillScale>(ctx, "fold-fill", counts);
  patterns.add<FoldFillNeg>(ctx, "fold-fill", counts);
  patterns.add<FoldFillTranspose>(ctx, "fold-fill", counts);
  patterns.add<FoldFillBinary<AddOp>>(ctx, "fold-fill", counts,
                                      cmmrt::BinaryFn::Add);
  patterns.add<FoldFillBinary<SubOp>>(ctx, "fold-fill", counts,
                                      cmmrt::BinaryFn::Sub);
  patterns.add<FoldFillBinary<MulOp>>(ctx, "fold-fill", counts,
                                      cmmrt::BinaryFn::Mul);
  patterns.add<FoldFillBinary<DivOp>>(ctx, "fold-fill", counts,
                                      cmmrt::BinaryFn::Div);
}

void CmmDialect::getCanonicalizationPatterns(RewritePatternSet &results) const {
  populateAlgebraicSimplifyPatterns(results);
}
