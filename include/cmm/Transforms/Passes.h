//===- Passes.h - cmm rewrite passes and pipelines --------------*- C++ -*-===//
//
// Passes are declared in Passes.td. The `cmm-simplify` pipeline runs them in
// SystemDS's order; other MLIR compilers embed it with
// `cmm::buildSimplifyPipeline`.
//
//===----------------------------------------------------------------------===//

#ifndef CMM_TRANSFORMS_PASSES_H
#define CMM_TRANSFORMS_PASSES_H

#include "cmm/Dialect/Cmm/CmmDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"

namespace cmm {

#define GEN_PASS_DECL
#include "cmm/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "cmm/Transforms/Passes.h.inc"

struct SimplifyPipelineOptions
    : public mlir::PassPipelineOptions<SimplifyPipelineOptions> {
  Option<bool> flopReport{*this, "flop-report",
                          llvm::cl::desc("Print the flop count before and "
                                         "after, and every rule that fired"),
                          llvm::cl::init(false)};
};

/// CSE, static simplification (with folding), CSE, loop-invariant ops
/// hoisted out of cmm.while, power by squaring, chain ordering, dynamic
/// simplification, CSE (SystemDS ProgramRewriter order), invariants hoisted
/// again, then transposes folded into the products that read them.
void buildSimplifyPipeline(mlir::OpPassManager &pm,
                           const SimplifyPipelineOptions &options = {});

/// Registers the cmm passes and the `cmm-simplify` pipeline.
void registerPassesAndPipelines();

/// Adds `counts` to the pass's statistics of the same names and to the
/// function's rewrite log (read by `cmm-flop-report stage=after`).
void recordRewrites(mlir::Pass &pass, mlir::func::FuncOp func,
                    const RuleCounts &counts);

} // namespace cmm

#endif // CMM_TRANSFORMS_PASSES_H
