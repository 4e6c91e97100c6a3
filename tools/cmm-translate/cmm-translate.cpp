//===- cmm-translate.cpp - Translations into and out of cmm -----*- C++ -*-===//
//
//   --import-cmm   .cmm source -> cmm dialect (-D name=value as cmmc)
//   --dump-ast     .cmm source -> the AST, one node a line
//   --cmm-to-cpp   a scheduled module -> a C++/MPI program (Target/Cpp.h)
//
//===----------------------------------------------------------------------===//

#include "cmm/Frontend/MLIRGen.h"
#include "cmm/Frontend/Parser.h"
#include "cmm/InitAll.h"
#include "cmm/Support/LargeStack.h"
#include "cmm/Support/ToolOptions.h"
#include "cmm/Target/Cpp.h"

#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/SourceMgr.h"

static llvm::cl::list<std::string>
    defines("D", llvm::cl::Prefix,
            llvm::cl::desc("With --import-cmm: name=value overrides the first "
                           "top-level assignment of a scalar (repeatable)"));

static void registerCmmTranslations() {
  static mlir::TranslateToMLIRRegistration importCmm(
      "import-cmm", "translate a .cmm program to the cmm dialect",
      [](llvm::SourceMgr &sourceMgr,
         mlir::MLIRContext *context) -> mlir::OwningOpRef<mlir::Operation *> {
        cmm::MLIRGenOptions options;
        std::string error;
        for (const std::string &d : defines)
          if (!cmm::addDefine(d, options, error)) {
            mlir::emitError(mlir::UnknownLoc::get(context), error);
            return nullptr;
          }
        mlir::OwningOpRef<mlir::ModuleOp> module =
            cmm::importCmm(*context, sourceMgr, options);
        if (!module)
          return nullptr;
        return mlir::OwningOpRef<mlir::Operation *>(module.release());
      },
      [](mlir::DialectRegistry &registry) {
        cmm::registerAllDialects(registry);
      });

  static mlir::TranslateRegistration dumpAst(
      "dump-ast", "print the AST of a .cmm program",
      [](const std::shared_ptr<llvm::SourceMgr> &sourceMgr,
         llvm::raw_ostream &output, mlir::MLIRContext *) {
        auto program = cmm::parseCmm(*sourceMgr, sourceMgr->getMainFileID());
        if (!program)
          return mlir::failure();
        cmm::dumpAST(*program, *sourceMgr, output);
        return mlir::success();
      });
}

static int translateMain(int argc, char **argv) {
  cmm::hideLibraryOptions();
  defines.setHiddenFlag(llvm::cl::NotHidden); // ours, registered statically
  registerCmmTranslations();
  cmm::registerToCppTranslation();
  return mlir::failed(
      mlir::mlirTranslateMain(argc, argv, "cmm translation driver\n"));
}

int main(int argc, char **argv) {
  return cmm::runWithLargeStack(translateMain, argc, argv);
}
