//===- AlgebraicSimplify.cpp - Static simplification pass -------*- C++ -*-===//
//
// Runs the dialect's simplification patterns (CmmCanonicalize.cpp) with a
// counter per rule. Folding is off so that every simplification is counted
// under its rule (the op folders duplicate the trivial rules for -canonicalize).
//
//===----------------------------------------------------------------------===//

#include "cmm/Transforms/Passes.h"

#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace cmm {
#define GEN_PASS_DEF_ALGEBRAICSIMPLIFY
#include "cmm/Transforms/Passes.h.inc"
} // namespace cmm

using namespace mlir;
using namespace cmm;

namespace {
struct AlgebraicSimplifyPass
    : public cmm::impl::AlgebraicSimplifyBase<AlgebraicSimplifyPass> {
  void runOnOperation() override {
    RuleCounts counts;
    RewritePatternSet patterns(&getContext());
    populateAlgebraicSimplifyPatterns(patterns, &counts);
    GreedyRewriteConfig config;
    config.enableFolding(false);
    (void)applyPatternsGreedily(getOperation(), std::move(patterns), config);
    recordRewrites(*this, getOperation(), counts);
  }
};
} // namespace
