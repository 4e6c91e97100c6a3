//===- Observed.cpp - Ops whose values reach an effect ----------*- C++ -*-===//

#include "cmm/Dialect/Cmm/Observed.h"

#include "cmm/Dialect/Cmm/CmmDialect.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;

llvm::DenseSet<Operation *> cmm::observedOps(Block &body) {
  llvm::DenseSet<Operation *> live;
  for (Operation &op : llvm::reverse(body)) {
    // rand and load only read: unobserved, they are not run either. A
    // region's terminator hands its values on (cmm.end, cmm.condition).
    bool needed = (!isPure(&op) || op.hasTrait<OpTrait::IsTerminator>()) &&
                  !isa<RandOp, LoadOp>(op);
    // A use inside a cmm.while or cmm.if counts as a use by that op.
    for (Value result : op.getResults())
      for (Operation *user : result.getUsers())
        if (Operation *at = body.findAncestorOpInBlock(*user))
          needed = needed || live.contains(at);
    if (needed)
      live.insert(&op);
  }
  return live;
}
