//===- Pipelines.h - The cmm compiler as one pass pipeline ------*- C++ -*-===//
//
// `cmm-default-pipeline` is the compiler from traced cmm IR to a plan:
// the algebraic rewrites (`cmm-simplify`, unless `simplify=false`), the
// elementwise fusion (`cmm-fuse-elementwise`, unless `fuse=false`) and the
// planner (`cmm-plan`), whose scheduled `cmmtg.graph` `cmm-translate
// --cmm-to-cpp` turns into a program. cmmc runs it; so can cmm-opt
//   cmm-opt --pass-pipeline='builtin.module(cmm-default-pipeline{nodes=2})'
// and any MLIR compiler that embeds cmm:
//   cmm::DefaultPipelineOptions options;
//   options.plan.nodes = 2;
//   cmm::buildDefaultPipeline(pm, options);
//
// Its options are those of `cmm-plan` (declared once, in
// Planning/Passes.td) and those of `cmm-simplify`, plus `simplify` and
// `fuse`.
//
//===----------------------------------------------------------------------===//

#ifndef CMM_PIPELINES_PIPELINES_H
#define CMM_PIPELINES_PIPELINES_H

#include "cmm/Planning/Passes.h"
#include "cmm/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"

namespace cmm {

struct DefaultPipelineOptions {
  /// Run the algebraic rewrites (`cmm-simplify`); false evaluates the
  /// program as written (cmmc --O0).
  bool simplify = true;
  /// `cmm-simplify`'s flop report (to standard error).
  bool flopReport = false;
  /// Fuse elementwise chains into kernels (`cmm-fuse-elementwise`) after
  /// the rewrites (cmmc --O0 turns it off).
  bool fuse = true;
  /// The planner's options (`cmm-plan`).
  PlanProgramOptions plan;
};

/// Adds `cmm-simplify` (when `options.simplify`), `cmm-fuse-elementwise`
/// (when `options.fuse`) and `cmm-plan` to `pm`, a pass manager on
/// `builtin.module`.
void buildDefaultPipeline(mlir::OpPassManager &pm,
                          const DefaultPipelineOptions &options = {});

/// Registers `cmm-default-pipeline`.
void registerPipelines();

} // namespace cmm

#endif // CMM_PIPELINES_PIPELINES_H
