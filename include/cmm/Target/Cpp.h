//===- Cpp.h - Scheduled task graphs to C++/MPI programs --------*- C++ -*-===//
//
// `cmm-translate --cmm-to-cpp`: a module holding `func.func @main` (cmm
// dialect) and its scheduled `cmmtg.graph @main` (from cmm-tile and
// cmm-schedule, or cmmc) becomes a self-contained C++17 source: the ops of
// @main, every tile copy, each node's tasks in schedule order, the
// transfers with their communicators, the outputs in source order, as
// tables for the runtime's executor (cmmrt/Executor.h). Compile it with
// mpicxx against libcmmrt_mpi, libcmmrt and OpenBLAS.
//
//===----------------------------------------------------------------------===//

#ifndef CMM_TARGET_CPP_H
#define CMM_TARGET_CPP_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

namespace cmm {

/// Writes the C++ program of `module`; fails with an error on the op at
/// fault (no @main, no scheduled graph, a task without placement).
mlir::LogicalResult translateToCpp(mlir::ModuleOp module,
                                   llvm::raw_ostream &os);

/// Registers `--cmm-to-cpp` with mlir-translate.
void registerToCppTranslation();

} // namespace cmm

#endif // CMM_TARGET_CPP_H
