//===- FuzzIR.cpp - libFuzzer: the cmm and cmmtg IR parser and verifier ---===//
//
// Any text as MLIR with the cmm dialects registered (what cmm-opt and
// cmm-translate read): parsed and verified, or refused with a diagnostic.
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  cmm::fuzz::onToolStack([&] {
    // A null-terminated copy, as cmm-opt reads a file: MLIR's parser scans
    // for the terminator (parseSourceString's view of the fuzzer's bytes,
    // which have none, reads past them).
    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(text, "fuzz.mlir"), llvm::SMLoc());
    mlir::ParserConfig config(&cmm::fuzz::context());
    mlir::OwningOpRef<mlir::ModuleOp> module =
        mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, config);
    if (module)
      (void)mlir::verify(*module);
  });
  return 0;
}
