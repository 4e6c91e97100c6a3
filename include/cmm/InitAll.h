//===- InitAll.h - Register cmm dialects and passes -------------*- C++ -*-===//
//
// For tools and for other MLIR compilers that embed the cmm pipeline:
//   mlir::DialectRegistry registry;
//   cmm::registerAllDialects(registry);
//   cmm::registerAllPasses();
//
//===----------------------------------------------------------------------===//

#ifndef CMM_INITALL_H
#define CMM_INITALL_H

#include "cmm/Dialect/Cmm/CmmDialect.h"
#include "cmm/Dialect/TaskGraph/TaskGraphDialect.h"
#include "cmm/Pipelines/Pipelines.h"
#include "cmm/Planning/Passes.h"
#include "cmm/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Transforms/Passes.h"

namespace cmm {

/// The cmm and cmmtg (task graph) dialects and the upstream dialects cmm
/// programs use.
inline void registerAllDialects(mlir::DialectRegistry &registry) {
  registry.insert<CmmDialect, tg::TaskGraphDialect, mlir::func::FuncDialect,
                  mlir::arith::ArithDialect, mlir::tensor::TensorDialect>();
}

/// Every cmm pass, and the upstream passes run between them (canonicalize,
/// cse, ...).
inline void registerAllPasses() {
  mlir::registerTransformsPasses();
  registerPassesAndPipelines();
  registerPlanningPasses();
  registerPipelines();
}

} // namespace cmm

#endif // CMM_INITALL_H
