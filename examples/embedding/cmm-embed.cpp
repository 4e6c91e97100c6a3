//===- cmm-embed.cpp - An MLIR compiler that embeds cmm ---------*- C++ -*-===//
//
// Registers the cmm dialects and passes, parses a module of cmm IR, and
// plans it for two nodes with cmm-default-pipeline twice: built from C++
// (cmm::buildDefaultPipeline) and parsed from its textual form. Prints the
// planned module and exits 1 unless the two plans are the same.
//
//===----------------------------------------------------------------------===//

#include "cmm/InitAll.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

static std::string print(mlir::ModuleOp module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module.print(os);
  return text;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    llvm::errs() << "usage: cmm-embed <module.mlir>\n";
    return 2;
  }
  mlir::DialectRegistry registry;
  cmm::registerAllDialects(registry);
  cmm::registerAllPasses();
  mlir::MLIRContext context(registry);

  auto fromCpp = mlir::parseSourceFile<mlir::ModuleOp>(argv[1], &context);
  if (!fromCpp)
    return 1;
  mlir::OwningOpRef<mlir::ModuleOp> fromText = fromCpp->clone();

  // Pass managers on the module, so the textual pipeline's builtin.module
  // is the module itself.
  llvm::StringRef anchor = mlir::ModuleOp::getOperationName();
  mlir::PassManager cpp(&context, anchor);
  cmm::DefaultPipelineOptions options;
  options.plan.nodes = 2;
  cmm::buildDefaultPipeline(cpp, options);

  llvm::FailureOr<mlir::OpPassManager> parsed =
      mlir::parsePassPipeline("builtin.module(cmm-default-pipeline{nodes=2})");
  if (mlir::failed(parsed))
    return 1;
  mlir::PassManager text(&context, anchor);
  static_cast<mlir::OpPassManager &>(text) = *parsed;

  if (mlir::failed(cpp.run(*fromCpp)) || mlir::failed(text.run(*fromText)))
    return 1;
  std::string planned = print(*fromCpp);
  llvm::outs() << planned;
  if (planned != print(*fromText)) {
    llvm::errs() << "cmm-embed: the C++ and textual pipelines differ\n";
    return 1;
  }
  return 0;
}
