//===- cmm-opt.cpp - The cmm optimizer driver -------------------*- C++ -*-===//
//
// mlir-opt with the cmm dialect, the upstream dialects it uses and every cmm
// pass registered.
//
//===----------------------------------------------------------------------===//

#include "cmm/InitAll.h"

#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  cmm::registerAllPasses();
  mlir::DialectRegistry registry;
  cmm::registerAllDialects(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "cmm optimizer driver\n", registry));
}
