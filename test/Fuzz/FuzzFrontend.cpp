//===- FuzzFrontend.cpp - libFuzzer: .cmm text to verified cmm IR ---------===//
//
// Lexes, parses and traces any text as a .cmm program, with the front end's
// limits (nesting, expression depth, loop trips, traced ops): a program
// either fails with a located diagnostic or traces to IR that verifies.
// The tracer's budgets are smaller than the language's (fuzzLimits()): at
// the language's 10^7 iterations a mutated loop bound alone traces for
// longer than libFuzzer's timeout in this -O0 sanitizer build (a CI run
// stopped on one), while every path, the limits' errors
// included, is reached as well under these.
// A crash, a hang, an allocation past -rss_limit_mb or a module that fails
// the verifier is a finding (docs/reliability.md, "Fuzzing").
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"

#include "cmm/Frontend/MLIRGen.h"

#include "mlir/IR/Verifier.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <cstdint>
#include <cstdlib>

namespace {
cmm::TraceLimits fuzzLimits() {
  cmm::TraceLimits limits;
  limits.iterations = 20'000;
  limits.ops = 20'000;
  return limits;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(
          llvm::StringRef(reinterpret_cast<const char *>(data), size),
          "fuzz.cmm"),
      llvm::SMLoc());
  // Diagnostics are the expected outcome of most inputs: not printed.
  sourceMgr.setDiagHandler([](const llvm::SMDiagnostic &, void *) {});
  cmm::MLIRGenOptions options;
  options.limits = fuzzLimits();
  cmm::fuzz::onToolStack([&] {
    mlir::OwningOpRef<mlir::ModuleOp> module =
        cmm::importCmm(cmm::fuzz::context(), sourceMgr, options);
    if (module && mlir::failed(mlir::verify(*module)))
      std::abort(); // traced IR must verify
  });
  return 0;
}
