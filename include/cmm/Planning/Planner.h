//===- Planner.h - Tile-size sweep, scheduling and simulation ---*- C++ -*-===//
//
// The Cloud Matrix Machine's planning step (paper Figure 1 steps 5-9): for
// each candidate tile size, tile the program, schedule the task graph (HEFT
// with the tile cache, or a round-robin baseline), check the plan, simulate
// it with the machine's time model, and keep the candidate with the smallest
// predicted makespan. Candidates are scheduled in parallel threads.
//
//===----------------------------------------------------------------------===//

#ifndef CMM_PLANNING_PLANNER_H
#define CMM_PLANNING_PLANNER_H

#include "cmm/Conversion/CmmToTaskGraph/OpDecls.h"
#include "cmm/Scheduling/MemoryTimeline.h"
#include "cmm/Scheduling/Schedulers.h"
#include "cmm/Scheduling/Simulator.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace cmm::planning {

using scheduling::Bounds;
using scheduling::MachineModel;
using scheduling::MemoryPressure;
using scheduling::Schedule;
using scheduling::SchedulerOptions;
using scheduling::SimulationReport;
using scheduling::TaskGraph;
using tiling::OpDecl;

enum class SchedulerKind { HEFT, RoundRobin };

/// Dynamic tiling (paper section 3.2; Tiling.h) in the sweep: never; both
/// variants of a tile size where it applies, the better wins; or only the
/// dynamic variant where it applies (to compare, as the paper's Table 6).
enum class DynamicTiling { Off, Auto, Always };

/// How products are run (docs/cosma.md): chosen per product by the cost model
/// (COSMA where GangGemm.h predicts it faster than the tiled product, and
/// the sweep keeps such a variant only if the whole plan is faster), always
/// as gemm-accumulate tiles, or always as COSMA gang tasks.
enum class GemmChoice { Auto, Tiled, Cosma };

/// Workers and communicators of each node (paper section 3.6, Tables 9 and
/// 10): as the machine model gives them, or chosen by simulation: for each
/// class of alike nodes in turn, every split of the node's cores between
/// communicators and workers (of the model's threads each) is planned at
/// the chosen tile size and the fastest kept.
enum class Configure { File, Auto };

/// The names of the choices above on the command line, once for the pass
/// options (Passes.td) and cmmc's flags.
llvm::cl::ValuesClass schedulerKindValues();
llvm::cl::ValuesClass dynamicTilingValues();
llvm::cl::ValuesClass gemmChoiceValues();
llvm::cl::ValuesClass configureValues();

struct PlanOptions {
  std::vector<int64_t> tileSizes; // empty: defaultTileSizes()
  SchedulerKind scheduler = SchedulerKind::HEFT;
  SchedulerOptions schedule;
  bool parallel = true; // one thread per candidate (at most the cores)
  /// For each tile size where the start-up matrices have fewer tiles than
  /// the machine has workers, whether candidates start them in sub-tiles.
  DynamicTiling dynamicTiling = DynamicTiling::Auto;
  GemmChoice gemm = GemmChoice::Auto;
  Configure configure = Configure::File;
};

struct PlanCandidate {
  int64_t tileSize = 0;
  int64_t startupTileSize = 0; // below tileSize: dynamic tiling
  TaskGraph graph;
  Schedule schedule;
  SimulationReport simulation;
  Bounds bounds;
  double zeroCommMakespan = 0; // free communication (Table 7), Planner.cpp
  unsigned gangGemms = 0;      // products run as COSMA gang tasks
  /// Every task pinned to the master, the other nodes left idle: on small
  /// problems communication can cost more than the other nodes give.
  bool masterOnly = false;
  /// The machine it is planned for: an index into Plan::machines (0: the
  /// model as given; others: a configuration of the sweep).
  unsigned machine = 0;
  /// Why it was pruned, or empty: its lower bound (`bounds`, known before
  /// scheduling) exceeds the simulated makespan of a plan that fits, so it
  /// cannot be chosen (scheduleCandidates); which side of the grain size
  /// it is on. Its schedule and simulation are not to be read.
  std::string pruned;
  bool scheduled() const { return pruned.empty(); }
  /// The nodes the chosen schedule puts tasks on.
  unsigned nodesUsed() const;
  /// `schedule` with each event's firstTouch from the simulation: what a
  /// plan is emitted as.
  Schedule emittedSchedule() const;
};

/// memoryPressure (MemoryTimeline.h) of a candidate's simulated peaks on
/// `machine`'s nodes: a candidate that does not fit is never chosen.
MemoryPressure memoryPressure(const PlanCandidate &candidate,
                              const MachineModel &machine);

struct Plan {
  std::vector<OpDecl> ops; // what the tasks compute (Task::opIndex)
  std::vector<PlanCandidate> candidates;
  /// The machines candidates are planned for: the model as given first,
  /// then the configurations of `configure=auto`.
  std::vector<MachineModel> machines;
  size_t chosen = 0;
  double planningSeconds = 0;
  const PlanCandidate &best() const { return candidates[chosen]; }
  /// The machine the chosen plan is for: what the program runs.
  const MachineModel &machine() const { return machines[best().machine]; }
};

/// Schedules (in parallel threads when `options.parallel`), checks with
/// verifySchedule and simulates the candidates whose `tileSize` and `graph`
/// are set, and sets `chosen` to the one with the smallest simulated
/// makespan (the first among equals) among those that fit in memory
/// (memoryPressure <= 1); false with a message on error, and when no
/// candidate fits (naming the memory the least demanding one needs). Each
/// candidate is planned for `machines[candidate.machine]`. Candidates go in
/// the order of their lower bounds (`bounds`, set for every candidate); one
/// whose bound exceeds the makespan of a plan already found that fits is
/// not scheduled; every candidate whose bound exceeds the chosen plan's
/// makespan is marked `pruned` (says why), whether or not a thread had
/// scheduled it, so the result does not depend on the number of threads.
bool scheduleCandidates(std::vector<PlanCandidate> &candidates,
                        const std::vector<MachineModel> &machines,
                        const PlanOptions &options, size_t &chosen,
                        std::string &error);
/// The same for candidates all planned for one machine.
bool scheduleCandidates(std::vector<PlanCandidate> &candidates,
                        const MachineModel &machine, const PlanOptions &options,
                        size_t &chosen, std::string &error);

/// A node's workers and communicators in a few words ("4 workers x 2
/// threads + 10 communicators").
std::string describeConfiguration(const scheduling::NodeSpec &node);

/// The machine a pass plans for: the JSON model at `path` (empty: the
/// built-in model of this machine) with `nodes` nodes (0: the model's);
/// false with a message (naming the file) on error.
bool resolveMachineModel(const std::string &path, unsigned nodes,
                         MachineModel &machine, std::string &error);

/// Plans `func` for `machine`; false with a message on error, and the op
/// the error is about in `*errorOp` (null for the program as a whole).
bool planFunction(mlir::func::FuncOp func, const MachineModel &machine,
                  const PlanOptions &options, Plan &plan, std::string &error,
                  mlir::Operation **errorOp = nullptr);

/// The sweep report (`cmm-plan report=`, `cmmc --emit=plan`): one line per
/// candidate, the choice, and on several nodes the predicted speedup over
/// one node of the same kind (`func` planned again at the chosen size).
void printPlanReport(mlir::func::FuncOp func, const Plan &plan,
                     const MachineModel &machine, const PlanOptions &options,
                     llvm::raw_ostream &os);

} // namespace cmm::planning

#endif // CMM_PLANNING_PLANNER_H
