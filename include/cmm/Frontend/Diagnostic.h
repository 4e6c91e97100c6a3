//===- Diagnostic.h - Front-end error messages ------------------*- C++ -*-===//
//
// Prints a message at a source location as the LLVM SourceMgr does
// (`file:line:col: error: message`, the source line, a caret), also when
// the line holds non-ASCII characters, where SourceMgr drops the caret.
//
//===----------------------------------------------------------------------===//

#ifndef CMM_FRONTEND_DIAGNOSTIC_H
#define CMM_FRONTEND_DIAGNOSTIC_H

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/SourceMgr.h"

namespace cmm {

/// Prints `message` at `loc` to standard error.
void printSourceMessage(llvm::SourceMgr &sourceMgr, llvm::SMLoc loc,
                        llvm::SourceMgr::DiagKind kind,
                        const llvm::Twine &message);

/// While alive, prints the MLIR diagnostics located in `sourceMgr`'s main
/// file (a FileLineColLoc there, notes included) with printSourceMessage;
/// the others go on to the handlers registered before it (an
/// mlir::SourceMgrDiagnosticHandler).
class SourceDiagnosticHandler {
public:
  SourceDiagnosticHandler(llvm::SourceMgr &sourceMgr,
                          mlir::MLIRContext *context);
  ~SourceDiagnosticHandler();

private:
  mlir::MLIRContext *context;
  mlir::DiagnosticEngine::HandlerID id;
};

} // namespace cmm

#endif // CMM_FRONTEND_DIAGNOSTIC_H
