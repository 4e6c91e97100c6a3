//===- Passes.td - cmm planning passes --------------------*- tablegen -*-===//
//
// The planning stages on IR: `cmm-tile` cuts `@main` into one tiled task
// graph (cmmtg.graph) per candidate tile size; `cmm-schedule` schedules every
// candidate (HEFT or round-robin, in parallel threads), checks and simulates
// each plan, and keeps the one with the smallest predicted makespan.
//
//===----------------------------------------------------------------------===//

#ifndef CMM_PLANNING_PASSES_TD
#define CMM_PLANNING_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileTaskGraph : Pass<"cmm-tile", "mlir::ModuleOp"> {
  let summary = "Tile @main into one task graph per candidate tile size";
  let description = [{
    Cuts every matrix of `func.func @main` into square tiles with the paper's
    tile function (ceil(rows / t) x ceil(cols / t) tiles, ragged at the
    edges) and turns each cmm op into tile tasks (Planning/Tiling.h):
    products into chains of `gemm`/`gemm_acc` tasks per output tile,
    elementwise ops tile by tile, reductions into partials and combines,
    inv/solve into one `solve` task, print/save into a `gather` to the
    master. Appends one unscheduled `cmmtg.graph @main tile_size T` per
    candidate size T to the module; `@main` itself is kept.
  }];
  let dependentDialects = ["cmm::tg::TaskGraphDialect"];
  let options = [
    ListOption<"tileSizes", "tile-sizes", "int64_t",
               "Candidate tile sizes (default: 10%, 20%, ..., 70% and 100% of the "
               "largest matrix dimension)">,
    Option<"dynamicWorkers", "dynamic-tiling-workers", "unsigned",
           /*default=*/"0",
           "Dynamic tiling (paper section 3.2) for a machine with this many "
           "workers: start-up matrices with fewer tiles than workers are cut "
           "into sub-tiles and merged back later (0: off)">,
    Option<"cosmaNodes", "cosma-nodes", "unsigned", /*default=*/"0",
           "Make every product one distributed_gemm (COSMA) gang task over "
           "nodes 0..N-1 (0: products are gemm-accumulate tiles)">,
  ];
}

def ScheduleTaskGraph : Pass<"cmm-schedule", "mlir::ModuleOp"> {
  let summary = "Schedule the candidate task graphs and keep the best plan";
  let description = [{
    Reads every unscheduled `cmmtg.graph` of the module, schedules each on
    the machine model (HEFT with the node-level tile cache and communicators
    as resources, or the round-robin baseline) in parallel threads, checks
    each plan (verifySchedule) and replays it in the discrete-event
    simulator. The graph with the smallest simulated makespan is replaced by
    its scheduled form (placement of every task, `recv` for every transfer,
    `cache_put`/`evict` for the tile cache, and the `makespan`, `scheduler`
    and `nodes` of the plan); the other candidates are erased.
  }];
  let dependentDialects = ["cmm::tg::TaskGraphDialect"];
  let options = [
    Option<"machineModel", "machine-model", "std::string", /*default=*/"\"\"",
           "Machine model JSON (docs/machine-model.md); default: the "
           "built-in model of this machine">,
    Option<"nodes", "nodes", "unsigned", /*default=*/"0",
           "Number of nodes (0: the model's; the built-in model has 1)">,
    Option<"scheduler", "scheduler", "cmm::planner::SchedulerKind",
           /*default=*/"cmm::planner::SchedulerKind::HEFT",
           "The list scheduler", [{::llvm::cl::values(
             clEnumValN(cmm::planner::SchedulerKind::HEFT, "heft",
                        "HEFT with the tile cache (Topcuoglu et al. 2002)"),
             clEnumValN(cmm::planner::SchedulerKind::RoundRobin, "roundrobin",
                        "tasks in topological order on workers in turn"))}]>,
    Option<"tileCache", "tile-cache", "bool", /*default=*/"true",
           "Reuse tiles already on a node (the node-level tile cache)">,
    Option<"communicators", "communicators", "bool", /*default=*/"true",
           "A transfer occupies a communicator on both ends">,
  ];
  let statistics = [
    Statistic<"numCandidates", "candidates", "candidate graphs scheduled">,
    Statistic<"numTransfers", "transfers", "transfers in the kept plan">,
  ];
}

#endif // CMM_PLANNING_PASSES_TD
