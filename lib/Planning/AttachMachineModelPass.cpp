//===- AttachMachineModelPass.cpp - cmm-attach-machine-model ----*- C++ -*-===//

#include "cmm/Planning/MachineAttr.h"
#include "cmm/Planning/Passes.h"

namespace cmm {
#define GEN_PASS_DEF_ATTACHMACHINEMODEL
#include "cmm/Planning/Passes.h.inc"
} // namespace cmm

using namespace mlir;
using namespace cmm;
using namespace cmm::planning;

namespace {
struct AttachMachineModelPass
    : public cmm::impl::AttachMachineModelBase<AttachMachineModelPass> {
  using AttachMachineModelBase::AttachMachineModelBase;

  void runOnOperation() override {
    MachineModel machine;
    std::string error;
    if (!resolveMachineModel(file, nodes, machine, error)) {
      emitError(UnknownLoc::get(&getContext()), "cmm-attach-machine-model: ")
          << error;
      return signalPassFailure();
    }
    attachMachineModel(getOperation(), machine);
  }
};
} // namespace
