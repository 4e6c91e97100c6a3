//===- TaskGraphIR.h - Task graphs and plans as cmmtg IR --------*- C++ -*-===//
//
// The planner's data structures (TaskGraph, Schedule) and the cmmtg dialect,
// in both directions: a tiled graph becomes an unscheduled `cmmtg.graph`
// (emitTaskGraph), a graph and its plan a scheduled one (emitScheduledGraph),
// and a `cmmtg.graph` read back gives the TaskGraph to schedule
// (readTaskGraph).
//
//===----------------------------------------------------------------------===//

#ifndef CMM_PLANNING_TASKGRAPHIR_H
#define CMM_PLANNING_TASKGRAPHIR_H

#include "cmm/Conversion/CmmToTaskGraph/OpDecls.h"
#include "cmm/Dialect/TaskGraph/TaskGraphDialect.h"
#include "cmm/Scheduling/Schedule.h"

#include "mlir/IR/Builders.h"

#include <string>

namespace cmm::planning {

using scheduling::MachineModel;
using scheduling::Schedule;
using scheduling::TaskGraph;
using scheduling::TaskKind;
using tiling::OpDecl;

/// The IR kind of a planner task kind; Abstract (tests only) has none.
std::optional<tg::TaskKind> toIRKind(TaskKind kind);
TaskKind toPlannerKind(tg::TaskKind kind);

/// An unscheduled `cmmtg.graph @function tile_size tileSize`: the
/// declarations of `ops`, then one `cmmtg.task` per task, in task-id
/// (topological) order, naming the declaration of its op (Task::opIndex
/// into `ops`). Every data item must have its shape (DataItem::rows, cols),
/// as Tiling.cpp records it.
tg::GraphOp emitTaskGraph(mlir::OpBuilder &builder, mlir::Location loc,
                          const TaskGraph &graph, llvm::ArrayRef<OpDecl> ops,
                          int64_t tileSize, llvm::StringRef function = "main");

/// What a scheduled graph records about its plan.
struct PlanSummary {
  std::string scheduler; // "heft", "roundrobin"
  unsigned nodes = 1;    // nodes of the machine
  double makespan = 0;   // predicted (simulated) makespan, seconds
};

/// The summary of a plan on `machine`.
PlanSummary summarizePlan(const MachineModel &machine,
                          llvm::StringRef scheduler, double makespan);

/// The scheduled `cmmtg.graph` of `graph` under `schedule` (a plan that
/// passed verifySchedule): the declarations of `ops` (as emitTaskGraph),
/// every task with its node, worker, start and
/// finish; a `cmmtg.recv` per transfer and a `cache_put`/`evict` per cache
/// event; the whole in start-time order (definitions before uses). Each use
/// of a tile takes the copy on the user's node at the user's start (the
/// producer's result or the latest transfer there, not evicted since).
/// Returns a null op, with `error` set, when the plan cannot be rendered
/// (a task input not on the task's node).
tg::GraphOp emitScheduledGraph(mlir::OpBuilder &builder, mlir::Location loc,
                               const TaskGraph &graph,
                               llvm::ArrayRef<OpDecl> ops,
                               const Schedule &schedule, int64_t tileSize,
                               const PlanSummary &summary, std::string &error,
                               llvm::StringRef function = "main");

/// The task graph of a `cmmtg.graph`, scheduled or not (placement, transfers
/// and cache commands are ignored; a recv result is the data item it
/// copies; a `distributed_gemm`'s `nodes` are its gang), and its op
/// declarations in `ops` when given.
mlir::LogicalResult readTaskGraph(tg::GraphOp op, TaskGraph &graph,
                                  std::vector<OpDecl> *ops = nullptr);

} // namespace cmm::planning

#endif // CMM_PLANNING_TASKGRAPHIR_H
