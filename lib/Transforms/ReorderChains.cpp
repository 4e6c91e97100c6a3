//===- ReorderChains.cpp - Cost-based matrix-chain ordering -----*- C++ -*-===//
//
// Each product chain (MatrixChain.h) gets its cheapest parenthesisation by
// dynamic programming on flops, where a run of one repeated square factor may
// be squared instead. The chain is rewritten only when that is strictly
// cheaper than what the program computes now, so equal-cost programs keep
// their order. For the Markov benchmark, u * P*P*P*P (n x n P, 1 x n u)
// becomes four vector products (8 n^2 flops) instead of 6 n^3 + 2 n^2.
//
//===----------------------------------------------------------------------===//

#include "cmm/Transforms/MatrixChain.h"
#include "cmm/Transforms/Passes.h"

namespace cmm {
#define GEN_PASS_DEF_REORDERCHAINS
#include "cmm/Transforms/Passes.h.inc"
} // namespace cmm

using namespace mlir;
using namespace cmm;

namespace {
struct ReorderChainsPass
    : public cmm::impl::ReorderChainsBase<ReorderChainsPass> {
  void runOnOperation() override {
    RuleCounts counts;
    forEachChain(getOperation(), [&](ProductChain &chain) {
      if (chain.factors.size() < 2)
        return;
      ChainPlan plan = ChainPlan::optimal(chain.factors);
      if (!plan.valid())
        return; // too long to plan: the program's order stays
      double cost = plan.flops() + scaleFlops(chain, plan);
      // Strictly cheaper, beyond rounding of the float counts.
      if (!(cost < chain.originalFlops() * (1.0 - 1e-9)))
        return;
      rewriteChain(chain, plan);
      ++counts["chains-reordered"];
      counts["chain-factors"] += chain.factors.size();
    });
    recordRewrites(*this, getOperation(), counts);
  }
};
} // namespace
