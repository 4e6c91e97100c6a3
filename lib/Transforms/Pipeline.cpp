//===- Pipeline.cpp - The cmm-simplify pipeline -----------------*- C++ -*-===//
//
// The order follows SystemDS's ProgramRewriter: CSE, constant folding and
// static simplification, CSE, matrix-multiplication chain optimization,
// dynamic simplification, CSE. Pure powers are squared and common factors
// are taken out of sums of chains before chains are ordered; chain ordering
// then decides, by cost, between squaring and vector products for powers
// inside larger chains; the powers it keeps are expanded into explicit
// squarings last. A static pass after the dynamic one cleans up what it
// exposes. Transposes are folded into the products that read them last, once
// nothing else needs to see them.
//
//===----------------------------------------------------------------------===//

#include "cmm/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void cmm::buildSimplifyPipeline(OpPassManager &pm,
                                const SimplifyPipelineOptions &options) {
  OpPassManager &f = pm.nest<func::FuncOp>();
  if (options.flopReport)
    f.addPass(createFlopReport(FlopReportOptions{"before"}));
  f.addPass(createCSEPass());
  f.addPass(createAlgebraicSimplify());
  f.addPass(createCSEPass());
  f.addPass(createHoistInvariants());
  f.addPass(createPolynomials());
  f.addPass(createPowerBySquaring());
  f.addPass(createFactorSums());
  f.addPass(createReorderChains());
  f.addPass(createPowerBySquaring(PowerBySquaringOptions{/*lowerAll=*/true}));
  f.addPass(createDynamicSimplify());
  f.addPass(createCSEPass());
  f.addPass(createAlgebraicSimplify());
  f.addPass(createCSEPass());
  f.addPass(createHoistInvariants());
  f.addPass(createFoldTransposes());
  f.addPass(createLinearSolves());
  if (options.flopReport)
    f.addPass(createFlopReport(FlopReportOptions{"after"}));
}

void cmm::registerPassesAndPipelines() {
  registerCmmPasses();
  PassPipelineRegistration<SimplifyPipelineOptions>(
      "cmm-simplify",
      "Algebraic rewrites in SystemDS order: CSE, static simplification, "
      "power by squaring, chain ordering, dynamic simplification",
      [](OpPassManager &pm, const SimplifyPipelineOptions &options) {
        buildSimplifyPipeline(pm, options);
      });
}
