//===- OpDecls.h - The ops of a program as a task graph declares them -*- C++
//-*-===//
//
// A task graph is the whole program: before its tasks it declares, in
// program order, every operation they compute part of (`cmmtg.op`: the op
// code of cmmrt/OpCodes.def, shapes and parameters), and each task names
// its operation by symbol. Code generation reads only the graph, so a
// function rewritten after planning cannot change what a plan computes.
//
//===----------------------------------------------------------------------===//

#ifndef CMM_CONVERSION_CMMTOTASKGRAPH_OPDECLS_H
#define CMM_CONVERSION_CMMTOTASKGRAPH_OPDECLS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/DenseMap.h"

#include <string>
#include <vector>

namespace cmm::tiling {

/// One `cmmtg.op`: its symbol, its location (the source of the op) and its
/// attributes (all but the symbol).
struct OpDecl {
  std::string name;
  mlir::Location loc;
  mlir::DictionaryAttr attrs;
};

/// The declarations of the ops of `func`'s body that run (those whose
/// values reach an output, and the outputs), in program order; `indexOf`,
/// when given, maps each declared op to its position.
std::vector<OpDecl>
declareOps(mlir::func::FuncOp func,
           llvm::DenseMap<mlir::Operation *, int> *indexOf = nullptr);

} // namespace cmm::tiling

#endif // CMM_CONVERSION_CMMTOTASKGRAPH_OPDECLS_H
