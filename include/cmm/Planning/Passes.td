//===- Passes.td - cmm planning passes --------------------*- tablegen -*-===//
//
// The planning stages on IR. `cmm-plan` is the planner of the compiler (the
// paper's Figure 1 steps 5-9): tile-size sweep, tiling, scheduling,
// simulation and the choice of the best plan, which it appends to the module
// as a scheduled `cmmtg.graph`. `cmm-tile` and `cmm-schedule` run its two
// halves separately on IR, for tests and for graphs written by hand.
//
// Each option is declared once here and shared by the passes that take it.
//
//===----------------------------------------------------------------------===//

#ifndef CMM_PLANNING_PASSES_TD
#define CMM_PLANNING_PASSES_TD

include "mlir/Pass/PassBase.td"

defvar TileSizesOption =
    ListOption<"tileSizes", "tile-sizes", "int64_t",
               "Candidate tile sizes (default: 10%, 20%, ..., 70% and 100% of "
               "the largest matrix dimension, without sizes that would make "
               "more than 200000 tasks)">;

// The machine: the module's `cmmtg.machine` attribute, else this file, else
// the built-in model; `nodes` resizes it.
defvar MachineOptions = [
  Option<"machineModel", "machine-model", "std::string", /*default=*/"\"\"",
         "Machine model JSON (docs/machine-model.md); default: the "
         "built-in model of this machine">,
  Option<"nodes", "nodes", "unsigned", /*default=*/"0",
         "Number of nodes (0: the model's; the built-in model has 1)">,
];

defvar SchedulerOptions = [
  Option<"scheduler", "scheduler", "cmm::planning::SchedulerKind",
         /*default=*/"cmm::planning::SchedulerKind::HEFT",
         "The list scheduler",
         [{cmm::planning::schedulerKindValues()}]>,
  Option<"tileCache", "tile-cache", "bool", /*default=*/"true",
         "Reuse tiles already on a node (the node-level tile cache)">,
  Option<"communicators", "communicators", "bool", /*default=*/"true",
         "A transfer occupies a communicator on both ends">,
];

def AttachMachineModel : Pass<"cmm-attach-machine-model", "mlir::ModuleOp"> {
  let summary = "Attach a machine model to the module (cmmtg.machine)";
  let description = [{
    Sets the module's `cmmtg.machine` attribute to the JSON model in `file`
    (docs/machine-model.md), or to the built-in model of this machine, with
    `nodes` nodes; the planning passes then plan for it. A model already
    attached is replaced.
  }];
  let dependentDialects = ["cmm::tg::TaskGraphDialect"];
  let options = [
    Option<"file", "file", "std::string", /*default=*/"\"\"",
           "Machine model JSON; default: the built-in model">,
    Option<"nodes", "nodes", "unsigned", /*default=*/"0",
           "Number of nodes (0: the model's; the built-in model has 1)">,
  ];
}

def PlanProgram : Pass<"cmm-plan", "mlir::ModuleOp"> {
  let summary = "Sweep tile sizes, schedule and simulate each candidate, "
                "append the best plan";
  let description = [{
    The planner (paper Figure 1 steps 5-9; docs/planner.md). For each
    candidate tile size, `func.func @main` is tiled into a task graph (with
    start-up sub-tiles under dynamic tiling, and with the products the cost
    model gives to COSMA under `gemm=auto`), scheduled on the machine model
    (HEFT with the node-level tile cache and communicators, or round robin),
    checked and simulated; the candidate with the smallest predicted
    makespan is appended to the module as a scheduled
    `cmmtg.graph @main`, which `cmm-translate --cmm-to-cpp` turns into a
    program, and the machine it was planned for is the module's
    `cmmtg.machine`. `report` writes the sweep (one line per candidate, the choice
    and the predicted speedup over one node); `plan-trace` and `plan-svg`
    draw the chosen plan. A `@main` with `cmm.while` or `cmm.if` is planned
    segment by segment instead (Planning/Segments.h): each straight-line
    run of ops is outlined into a private `@main_segN`, planned for the
    model as given (`configure` does not apply) and appended as
    `cmmtg.graph @main_segN`; `@main` keeps the control flow and calls;
    `report` has each segment's sweep, the trips each loop is assumed to
    run and the program's prediction (docs/planner.md, "Run-time control
    flow").
  }];
  let dependentDialects = ["cmm::tg::TaskGraphDialect"];
  let options = !listconcat([TileSizesOption], MachineOptions,
                            SchedulerOptions, [
    Option<"gemm", "gemm", "cmm::planning::GemmChoice",
           /*default=*/"cmm::planning::GemmChoice::Auto",
           "How matrix products run (docs/cosma.md)",
           [{cmm::planning::gemmChoiceValues()}]>,
    Option<"dynamicTiling", "dynamic-tiling", "cmm::planning::DynamicTiling",
           /*default=*/"cmm::planning::DynamicTiling::Auto",
           "Start matrices with fewer tiles than workers in sub-tiles "
           "(paper section 3.2)", [{cmm::planning::dynamicTilingValues()}]>,
    Option<"configure", "configure", "cmm::planning::Configure",
           /*default=*/"cmm::planning::Configure::File",
           "Workers and communicators of each node: as the machine model "
           "gives them, or chosen by simulating each split of the node's "
           "cores (paper section 3.6, Tables 9 and 10)",
           [{cmm::planning::configureValues()}]>,
    Option<"report", "report", "std::string", /*default=*/"\"\"",
           "Write the sweep (every candidate, the choice, the predicted "
           "speedup over one node) to this file ('-': standard output)">,
    Option<"planTrace", "plan-trace", "std::string", /*default=*/"\"\"",
           "Write the chosen plan's predicted schedule as Chrome trace "
           "events (open in Perfetto)">,
    Option<"planSvg", "plan-svg", "std::string", /*default=*/"\"\"",
           "Draw the chosen plan as an SVG Gantt chart">,
  ]);
  let statistics = [
    Statistic<"numCandidates", "candidates", "candidate plans scheduled">,
    Statistic<"numPruned", "pruned",
              "candidates not scheduled: lower bound above a plan found">,
    Statistic<"numTasks", "tasks", "tasks in the kept plan">,
    Statistic<"numTransfers", "transfers", "transfers in the kept plan">,
  ];
}

def TileTaskGraph : Pass<"cmm-tile", "mlir::ModuleOp"> {
  let summary = "Tile @main into one task graph per candidate tile size";
  let description = [{
    The first half of `cmm-plan`, on IR. Cuts every matrix of
    `func.func @main` into square tiles with the paper's tile function
    (ceil(rows / t) x ceil(cols / t) tiles, ragged at the edges) and turns
    each cmm op into tile tasks (Conversion/CmmToTaskGraph/Tiling.h): products into chains of
    `gemm`/`gemm_acc` tasks per output tile, elementwise ops tile by tile,
    reductions into partials and combines, inv/solve into one `solve` task,
    print/save into a `gather` to the master. Appends one unscheduled
    `cmmtg.graph @main tile_size T` per candidate size T to the module;
    `@main` itself is kept.
  }];
  let dependentDialects = ["cmm::tg::TaskGraphDialect"];
  let options = [
    TileSizesOption,
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
    The second half of `cmm-plan`, on IR. Reads every unscheduled
    `cmmtg.graph` of the module, schedules each on the machine model (HEFT
    with the node-level tile cache and communicators as resources, or the
    round-robin baseline) in parallel threads, checks each plan
    (verifySchedule) and replays it in the discrete-event simulator. The
    graph with the smallest simulated makespan is replaced by its scheduled
    form (placement of every task, `recv` for every transfer,
    `cache_put`/`evict` for the tile cache, and the `makespan`, `scheduler`
    and `nodes` of the plan); the other candidates are erased. A module
    without unscheduled graphs is an error.
  }];
  let dependentDialects = ["cmm::tg::TaskGraphDialect"];
  let options = !listconcat(MachineOptions, SchedulerOptions);
  let statistics = [
    Statistic<"numCandidates", "candidates", "candidate graphs scheduled">,
    Statistic<"numPruned", "pruned",
              "candidates not scheduled: lower bound above a plan found">,
    Statistic<"numTransfers", "transfers", "transfers in the kept plan">,
  ];
}

#endif // CMM_PLANNING_PASSES_TD
