//===- MLIRGen.h - Trace a .cmm AST into the cmm dialect --------*- C++ -*-===//
//
// Tracing evaluates everything known at compile time (scalars, loop bounds,
// sizes, shapes of loaded files) and emits one cmm op per matrix operation,
// unrolling `for` loops, the way lazy evaluation traces a Julia program in
// the Cloud Matrix Machine paper (section 3). The result is a module with a
// single `func.func @main()`.
//
//===----------------------------------------------------------------------===//

#ifndef CMM_FRONTEND_MLIRGEN_H
#define CMM_FRONTEND_MLIRGEN_H

#include "cmm/Frontend/AST.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <map>
#include <string>

namespace llvm {
class SourceMgr;
}

namespace cmm {

/// The tracer's budgets (loops are unrolled and calls inlined at compile
/// time, docs/language.md §11): a program past one fails with a located
/// error. The defaults are the language's; the fuzz targets trace under
/// smaller ones, so that every input ends within libFuzzer's timeout in a
/// sanitizer build at -O0 (10^7 traced calls take 11 s there).
struct TraceLimits {
  /// Loop iterations and user function calls traced, in all.
  int64_t iterations = 10'000'000;
  /// Ops in the traced program.
  size_t ops = 2'000'000;
  /// Nesting of user function calls being traced.
  size_t callDepth = 256;
};

struct MLIRGenOptions {
  /// `-D name=value`: replaces the value of the first top-level assignment
  /// of `name` (which must be a compile-time scalar).
  std::map<std::string, double> defines;
  TraceLimits limits;
};

/// Adds a `-D name=value` definition (`text` is "name=value", the value a
/// number) to `options`; false with a message naming `text` otherwise.
bool addDefine(llvm::StringRef text, MLIRGenOptions &options,
               std::string &error);

/// Seed used by `rand`/`randn` calls without an explicit seed.
constexpr int64_t kDefaultSeed = 20260101;

/// Returns null after reporting an error through `sourceMgr`.
mlir::OwningOpRef<mlir::ModuleOp> mlirGen(mlir::MLIRContext &context,
                                          llvm::SourceMgr &sourceMgr,
                                          const Program &program,
                                          const MLIRGenOptions &options = {});

/// Parses and traces the main buffer of `sourceMgr` (the `--import-cmm`
/// translation and `cmmc`).
mlir::OwningOpRef<mlir::ModuleOp>
importCmm(mlir::MLIRContext &context, llvm::SourceMgr &sourceMgr,
          const MLIRGenOptions &options = {});

} // namespace cmm

#endif // CMM_FRONTEND_MLIRGEN_H
