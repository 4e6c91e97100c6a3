//===- MachineAttr.h - The machine model in the IR --------------*- C++ -*-===//
//
// A machine model (Scheduling/MachineModel.h, docs/machine-model.md) and its IR
// form, the module attribute `cmmtg.machine = #cmmtg.machine<...>`, in both
// directions and exactly (every coefficient survives printing and parsing).
// The planning passes read the module's model when it has one.
//
//===----------------------------------------------------------------------===//

#ifndef CMM_PLANNING_MACHINEATTR_H
#define CMM_PLANNING_MACHINEATTR_H

#include "cmm/Dialect/TaskGraph/TaskGraphDialect.h"
#include "cmm/Scheduling/MachineModel.h"

#include "mlir/IR/BuiltinOps.h"

#include <string>

namespace cmm::planning {

using scheduling::MachineModel;

tg::MachineAttr toMachineAttr(mlir::MLIRContext *context,
                              const MachineModel &machine);
/// The model of a (verified) `#cmmtg.machine`; false with a message when a
/// time polynomial is not one of the cost classes' or not 8 coefficients.
bool fromMachineAttr(tg::MachineAttr attr, MachineModel &machine,
                     std::string &error);

/// Sets the module's `cmmtg.machine` to `machine`.
void attachMachineModel(mlir::ModuleOp module, const MachineModel &machine);

/// The machine a pass plans `module` for: the module's `cmmtg.machine` when
/// it has one (then `path` must be empty), else the JSON model at `path`,
/// else the built-in model; with `nodes` nodes (0: as it is).
bool machineModelOf(mlir::ModuleOp module, const std::string &path,
                    unsigned nodes, MachineModel &machine, std::string &error);

} // namespace cmm::planning

#endif // CMM_PLANNING_MACHINEATTR_H
