//===- FoldTransposes.cpp - Transposed operands read in place ---*- C++ -*-===//
//
// A product whose operand is a transpose reads the transpose's input with
// BLAS's transpose flag instead (cmm.gemm), as NumPy hands `A.T @ B` to
// dgemm without copying: the transpose costs a pass over memory and a
// fresh buffer, the flag costs nothing.
//
//===----------------------------------------------------------------------===//

#include "cmm/Dialect/Cmm/CmmDialect.h"
#include "cmm/Transforms/Passes.h"

#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace cmm {
#define GEN_PASS_DEF_FOLDTRANSPOSES
#include "cmm/Transforms/Passes.h.inc"
} // namespace cmm

using namespace mlir;
using namespace cmm;

namespace {

/// The value `v` transposes, if it is a cmm.transpose.
Value transposed(Value v) {
  auto t = v.getDefiningOp<TransposeOp>();
  return t ? t.getInput() : Value();
}

/// A' * B -> gemm(A transposed, B), and the same for B' and both.
struct FoldIntoMatmul : OpRewritePattern<MatmulOp> {
  FoldIntoMatmul(MLIRContext *ctx, RuleCounts &counts)
      : OpRewritePattern<MatmulOp>(ctx), counts(counts) {}
  LogicalResult matchAndRewrite(MatmulOp op,
                                PatternRewriter &r) const override {
    Value a = transposed(op.getLhs()), b = transposed(op.getRhs());
    if (!a && !b)
      return failure();
    Value lhs = a ? a : op.getLhs(), rhs = b ? b : op.getRhs();
    auto gemm = r.replaceOpWithNewOp<GemmOp>(op, op.getType(), lhs, bool(a),
                                             rhs, bool(b));
    ++counts["fold-transpose"];
    if (gemm.isSymmetric())
      ++counts["symmetric-product"];
    return success();
  }
  RuleCounts &counts;
};

struct FoldTransposesPass
    : public cmm::impl::FoldTransposesBase<FoldTransposesPass> {
  void runOnOperation() override {
    RuleCounts counts;
    RewritePatternSet patterns(&getContext());
    patterns.add<FoldIntoMatmul>(&getContext(), counts);
    GreedyRewriteConfig config;
    config.enableFolding(false);
    if (failed(
            applyPatternsGreedily(getOperation(), std::move(patterns), config)))
      return signalPassFailure();
    recordRewrites(*this, getOperation(), counts);
  }
};

} // namespace
