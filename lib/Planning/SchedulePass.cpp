//===- SchedulePass.cpp - Schedule the candidates, keep the best -*- C++
//-*-===//
//
// The IR form of planFunction's second half: the candidates are the
// unscheduled cmmtg.graph ops of the module (from cmm-tile, or written by
// hand), scheduled in parallel threads by scheduleCandidates; the best plan
// replaces its graph and the other candidates are erased.
//
//===----------------------------------------------------------------------===//

#include "cmm/Planning/MachineAttr.h"
#include "cmm/Planning/Passes.h"
#include "cmm/Planning/TaskGraphIR.h"

#include "cmm/Scheduling/GangGemm.h"

#include "mlir/Pass/PassRegistry.h"

namespace cmm {
#define GEN_PASS_DEF_SCHEDULETASKGRAPH
#include "cmm/Planning/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "cmm/Planning/Passes.h.inc"
} // namespace cmm

using namespace mlir;
using namespace cmm;
using namespace cmm::scheduling;
using namespace cmm::planning;

void cmm::registerPlanningPasses() { registerCmmPlanningPasses(); }

namespace {
struct ScheduleTaskGraphPass
    : public cmm::impl::ScheduleTaskGraphBase<ScheduleTaskGraphPass> {
  using ScheduleTaskGraphBase::ScheduleTaskGraphBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::vector<tg::GraphOp> graphs;
    for (auto graph : module.getOps<tg::GraphOp>())
      if (!graph.isScheduled())
        graphs.push_back(graph);
    if (graphs.empty()) {
      mlir::emitError(module.getLoc(),
                      "cmm-schedule: no unscheduled cmmtg.graph to schedule "
                      "(run cmm-tile first, or cmm-plan to tile and schedule)");
      return signalPassFailure();
    }

    MachineModel machine;
    if (std::string error;
        !machineModelOf(module, machineModel, nodes, machine, error)) {
      mlir::emitError(module.getLoc(), "cmm-schedule: ") << error;
      return signalPassFailure();
    }

    std::vector<PlanCandidate> candidates(graphs.size());
    std::vector<std::vector<OpDecl>> ops(graphs.size());
    for (auto [graph, candidate, decls] : llvm::zip(graphs, candidates, ops)) {
      candidate.tileSize = graph.getTileSize();
      if (failed(readTaskGraph(graph, candidate.graph, &decls)))
        return signalPassFailure();
      for (const Task &task : candidate.graph.tasks())
        if (task.pinnedNode >= int(machine.nodes.size())) {
          mlir::emitError(graph.getLoc(), "cmm-schedule: task '")
              << task.name << "' is pinned to node " << task.pinnedNode
              << " of a machine with " << machine.nodes.size() << " node(s)";
          return signalPassFailure();
        }
      for (const Task &task : candidate.graph.tasks()) {
        for (unsigned n : task.gangNodes)
          if (n >= machine.nodes.size()) {
            mlir::emitError(graph.getLoc(), "cmm-schedule: task '")
                << task.name << "' has gang node " << n << " on a machine with "
                << machine.nodes.size() << " node(s)";
            return signalPassFailure();
          }
        // A distributed product must fit in the memory of its ranks.
        GangGemmCost gang;
        std::string error;
        if (task.isGang() &&
            !gangGemmCost(machine, task.gangNodes, task.m, task.n, task.k,
                          gangMemoryBytes(machine), gang, error)) {
          mlir::emitError(graph.getLoc(), "cmm-schedule: task '")
              << task.name << "': " << error;
          return signalPassFailure();
        }
      }
    }

    PlanOptions options;
    options.scheduler = scheduler;
    options.schedule.useTileCache = tileCache;
    options.schedule.modelCommunicators = communicators;
    options.parallel = getContext().isMultithreadingEnabled();
    size_t chosen = 0;
    std::string error;
    if (!scheduleCandidates(candidates, machine, options, chosen, error)) {
      mlir::emitError(module.getLoc(), "cmm-schedule: ") << error;
      return signalPassFailure();
    }
    for (const PlanCandidate &c : candidates)
      (c.scheduled() ? numCandidates : numPruned) += 1;

    const PlanCandidate &best = candidates[chosen];
    tg::GraphOp original = graphs[chosen];
    PlanSummary summary = summarizePlan(
        machine, scheduler == SchedulerKind::HEFT ? "heft" : "roundrobin",
        best.simulation.makespan);
    OpBuilder builder(original);
    tg::GraphOp scheduled =
        emitScheduledGraph(builder, original.getLoc(), best.graph, ops[chosen],
                           best.emittedSchedule(), best.tileSize, summary,
                           error, original.getFunction());
    if (!scheduled) {
      mlir::emitError(original.getLoc(), "cmm-schedule: internal error: ")
          << error;
      return signalPassFailure();
    }
    attachMachineModel(module, machine);
    numTransfers += best.schedule.transfers.size();
    for (tg::GraphOp graph : graphs)
      graph.erase();
  }
};
} // namespace
