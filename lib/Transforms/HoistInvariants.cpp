//===- HoistInvariants.cpp - Loop-invariant code motion for cmm.while ----===//
//
// A value a loop recomputes from values that do not change in it is
// computed once, before the loop (issue 19: a loop-invariant matrix is
// prepared once, then the planner keeps it on its nodes).
//
//===----------------------------------------------------------------------===//

#include "cmm/Dialect/Cmm/CmmDialect.h"
#include "cmm/Transforms/Passes.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace cmm {
#define GEN_PASS_DEF_HOISTINVARIANTS
#include "cmm/Transforms/Passes.h.inc"
} // namespace cmm

using namespace mlir;
using namespace cmm;

/// Whether `op` may run once before the loop instead of at every
/// iteration: pure, without regions, and neither drawing random numbers
/// (each iteration draws its own) nor able to fail (the loop may run no
/// iteration, and an unused failing value is no error).
static bool mayHoist(Operation &op) {
  return isPure(&op) && op.getNumRegions() == 0 &&
         !op.hasTrait<OpTrait::IsTerminator>() && !isa<RandOp>(op) &&
         !op.hasTrait<cmm::trait::MayFail>();
}

namespace {
struct HoistInvariantsPass
    : public cmm::impl::HoistInvariantsBase<HoistInvariantsPass> {
  using HoistInvariantsBase::HoistInvariantsBase;

  void runOnOperation() override {
    // Post-order: an inner loop's invariants move into the outer loop's
    // body first, where the outer loop may hoist them again.
    RuleCounts counts;
    getOperation().walk([&](WhileOp loop) {
      auto outside = [&](Value v) {
        return !loop->isAncestor(v.getParentRegion()->getParentOp());
      };
      for (Region *region : {&loop.getBefore(), &loop.getAfter()})
        for (Operation &op : llvm::make_early_inc_range(region->front()))
          if (mayHoist(op) && llvm::all_of(op.getOperands(), outside)) {
            op.moveBefore(loop);
            ++counts["hoisted"];
          }
    });
    recordRewrites(*this, getOperation(), counts);
  }
};
} // namespace
