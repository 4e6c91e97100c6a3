//===- cmm-opt.cpp - The cmm optimizer driver -------------------*- C++ -*-===//
//
// mlir-opt with the cmm dialects, the upstream dialects they use, every cmm
// pass and the cmm-default-pipeline registered.
//
//===----------------------------------------------------------------------===//

#include "cmm/InitAll.h"
#include "cmm/Support/ToolOptions.h"

#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  cmm::hideLibraryOptions();
  cmm::registerAllPasses();
  mlir::DialectRegistry registry;
  cmm::registerAllDialects(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "cmm optimizer driver\n", registry));
}
