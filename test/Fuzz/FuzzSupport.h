//===- FuzzSupport.h - What the IR-building fuzz targets share ------------===//
//
// context(): one context for every input of a fuzzing run (creating one per
// input would dominate the run), with the cmm dialects loaded, threading off,
// and diagnostics swallowed: a located error is the expected outcome of most
// inputs, not a finding.
//
// onToolStack(): runs the work on a thread with the stack the tools give the
// front end and the parser (cmm/Support/LargeStack.h), so an input the tools
// accept does not overflow the fuzzer's smaller main-thread stack.
//
//===----------------------------------------------------------------------===//

#ifndef CMM_TEST_FUZZ_FUZZSUPPORT_H
#define CMM_TEST_FUZZ_FUZZSUPPORT_H

#include "cmm/InitAll.h"
#include "cmm/Support/LargeStack.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

namespace cmm::fuzz {

inline mlir::MLIRContext &context() {
  static mlir::MLIRContext *ctx = [] {
    mlir::DialectRegistry registry;
    cmm::registerAllDialects(registry);
    auto *c =
        new mlir::MLIRContext(registry, mlir::MLIRContext::Threading::DISABLED);
    c->loadAllAvailableDialects();
    c->getDiagEngine().registerHandler(
        [](mlir::Diagnostic &) { return mlir::success(); });
    return c;
  }();
  return *ctx;
}

template <typename Work> void onToolStack(Work work) {
  llvm::thread worker(std::optional<unsigned>(kToolStackBytes), work);
  worker.join();
}

} // namespace cmm::fuzz

#endif // CMM_TEST_FUZZ_FUZZSUPPORT_H
