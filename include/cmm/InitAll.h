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

#include "cmm/Dialect/CmmDialect.h"
#include "cmm/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Transforms/Passes.h"

namespace cmm {

/// The cmm dialect and the upstream dialects cmm programs use.
inline void registerAllDialects(mlir::DialectRegistry &registry) {
  registry.insert<CmmDialect, mlir::func::FuncDialect,
                  mlir::arith::ArithDialect, mlir::tensor::TensorDialect>();
}

/// Every cmm pass, and the upstream passes run between them (canonicalize,
/// cse, ...).
inline void registerAllPasses() {
  mlir::registerTransformsPasses();
  registerPassesAndPipelines();
}

} // namespace cmm

#endif // CMM_INITALL_H
