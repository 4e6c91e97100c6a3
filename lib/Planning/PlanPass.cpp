//===- PlanPass.cpp - cmm-plan: the tile-size sweep on IR -------*- C++ -*-===//
//
// The planner as a pass: plans `@main` (planFunction: tiling per candidate
// tile size, scheduling, checking, simulation, the choice) and appends the
// chosen plan to the module as a scheduled `cmmtg.graph`. Every route to a
// program (cmmc, cmm-opt pipelines, an embedding compiler) plans here.
//
//===----------------------------------------------------------------------===//

#include "cmm/Planning/MachineAttr.h"
#include "cmm/Planning/Passes.h"
#include "cmm/Planning/Segments.h"
#include "cmm/Planning/TaskGraphIR.h"

#include "cmm/Dialect/Cmm/CmmDialect.h"
#include "cmm/Scheduling/PlanOutput.h"

#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/ToolOutputFile.h"

namespace cmm {
#define GEN_PASS_DEF_PLANPROGRAM
#include "cmm/Planning/Passes.h.inc"
} // namespace cmm

using namespace mlir;
using namespace cmm;
using namespace cmm::scheduling;
using namespace cmm::planning;

namespace {
struct PlanProgramPass : public cmm::impl::PlanProgramBase<PlanProgramPass> {
  using PlanProgramBase::PlanProgramBase;

  void runOnOperation() override;

private:
  /// A program with run-time control flow: its segments planned one by one
  /// (Segments.h).
  void planSegments(ModuleOp module, func::FuncOp main,
                    const MachineModel &machine);
  /// Emits the cmmtg.graph of `plan`'s best candidate for `func` on
  /// `planned` at the end of `module`, and counts it (the statistics).
  LogicalResult emitBest(ModuleOp module, func::FuncOp func, const Plan &plan,
                         const MachineModel &planned) {
    for (const PlanCandidate &c : plan.candidates)
      (c.scheduled() ? numCandidates : numPruned) += 1;
    const PlanCandidate &best = plan.best();
    PlanSummary summary = summarizePlan(
        planned, scheduler == SchedulerKind::HEFT ? "heft" : "roundrobin",
        best.simulation.makespan);
    OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
    std::string error;
    if (!emitScheduledGraph(builder, func.getLoc(), best.graph, plan.ops,
                            best.emittedSchedule(), best.tileSize, summary,
                            error, func.getSymName()))
      return emitError(func.getLoc(), "cmm-plan: internal error: ") << error;
    numTasks += best.graph.size();
    numTransfers += best.schedule.transfers.size();
    return success();
  }

  PlanOptions plannerOptions() {
    PlanOptions options;
    options.tileSizes.assign(tileSizes.begin(), tileSizes.end());
    options.scheduler = scheduler;
    options.schedule.useTileCache = tileCache;
    options.schedule.modelCommunicators = communicators;
    options.dynamicTiling = dynamicTiling;
    options.gemm = gemm;
    options.configure = configure;
    options.parallel = getContext().isMultithreadingEnabled();
    return options;
  }

  /// Writes `write(os)` to `path` ('-': standard output).
  LogicalResult writeFile(StringRef path,
                          llvm::function_ref<void(raw_ostream &)> write) {
    std::string error;
    auto file = openOutputFile(path, &error);
    if (!file)
      return emitError(UnknownLoc::get(&getContext()), "cmm-plan: ") << error;
    write(file->os());
    file->keep();
    return success();
  }
};
} // namespace

void PlanProgramPass::runOnOperation() {
  ModuleOp module = getOperation();
  // Errors about the options or the program as a whole have no source
  // location; errors about one op are reported at it.
  Location nowhere = UnknownLoc::get(&getContext());
  auto main = module.lookupSymbol<func::FuncOp>("main");
  if (!main || main.isExternal()) {
    emitError(module.getLoc(), "cmm-plan: no func.func @main with a body");
    return signalPassFailure();
  }
  for (auto graph : module.getOps<tg::GraphOp>())
    if (graph.getFunction() == main.getSymName()) {
      emitError(graph.getLoc(), "cmm-plan: @main already has a task graph "
                                "(plan a module once)");
      return signalPassFailure();
    }

  MachineModel machine;
  std::string error;
  if (!machineModelOf(module, machineModel, nodes, machine, error)) {
    emitError(nowhere) << error;
    return signalPassFailure();
  }
  if (hasRunTimeControl(main))
    return planSegments(module, main, machine);
  PlanOptions options = plannerOptions();
  Plan plan;
  Operation *failedOp = nullptr;
  if (!planFunction(main, machine, options, plan, error, &failedOp)) {
    emitError(failedOp ? failedOp->getLoc() : nowhere) << error;
    return signalPassFailure();
  }
  const PlanCandidate &best = plan.best();
  // The machine the chosen plan is for: the model as given, or the
  // configuration configure=auto chose (what the program runs).
  const MachineModel &planned = plan.machine();
  if (failed(emitBest(module, main, plan, planned)))
    return signalPassFailure();
  attachMachineModel(module, planned); // what the plan is for

  // The sweep and pictures of the chosen plan.
  MachineCostModel cost(planned);
  std::string label = "tile size " + std::to_string(best.tileSize) + ", " +
                      planned.name + ", " +
                      std::to_string(planned.nodes.size()) + " node(s)";
  auto sweep = [&](raw_ostream &os) {
    printPlanReport(main, plan, machine, options, os);
  };
  auto trace = [&](raw_ostream &os) {
    writeChromeTrace(best.graph, best.simulation.replayed, cost, os, label);
  };
  auto gantt = [&](raw_ostream &os) {
    writeGanttSVG(best.graph, best.simulation.replayed, cost, os, label);
  };
  for (auto [path, write] :
       {std::pair<StringRef, llvm::function_ref<void(raw_ostream &)>>{report,
                                                                      sweep},
        {planTrace, trace},
        {planSvg, gantt}})
    if (!path.empty() && failed(writeFile(path, write)))
      return signalPassFailure();
}

/// The chosen plans of a program's segments one after another, each once in
/// program order, as one graph and one schedule (for --plan-trace and
/// --plan-svg); each task's name starts with its segment ("seg1 ...").
static std::pair<TaskGraph, Schedule>
concatenatePlans(const std::vector<Plan> &plans) {
  TaskGraph all;
  Schedule joined;
  double offset = 0;
  for (auto [k, plan] : llvm::enumerate(plans)) {
    const PlanCandidate &best = plan.best();
    const TaskGraph &graph = best.graph;
    const Schedule &s = best.simulation.replayed;
    std::vector<DataId> dataOf(graph.data().size());
    std::vector<TaskId> taskOf(graph.size());
    for (TaskId t = 0; t < graph.size(); ++t) {
      scheduling::Task task = graph.task(t);
      task.name = "seg" + std::to_string(k) + " " + task.name;
      for (DataId &d : task.inputs)
        d = dataOf[d];
      task.outputs.clear();
      taskOf[t] = all.addTask(std::move(task));
      for (DataId d : graph.task(t).outputs) {
        const DataItem &item = graph.item(d);
        dataOf[d] = all.addData(taskOf[t], item.bytes, item.name);
        all.setRegion(dataOf[d], item.row0, item.col0, item.rows, item.cols);
      }
      TaskPlacement p = s.placement[t];
      p.start += offset;
      p.finish += offset;
      joined.placement.push_back(std::move(p));
    }
    for (Transfer x : s.transfers) {
      x.data = dataOf[x.data];
      x.start += offset;
      x.finish += offset;
      if (x.fetchedBy >= 0)
        x.fetchedBy = long(taskOf[x.fetchedBy]);
      joined.transfers.push_back(x);
    }
    for (CacheEvent e : s.cacheEvents) {
      e.data = dataOf[e.data];
      e.time += offset;
      joined.cacheEvents.push_back(e);
    }
    joined.cacheHits += s.cacheHits;
    joined.bytesMoved += s.bytesMoved;
    offset += best.simulation.makespan;
  }
  joined.makespan = offset;
  return {std::move(all), std::move(joined)};
}

void PlanProgramPass::planSegments(ModuleOp module, func::FuncOp main,
                                   const MachineModel &machine) {
  PlanOptions options = plannerOptions();
  // One machine for every segment: the program's ranks run them all.
  options.configure = Configure::File;
  SmallVector<func::FuncOp> segments = outlineSegments(main);
  llvm::StringMap<Operation *> callOf;
  main.walk([&](func::CallOp call) { callOf[call.getCallee()] = call; });

  std::string text, error;
  llvm::raw_string_ostream os(text);
  double total = 0;
  // A segment inside a loop is planned for its steady state: the freed
  // heap is kept (docs/machine-model.md, first touch), so after the first
  // trip its tiles land on pages touched before.
  MachineModel steady = machine;
  for (NodeSpec &node : steady.nodes)
    node.firstTouch = 0;
  // Last to first: a segment that imports a value as loop-invariant places
  // its tiles freely, and the segment that makes the value is then told
  // where they went (tiling::kKeepOnAttr), so it keeps each tile on that
  // node instead of gathering the value to the master, and plans for it.
  std::vector<Plan> plans(segments.size());
  llvm::DenseMap<Value, std::pair<SmallVector<int64_t>, int64_t>> wanted;
  for (size_t index = segments.size(); index-- > 0;) {
    func::FuncOp segment = segments[index];
    Operation *call = callOf.lookup(segment.getSymName());
    for (auto [i, result] : llvm::enumerate(call->getResults()))
      if (auto it = wanted.find(result); it != wanted.end())
        segment.setResultAttr(
            unsigned(i), tiling::kKeepOnAttr,
            DenseI64ArrayAttr::get(segment.getContext(), it->second.first));
    Plan &plan = plans[index];
    Operation *failedOp = nullptr;
    int64_t runs = assumedRuns(call);
    if (!planFunction(segment, runs > 1 ? steady : machine, options, plan,
                      error, &failedOp)) {
      emitError(failedOp ? failedOp->getLoc() : segment.getLoc()) << error;
      return signalPassFailure();
    }
    // Where this plan reads its invariant imports; the segment run most
    // often decides where a value made once is kept.
    const PlanCandidate &best = plan.best();
    for (unsigned i = 0; i < segment.getNumArguments(); ++i) {
      if (!segment.getArgAttr(i, tiling::kInvariantAttr))
        continue;
      SmallVector<int64_t> tiles;
      for (TaskId t = 0; t < best.graph.size(); ++t) {
        const scheduling::Task &task = best.graph.task(t);
        if (task.kind != TaskKind::Load || task.opIndex != int(i) ||
            task.outputs.size() != 1)
          continue;
        const DataItem &tile = best.graph.item(task.outputs[0]);
        tiles.append({tile.row0, tile.col0, tile.rows, tile.cols,
                      int64_t(best.schedule.placement[t].node)});
      }
      auto &[where, by] = wanted[call->getOperand(i)];
      if (runs > by) {
        where = std::move(tiles);
        by = runs;
      }
    }
  }
  for (auto [index, segment] : llvm::enumerate(segments)) {
    const Plan &plan = plans[index];
    int64_t runs = assumedRuns(callOf.lookup(segment.getSymName()));
    // The machine of the chosen plan: a master-alone plan gives the master
    // every core's BLAS threads (plan.machine()).
    if (failed(emitBest(module, segment, plan, plan.machine())))
      return signalPassFailure();
    if (plan.best().machine != 0) // the graph emitBest appended
      cast<tg::GraphOp>(module.getBody()->back())
          ->setAttr(tg::TaskGraphDialect::kMachineAttrName,
                    toMachineAttr(module.getContext(), plan.machine()));
    total += double(runs) * plan.best().simulation.makespan;
    if (report.empty())
      continue;
    os << "segment " << index << " (@" << segment.getSymName() << ", from ";
    if (auto loc = dyn_cast<FileLineColLoc>(segment.getLoc()))
      os << loc.getFilename().getValue() << ":" << loc.getLine() << ":"
         << loc.getColumn();
    os << "), assumed to run " << runs << " time(s):\n";
    printPlanReport(segment, plan, machine, options, os);
  }
  attachMachineModel(module, machine);
  // The pictures: every segment's chosen plan once, in program order.
  if (!planTrace.empty() || !planSvg.empty()) {
    auto [graph, schedule] = concatenatePlans(plans);
    MachineCostModel cost(machine);
    std::string label = std::to_string(segments.size()) +
                        " segment(s), each once in program order, " +
                        machine.name + ", " +
                        std::to_string(machine.nodes.size()) + " node(s)";
    if (!planTrace.empty() &&
        failed(writeFile(planTrace, [&](raw_ostream &out) {
          writeChromeTrace(graph, schedule, cost, out, label);
        })))
      return signalPassFailure();
    if (!planSvg.empty() && failed(writeFile(planSvg, [&](raw_ostream &out) {
          writeGanttSVG(graph, schedule, cost, out, label);
        })))
      return signalPassFailure();
  }
  if (report.empty())
    return;
  main.walk([&](WhileOp loop) {
    os << "loop at ";
    if (auto loc = dyn_cast<FileLineColLoc>(loop.getLoc()))
      os << loc.getFilename().getValue() << ":" << loc.getLine() << ":"
         << loc.getColumn();
    os << ": the plans assume " << loop.getAssumedTrips() << " trip(s) ("
       << (loop.getExpectedTrips()
               ? "from its '# expect' comment"
               : "the default; write '# expect N' on the while line")
       << ")\n";
  });
  os << llvm::format("program: %zu segment(s), predicted makespan %.4g s at "
                     "the assumed trips\n",
                     segments.size(), total);
  if (failed(writeFile(report, [&](raw_ostream &out) { out << text; })))
    return signalPassFailure();
}
