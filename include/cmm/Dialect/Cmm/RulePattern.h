//===- RulePattern.h - A rewrite pattern that counts its rule ---*- C++ -*-===//
//
// The rewrites of the dialect's simplifications and of the transform passes
// each have a rule name; the pattern counts its applications for the flop
// report and the pass statistics (Transforms/Passes.h, recordRewrites).
//
//===----------------------------------------------------------------------===//

#ifndef CMM_DIALECT_CMM_RULEPATTERN_H
#define CMM_DIALECT_CMM_RULEPATTERN_H

#include "cmm/Dialect/Cmm/CmmDialect.h"

#include "mlir/IR/PatternMatch.h"

namespace cmm {

/// A pattern that knows its rule name and counts its applications.
template <typename OpTy>
struct RulePattern : public mlir::OpRewritePattern<OpTy> {
  RulePattern(mlir::MLIRContext *ctx, llvm::StringRef rule, RuleCounts *counts)
      : mlir::OpRewritePattern<OpTy>(ctx), rule(rule), counts(counts) {}

  llvm::LogicalResult
  matchAndRewrite(OpTy op, mlir::PatternRewriter &rewriter) const final {
    if (failed(rewrite(op, rewriter)))
      return llvm::failure();
    if (counts)
      ++(*counts)[rule];
    return llvm::success();
  }
  virtual llvm::LogicalResult
  rewrite(OpTy op, mlir::PatternRewriter &rewriter) const = 0;

  llvm::StringRef rule;
  RuleCounts *counts;
};

} // namespace cmm

#endif // CMM_DIALECT_CMM_RULEPATTERN_H
