//===- TaskGraphDialect.h - The cmmtg dialect -------------------*- C++ -*-===//
//
// Declares the cmm task-graph dialect (cmmtg): the tile type, the task kinds
// and the graph, task, transfer and tile-cache operations.
//
//===----------------------------------------------------------------------===//

#ifndef CMM_DIALECT_TASKGRAPH_TASKGRAPHDIALECT_H
#define CMM_DIALECT_TASKGRAPH_TASKGRAPHDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "cmmrt/Plan.h"

#include <optional>

#include "cmm/Dialect/TaskGraph/TaskGraphDialect.h.inc"

namespace cmm::tg {
/// The kind of a task: the one list of cmmrt/TaskKinds.def.
using TaskKind = cmmrt::plan::TaskKind;
inline llvm::StringRef stringifyTaskKind(TaskKind kind) {
  return cmmrt::plan::taskKindName(kind);
}
/// The time-model class of a task: the one list of cmmrt/CostClasses.def.
using CostClass = cmmrt::plan::CostClass;
inline llvm::StringRef stringifyCostClass(CostClass cost) {
  return cmmrt::plan::costClassName(cost);
}
} // namespace cmm::tg

#define GET_TYPEDEF_CLASSES
#include "cmm/Dialect/TaskGraph/TaskGraphTypes.h.inc"

#define GET_ATTRDEF_CLASSES
#include "cmm/Dialect/TaskGraph/TaskGraphAttrs.h.inc"

#define GET_OP_CLASSES
#include "cmm/Dialect/TaskGraph/TaskGraphOps.h.inc"

namespace cmm::tg {

/// The time-model class of a task of `kind` without a `cost` attribute:
/// gemm for the products, copy for load and gather, the like-named class
/// otherwise.
CostClass defaultCostClass(TaskKind kind);

/// The node where `tile` is, in a placed graph: a task result is on the
/// task's node, a recv result on its `to` node; nullopt when unplaced.
std::optional<int64_t> getTileNode(mlir::Value tile);

/// When `tile` is ready on its node: the finish of its task or transfer,
/// when known.
std::optional<double> getTileReadyTime(mlir::Value tile);

} // namespace cmm::tg

#endif // CMM_DIALECT_TASKGRAPH_TASKGRAPHDIALECT_H
