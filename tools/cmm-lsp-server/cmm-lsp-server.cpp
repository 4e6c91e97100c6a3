//===- cmm-lsp-server.cpp - The MLIR language server for cmm ----*- C++ -*-===//
//
// MLIR's language server with the cmm dialects: diagnostics, hovers and
// go-to-definition in editors for .mlir files with cmm and cmmtg IR
// (docs/architecture.md says how to set up an editor).
//
//===----------------------------------------------------------------------===//

#include "cmm/InitAll.h"

#include "mlir/Tools/mlir-lsp-server/MlirLspServerMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  cmm::registerAllDialects(registry);
  return mlir::failed(mlir::MlirLspServerMain(argc, argv, registry));
}
