//===- Passes.h - cmm planning passes ---------------------------*- C++ -*-===//
//
// The passes of Passes.td: `cmm-tile` (cmm IR to one tiled task graph per
// candidate tile size) and `cmm-schedule` (schedule the candidates, keep the
// best plan).
//
//===----------------------------------------------------------------------===//

#ifndef CMM_PLANNING_PASSES_H
#define CMM_PLANNING_PASSES_H

#include "cmm/Dialect/TaskGraph/TaskGraphDialect.h"
#include "cmm/Planning/Planner.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace cmm {

#define GEN_PASS_DECL
#include "cmm/Planning/Passes.h.inc"

/// Registers `cmm-plan`, `cmm-tile` and `cmm-schedule`.
void registerPlanningPasses();

} // namespace cmm

#endif // CMM_PLANNING_PASSES_H
