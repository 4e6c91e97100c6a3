//===- Observed.h - Ops whose values reach an effect ------------*- C++ -*-===//
//
// Evaluation is lazy, as in the Cloud Matrix Machine: a value nothing
// prints or saves is never computed and cannot fail (an unused inv(S) of a
// singular S is not an error), with or without the rewrites that would
// delete it. The reference interpreter and the tiler (so the generated
// programs) run exactly these ops.
//
//===----------------------------------------------------------------------===//

#ifndef CMM_DIALECT_OBSERVED_H
#define CMM_DIALECT_OBSERVED_H

#include "mlir/IR/Block.h"
#include "llvm/ADT/DenseSet.h"

namespace cmm {

/// The ops of `body` with an effect (print, save, ...) and the ops their
/// operands come from, transitively.
llvm::DenseSet<mlir::Operation *> observedOps(mlir::Block &body);

} // namespace cmm

#endif // CMM_DIALECT_OBSERVED_H
