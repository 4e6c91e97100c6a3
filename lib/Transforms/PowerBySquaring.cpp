//===- PowerBySquaring.cpp - A^k and P*P*...*P by squaring ------*- C++ -*-===//
//
// The Cloud Matrix Machine paper (section 3.1) rewrites repeated products of
// one matrix by exponentiation by squaring. A chain whose factors are all one
// square value X (an explicit X^k, or the traced `M = P*M` loop) becomes
// floor(log2 k) squarings and popcount(k)-1 products of the shared squares.
//
//===----------------------------------------------------------------------===//

#include "cmm/Transforms/MatrixChain.h"
#include "cmm/Transforms/Passes.h"

namespace cmm {
#define GEN_PASS_DEF_POWERBYSQUARING
#include "cmm/Transforms/Passes.h.inc"
} // namespace cmm

using namespace mlir;
using namespace cmm;

static bool isPowerOfOneValue(const ProductChain &chain) {
  const ChainFactor &first = chain.factors.front();
  return first.rows == first.cols &&
         llvm::all_of(chain.factors,
                      [&](const ChainFactor &f) { return f.sameAs(first); });
}

namespace {
struct PowerBySquaringPass
    : public cmm::impl::PowerBySquaringBase<PowerBySquaringPass> {
  using PowerBySquaringBase::PowerBySquaringBase;

  void runOnOperation() override {
    RuleCounts counts;
    forEachChain(getOperation(), [&](ProductChain &chain) {
      size_t k = chain.factors.size();
      // X*X is already one squaring.
      if (k < 2 || (k == 2 && !chain.hasPower) || !isPowerOfOneValue(chain))
        return;
      // An explicit power is always lowered (at equal cost); a product tree
      // only when squaring is strictly cheaper (X*(X*X) is already optimal).
      ChainPlan plan = ChainPlan::squaring(chain.factors);
      double cost = plan.flops() + scaleFlops(chain, plan);
      double original = chain.originalFlops();
      if (chain.hasPower ? cost > original : cost >= original)
        return;
      int64_t squarings = 0, products = 0;
      rewriteChain(chain, plan, &squarings, &products);
      ++counts["powers-expanded"];
      counts["squarings"] += squarings;
      counts["products"] += products;
    });
    if (lowerAll)
      lowerRemainingPowers(counts);
    recordRewrites(*this, getOperation(), counts);
  }

  /// X^k -> squarings of X, for each power left inside a larger chain.
  void lowerRemainingPowers(RuleCounts &counts) {
    SmallVector<PowOp> powers;
    getOperation().walk([&](PowOp pow) {
      if (pow.getExponent() >= 2)
        powers.push_back(pow);
    });
    for (PowOp pow : powers) {
      // Directly, in O(log k): a chain of k factors would not fit for the
      // exponents the language allows (up to 1e9).
      OpBuilder b(pow);
      SmallVector<Value> squares;
      int64_t squarings = 0, products = 0;
      Value result =
          emitPowerBySquaring(b, pow.getLoc(), pow.getInput(),
                              pow.getExponent(), squares, &squarings,
                              &products);
      pow.getResult().replaceAllUsesWith(result);
      pow.erase();
      ++counts["powers-expanded"];
      counts["squarings"] += squarings;
      counts["products"] += products;
    }
  }
};
} // namespace
