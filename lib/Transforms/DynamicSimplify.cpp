//===- DynamicSimplify.cpp - Size-dependent simplifications -----*- C++ -*-===//
//
// SystemDS's dynamic rewrites (RewriteAlgebraicSimplificationDynamic), each
// applied only when the flop model says it is cheaper, and only to
// intermediates with no other user (nothing is recomputed).
//
//===----------------------------------------------------------------------===//

#include "cmm/Transforms/FlopCount.h"
#include "cmm/Transforms/Passes.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace cmm {
#define GEN_PASS_DEF_DYNAMICSIMPLIFY
#include "cmm/Transforms/Passes.h.inc"
} // namespace cmm

using namespace mlir;
using namespace cmm;

namespace {

double elements(Value v) {
  auto t = cast<RankedTensorType>(v.getType());
  return static_cast<double>(t.getDimSize(0)) * t.getDimSize(1);
}

template <typename OpTy>
struct CountedPattern : public OpRewritePattern<OpTy> {
  CountedPattern(MLIRContext *ctx, RuleCounts &counts, StringRef rule)
      : OpRewritePattern<OpTy>(ctx), counts(counts), rule(rule) {}
  void count() const { ++counts[rule]; }
  RuleCounts &counts;
  StringRef rule;
};

/// A*B + A*C -> A*(B+C) and B*A + C*A -> (B+C)*A (also with -):
/// 2 products and a sum of the results become one sum and one product.
template <typename OpTy>
struct DistributiveMatmul : CountedPattern<OpTy> {
  using CountedPattern<OpTy>::CountedPattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &r) const override {
    auto lhs = op.getLhs().template getDefiningOp<MatmulOp>();
    auto rhs = op.getRhs().template getDefiningOp<MatmulOp>();
    // (Products from outside a cmm.while body stay there: one product
    // inside would run at every iteration.)
    if (!lhs || !rhs || lhs == rhs || !lhs->hasOneUse() || !rhs->hasOneUse() ||
        lhs->getBlock() != op->getBlock() ||
        rhs->getBlock() != op->getBlock() || lhs.getType() != op.getType() ||
        rhs.getType() != op.getType())
      return failure();
    Value common, b, c;
    bool left; // the common factor is on the left
    if (lhs.getLhs() == rhs.getLhs() &&
        lhs.getRhs().getType() == rhs.getRhs().getType()) {
      common = lhs.getLhs(), b = lhs.getRhs(), c = rhs.getRhs(), left = true;
    } else if (lhs.getRhs() == rhs.getRhs() &&
               lhs.getLhs().getType() == rhs.getLhs().getType()) {
      common = lhs.getRhs(), b = lhs.getLhs(), c = rhs.getLhs(), left = false;
    } else {
      return failure();
    }
    // Decide before creating anything: a failing pattern leaves the IR as is.
    double before = flopsOf(lhs) + flopsOf(rhs) + elements(op);
    auto resultType = cast<RankedTensorType>(op.getType());
    auto commonType = cast<RankedTensorType>(common.getType());
    double after = elements(b) + 2.0 * resultType.getDimSize(0) *
                                     resultType.getDimSize(1) *
                                     (left ? commonType.getDimSize(1)
                                           : commonType.getDimSize(0));
    if (after >= before)
      return failure();
    Value sum = OpTy::create(r, op.getLoc(), b.getType(), b, c);
    Value product =
        left ? MatmulOp::create(r, op.getLoc(), op.getType(), common, sum)
             : MatmulOp::create(r, op.getLoc(), op.getType(), sum, common);
    r.replaceOp(op, product);
    this->count();
    return success();
  }
};

/// X - Y.*X -> (1-Y).*X, cheaper when Y is broadcast (smaller than X).
struct DistributiveBinary : CountedPattern<SubOp> {
  using CountedPattern::CountedPattern;
  LogicalResult matchAndRewrite(SubOp op, PatternRewriter &r) const override {
    Value x = op.getLhs();
    auto mul = op.getRhs().getDefiningOp<MulOp>();
    if (!mul || !mul->hasOneUse() || mul->getBlock() != op->getBlock() ||
        x.getType() != op.getType() || mul.getType() != op.getType())
      return failure();
    Value y;
    if (mul.getRhs() == x)
      y = mul.getLhs();
    else if (mul.getLhs() == x)
      y = mul.getRhs();
    else
      return failure();
    // Before: |Y.*X| + |X|; after: |Y| + |X|.
    if (!(elements(y) < elements(mul)))
      return failure();
    auto oneType = getMatrixType(r.getContext(), 1, 1);
    Value one = ConstantOp::create(
        r, op.getLoc(), DenseElementsAttr::get(oneType, ArrayRef<double>(1.0)));
    Value oneMinusY = SubOp::create(r, op.getLoc(), y.getType(), one, y);
    r.replaceOpWithNewOp<MulOp>(op, op.getType(), oneMinusY, x);
    count();
    return success();
  }
};

/// A product with a 1x1 operand is a scaling: 2mn -> mn flops.
struct ScalarMatmul : CountedPattern<MatmulOp> {
  using CountedPattern::CountedPattern;
  LogicalResult matchAndRewrite(MatmulOp op,
                                PatternRewriter &r) const override {
    auto isScalar = [](Value v) {
      auto t = cast<RankedTensorType>(v.getType());
      return t.getDimSize(0) == 1 && t.getDimSize(1) == 1;
    };
    if (!isScalar(op.getLhs()) && !isScalar(op.getRhs()))
      return failure();
    r.replaceOpWithNewOp<MulOp>(op, op.getType(), op.getLhs(), op.getRhs());
    count();
    return success();
  }
};

/// sum(A*B) -> sum(sum(A,1)' .* sum(B,2)): 2mkn + mn -> mk + kn + 2k flops.
struct SumMatmul : CountedPattern<ReduceOp> {
  using CountedPattern::CountedPattern;
  LogicalResult matchAndRewrite(ReduceOp op,
                                PatternRewriter &r) const override {
    auto product = op.getInput().getDefiningOp<MatmulOp>();
    if (op.getKind() != ReduceKind::Sum || op.getDim() || !product ||
        !product->hasOneUse() || product->getBlock() != op->getBlock())
      return failure();
    Value a = product.getLhs(), b = product.getRhs();
    auto at = cast<RankedTensorType>(a.getType());
    auto bt = cast<RankedTensorType>(b.getType());
    int64_t m = at.getDimSize(0), k = at.getDimSize(1), n = bt.getDimSize(1);
    double before = matmulFlops(m, k, n) + double(m) * n;
    double after = double(m) * k + double(k) * n + 2.0 * k;
    if (!(after < before))
      return failure();
    MLIRContext *ctx = r.getContext();
    Location loc = op.getLoc();
    Value colSums = ReduceOp::create(r, loc, getMatrixType(ctx, 1, k),
                                     ReduceKind::Sum, a, r.getI64IntegerAttr(1));
    Value colSumsT =
        TransposeOp::create(r, loc, getMatrixType(ctx, k, 1), colSums);
    Value rowSums = ReduceOp::create(r, loc, getMatrixType(ctx, k, 1),
                                     ReduceKind::Sum, b, r.getI64IntegerAttr(2));
    Value dot =
        MulOp::create(r, loc, getMatrixType(ctx, k, 1), colSumsT, rowSums);
    r.replaceOpWithNewOp<ReduceOp>(op, op.getType(), ReduceKind::Sum, dot,
                                   IntegerAttr());
    count();
    return success();
  }
};

struct DynamicSimplifyPass
    : public cmm::impl::DynamicSimplifyBase<DynamicSimplifyPass> {
  void runOnOperation() override {
    RuleCounts counts;
    MLIRContext *ctx = &getContext();
    RewritePatternSet patterns(ctx);
    patterns.add<DistributiveMatmul<AddOp>, DistributiveMatmul<SubOp>>(
        ctx, counts, "distributive-matmul");
    patterns.add<DistributiveBinary>(ctx, counts, "distributive-binary");
    patterns.add<ScalarMatmul>(ctx, counts, "scalar-matmul");
    patterns.add<SumMatmul>(ctx, counts, "sum-matmul");
    GreedyRewriteConfig config;
    config.enableFolding(false);
    (void)applyPatternsGreedily(getOperation(), std::move(patterns), config);
    recordRewrites(*this, getOperation(), counts);
  }
};
} // namespace
