//===- Observed.cpp - Ops whose values reach an effect ----------*- C++ -*-===//

#include "cmm/Dialect/Cmm/Observed.h"

#include "cmm/Dialect/Cmm/CmmDialect.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;

llvm::DenseSet<Operation *> cmm::observedOps(Block &body) {
  llvm::DenseSet<Operation *> live;
  for (Operation &op : llvm::reverse(body)) {
    // rand and load only read: unobserved, they are not run either.
    bool needed = !isPure(&op) && !isa<RandOp, LoadOp>(op);
    for (Value result : op.getResults())
      for (Operation *user : result.getUsers())
        needed = needed || live.contains(user);
    if (needed)
      live.insert(&op);
  }
  return live;
}
