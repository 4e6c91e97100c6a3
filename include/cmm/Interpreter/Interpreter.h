//===- Interpreter.h - Reference interpreter for cmm IR ---------*- C++ -*-===//
//
// Executes the high-level cmm ops of `func.func @main` in one process, one op
// at a time on whole matrices (OpenBLAS for products, LAPACK for inv/solve).
// It is the numerical oracle of every optimisation and of the distributed
// back end, so it is deliberately simple.
//
//===----------------------------------------------------------------------===//

#ifndef CMM_INTERPRETER_INTERPRETER_H
#define CMM_INTERPRETER_INTERPRETER_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

namespace cmm {

/// Runs `@main`, writing `print` output to `out`. Run-time errors (a
/// singular matrix, a file that changed shape since compilation, a matrix too
/// large for memory) are emitted as diagnostics at the op's source location
/// and make the result a failure.
///
/// With `dumpDir`, every printed matrix is also saved in full precision as
/// `<dumpDir>/print<N>.npy` (N counts prints from 0), so that tests can compare
/// runs to a tolerance finer than the 6 digits `print` shows.
mlir::LogicalResult interpret(mlir::ModuleOp module, llvm::raw_ostream &out,
                              llvm::StringRef dumpDir = "");
/// The same to a file (standard output): a print it cannot write (a full
/// disk, a closed descriptor) is a run-time error at the print.
mlir::LogicalResult interpret(mlir::ModuleOp module, llvm::raw_fd_ostream &out,
                              llvm::StringRef dumpDir = "");

/// Saves the program's inputs without running it: the value of every
/// `rand`/`randn` call and `load` of `@main`, in program (trace) order, as
/// `<dir>/input<N>.npy`. Benchmark ports in other languages read them so
/// that every implementation computes on the same numbers.
mlir::LogicalResult dumpInputs(mlir::ModuleOp module, llvm::StringRef dir);

} // namespace cmm

#endif // CMM_INTERPRETER_INTERPRETER_H
