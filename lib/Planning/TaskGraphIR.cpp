//===- TaskGraphIR.cpp - Task graphs and plans as cmmtg IR ------*- C++ -*-===//

#include "cmm/Planning/TaskGraphIR.h"

#include "llvm/ADT/DenseMap.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <map>
#include <queue>
#include <tuple>

using namespace mlir;
using namespace cmm;
using namespace cmm::scheduling;
using namespace cmm::planning;

//===----------------------------------------------------------------------===//
// Kind mappings
//===----------------------------------------------------------------------===//

// Both enumerate cmmrt/TaskKinds.def; the planner's adds Abstract.
std::optional<tg::TaskKind> cmm::planning::toIRKind(TaskKind kind) {
  if (kind == TaskKind::Abstract)
    return std::nullopt;
  return static_cast<tg::TaskKind>(kind);
}

TaskKind cmm::planning::toPlannerKind(tg::TaskKind kind) {
  return static_cast<TaskKind>(kind);
}

//===----------------------------------------------------------------------===//
// Emission
//===----------------------------------------------------------------------===//

namespace {

tg::TileType tileTypeOf(MLIRContext *ctx, const DataItem &item) {
  assert(item.rows > 0 && item.cols > 0 && "data item without a shape");
  int64_t rows = item.rows > 0 ? item.rows : 1;
  int64_t cols = item.cols > 0
                     ? item.cols
                     : std::max<int64_t>(1, std::llround(item.bytes / 8.0));
  return tg::TileType::get(ctx, rows, cols);
}

/// The `cmmtg.op` declarations of `ops`, at the builder.
void emitOpDecls(OpBuilder &builder, ArrayRef<OpDecl> ops) {
  for (const OpDecl &decl : ops) {
    OperationState state(decl.loc, tg::OpDeclOp::getOperationName());
    state.addAttributes(decl.attrs.getValue());
    state.addAttribute(SymbolTable::getSymbolAttrName(),
                       builder.getStringAttr(decl.name));
    builder.create(state);
  }
}

/// A task op of `task` on `inputs`, without placement, located at its op.
tg::TaskOp createTask(OpBuilder &builder, Location loc, const TaskGraph &graph,
                      ArrayRef<OpDecl> ops, const Task &task,
                      ValueRange inputs) {
  bool declared = task.opIndex >= 0 && task.opIndex < int(ops.size());
  if (declared)
    loc = ops[task.opIndex].loc;
  MLIRContext *ctx = builder.getContext();
  std::optional<tg::TaskKind> kind = toIRKind(task.kind);
  assert(kind && "abstract tasks have no IR form");
  SmallVector<Type> results;
  for (DataId d : task.outputs)
    results.push_back(tileTypeOf(ctx, graph.item(d)));
  auto op = tg::TaskOp::create(builder, loc, results,
                               static_cast<uint32_t>(*kind), inputs,
                               /*name=*/nullptr, /*cost=*/nullptr,
                               /*m=*/nullptr, /*n=*/nullptr, /*k=*/nullptr,
                               /*pinned=*/nullptr, /*node=*/nullptr,
                               /*worker=*/nullptr, /*start=*/nullptr,
                               /*finish=*/nullptr, /*touch=*/nullptr,
                               /*nodes=*/nullptr,
                               /*op=*/nullptr, /*origins=*/nullptr);
  if (!task.name.empty())
    op.setNameAttr(builder.getStringAttr(task.name));
  if (task.op != tg::defaultCostClass(op.getTaskKind()))
    op.setCostAttr(builder.getI32IntegerAttr(static_cast<int32_t>(task.op)));
  // Time-model parameters; 1 is the default and is left out.
  auto param = [&](double v) -> IntegerAttr {
    int64_t i = std::max<int64_t>(1, std::llround(v));
    return i == 1 ? IntegerAttr() : builder.getI64IntegerAttr(i);
  };
  op.setMAttr(param(task.m));
  op.setNAttr(param(task.n));
  op.setKAttr(param(task.k));
  if (task.pinnedNode >= 0)
    op.setPinnedAttr(builder.getI64IntegerAttr(task.pinnedNode));
  if (declared)
    op.setOpAttr(FlatSymbolRefAttr::get(ctx, ops[task.opIndex].name));
  if (task.isGang())
    op.setNodesAttr(builder.getDenseI64ArrayAttr(
        SmallVector<int64_t>(task.gangNodes.begin(), task.gangNodes.end())));
  // Origins only when some tile does not start at (0, 0), so hand-written
  // graphs and one-tile matrices stay short.
  SmallVector<int64_t> origins;
  bool placed = false;
  for (DataId d : task.outputs) {
    origins.push_back(graph.item(d).row0);
    origins.push_back(graph.item(d).col0);
    placed |= graph.item(d).row0 || graph.item(d).col0;
  }
  if (placed)
    op.setOriginsAttr(builder.getDenseI64ArrayAttr(origins));
  return op;
}

} // namespace

tg::GraphOp cmm::planning::emitTaskGraph(OpBuilder &builder, Location loc,
                                         const TaskGraph &graph,
                                         ArrayRef<OpDecl> ops, int64_t tileSize,
                                         StringRef function) {
  auto graphOp = tg::GraphOp::create(builder, loc, function, tileSize);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(graphOp.getBodyBlock().getTerminator());
  emitOpDecls(builder, ops);
  std::vector<Value> values(graph.data().size());
  for (const Task &task : graph.tasks()) {
    SmallVector<Value> inputs;
    for (DataId d : task.inputs)
      inputs.push_back(values[d]);
    tg::TaskOp op = createTask(builder, loc, graph, ops, task, inputs);
    for (auto [d, result] : llvm::zip(task.outputs, op.getResults()))
      values[d] = result;
  }
  return graphOp;
}

namespace {

bool sameOrBefore(double a, double b) {
  return a <= b + 1e-9 * std::max({1.0, std::fabs(a), std::fabs(b)});
}

/// Renders a plan as IR: events (tasks, transfers, cache commands) in time
/// order, each use bound to the copy of its tile on its node.
class PlanEmitter {
public:
  PlanEmitter(const TaskGraph &graph, ArrayRef<OpDecl> ops,
              const Schedule &schedule)
      : graph(graph), ops(ops), schedule(schedule) {}

  bool run(OpBuilder &builder, Location loc, std::string &error);

private:
  enum class Kind { Put = 0, Transfer = 1, Task = 2, Evict = 3 };
  struct Event {
    Kind kind;
    size_t index; // into tasks, transfers or cacheEvents
    double time;
    std::vector<size_t> operands; // copies used, in operand order
    std::vector<size_t> deps;     // events that must come first
    size_t seq = 0;
  };
  /// One copy of a data item on a node: a task result or a received tile.
  struct Copy {
    DataId data;
    unsigned node;
    double arrival;
    size_t event; // the event that makes it
    Value value;
  };

  /// The copy of `data` on `node` to use at time `t`: the latest arrival
  /// there by `t` that was not evicted before `t`.
  std::optional<size_t> copyAt(DataId data, unsigned node, double t) const {
    auto it = copiesOf.find({data, node});
    if (it == copiesOf.end())
      return std::nullopt;
    std::optional<size_t> best, fallback;
    auto ev = evictTimes.find({data, node});
    for (size_t c : it->second) {
      double arrived = copies[c].arrival;
      if (!sameOrBefore(arrived, t))
        continue;
      bool evicted = false;
      if (ev != evictTimes.end())
        for (double e : ev->second)
          if (sameOrBefore(arrived, e) && !sameOrBefore(t, e))
            evicted = true;
      auto later = [&](std::optional<size_t> o) {
        return !o || copies[*o].arrival <= arrived;
      };
      if (!evicted && later(best))
        best = c;
      if (later(fallback))
        fallback = c;
    }
    return best ? best : fallback;
  }

  const TaskGraph &graph;
  ArrayRef<OpDecl> ops;
  const Schedule &schedule;
  std::vector<Event> events;
  std::vector<Copy> copies;
  std::map<std::pair<DataId, unsigned>, std::vector<size_t>> copiesOf;
  std::map<std::pair<DataId, unsigned>, std::vector<double>> evictTimes;
};

bool PlanEmitter::run(OpBuilder &builder, Location loc, std::string &error) {
  // Events and the copies they make.
  std::vector<size_t> taskEvent(graph.size()), transferEvent;
  for (TaskId t = 0; t < graph.size(); ++t) {
    const TaskPlacement &p = schedule.placement[t];
    taskEvent[t] = events.size();
    events.push_back({Kind::Task, t, p.start, {}, {}});
    for (DataId d : graph.task(t).outputs) {
      copiesOf[{d, p.node}].push_back(copies.size());
      copies.push_back({d, p.node, p.finish, taskEvent[t], Value()});
    }
  }
  for (size_t i = 0; i < schedule.transfers.size(); ++i) {
    const Transfer &x = schedule.transfers[i];
    transferEvent.push_back(events.size());
    events.push_back({Kind::Transfer, i, x.start, {}, {}});
    copiesOf[{x.data, x.to}].push_back(copies.size());
    copies.push_back({x.data, x.to, x.finish, transferEvent.back(), Value()});
  }
  for (const CacheEvent &e : schedule.cacheEvents)
    if (e.kind == CacheEvent::Evict)
      evictTimes[{e.data, e.node}].push_back(e.time);

  // Bind every use to a copy.
  std::vector<std::vector<size_t>> usersOf(copies.size());
  auto use = [&](size_t event, DataId d, unsigned node, double t,
                 const std::string &what) -> bool {
    std::optional<size_t> c = copyAt(d, node, t);
    if (!c) {
      error = what + " needs data " + std::to_string(d) + " (" +
              graph.item(d).name + ") on node " + std::to_string(node) +
              ", where the plan never puts it";
      return false;
    }
    events[event].operands.push_back(*c);
    events[event].deps.push_back(copies[*c].event);
    usersOf[*c].push_back(event);
    return true;
  };
  for (TaskId t = 0; t < graph.size(); ++t) {
    const TaskPlacement &p = schedule.placement[t];
    const std::vector<DataId> &inputs = graph.task(t).inputs;
    for (size_t i = 0; i < inputs.size(); ++i)
      if (!use(taskEvent[t], inputs[i], p.inputNode(i), p.start,
               "task " + std::to_string(t) + " (" + graph.task(t).name + ")"))
        return false;
  }
  for (size_t i = 0; i < schedule.transfers.size(); ++i) {
    const Transfer &x = schedule.transfers[i];
    if (!use(transferEvent[i], x.data, x.from, x.start,
             "the transfer of data " + std::to_string(x.data) + " from node " +
                 std::to_string(x.from)))
      return false;
  }
  // Cache commands; an eviction comes after every use of its copy.
  std::vector<size_t> evictEvents;
  for (size_t i = 0; i < schedule.cacheEvents.size(); ++i) {
    const CacheEvent &e = schedule.cacheEvents[i];
    bool put = e.kind == CacheEvent::Put;
    size_t id = events.size();
    events.push_back({put ? Kind::Put : Kind::Evict, i, e.time, {}, {}});
    if (!use(id, e.data, e.node, e.time,
             std::string(put ? "a cache put" : "an eviction") + " on node " +
                 std::to_string(e.node)))
      return false;
    if (!put)
      evictEvents.push_back(id);
  }
  for (size_t id : evictEvents) {
    size_t c = events[id].operands.front();
    for (size_t user : usersOf[c])
      if (user != id && events[user].kind != Kind::Evict)
        events[id].deps.push_back(user);
  }

  // Kahn's algorithm, earliest time first (puts, transfers, tasks,
  // evictions at equal times; then the order of the plan).
  for (size_t i = 0; i < events.size(); ++i)
    events[i].seq = i;
  std::vector<std::vector<size_t>> dependents(events.size());
  std::vector<size_t> waiting(events.size(), 0);
  for (size_t i = 0; i < events.size(); ++i)
    for (size_t d : events[i].deps) {
      dependents[d].push_back(i);
      ++waiting[i];
    }
  auto later = [&](size_t a, size_t b) {
    const Event &x = events[a], &y = events[b];
    return std::make_tuple(x.time, int(x.kind), x.seq) >
           std::make_tuple(y.time, int(y.kind), y.seq);
  };
  std::priority_queue<size_t, std::vector<size_t>, decltype(later)> ready(
      later);
  for (size_t i = 0; i < events.size(); ++i)
    if (!waiting[i])
      ready.push(i);

  size_t emitted = 0;
  while (!ready.empty()) {
    size_t id = ready.top();
    ready.pop();
    ++emitted;
    Event &ev = events[id];
    SmallVector<Value> operands;
    for (size_t c : ev.operands)
      operands.push_back(copies[c].value);
    switch (ev.kind) {
    case Kind::Task: {
      const Task &task = graph.task(ev.index);
      const TaskPlacement &p = schedule.placement[ev.index];
      tg::TaskOp op = createTask(builder, loc, graph, ops, task, operands);
      op.setNodeAttr(builder.getI64IntegerAttr(p.node));
      op.setWorkerAttr(builder.getI64IntegerAttr(p.worker));
      op.setStartAttr(builder.getF64FloatAttr(p.start));
      op.setFinishAttr(builder.getF64FloatAttr(p.finish));
      if (p.firstTouch > 0)
        op.setTouchAttr(builder.getF64FloatAttr(p.firstTouch));
      for (auto [d, result] : llvm::zip(task.outputs, op.getResults()))
        for (size_t c : copiesOf[{d, p.node}])
          if (copies[c].event == id)
            copies[c].value = result;
      break;
    }
    case Kind::Transfer: {
      const Transfer &x = schedule.transfers[ev.index];
      auto op = tg::RecvOp::create(
          builder, loc, operands.front().getType(), operands.front(),
          builder.getI64IntegerAttr(x.from), builder.getI64IntegerAttr(x.to),
          x.sendComm >= 0 ? builder.getI64IntegerAttr(x.sendComm)
                          : IntegerAttr(),
          x.recvComm >= 0 ? builder.getI64IntegerAttr(x.recvComm)
                          : IntegerAttr(),
          builder.getF64FloatAttr(x.start), builder.getF64FloatAttr(x.finish),
          x.firstTouch > 0 ? builder.getF64FloatAttr(x.firstTouch)
                           : FloatAttr());
      for (size_t c : copiesOf[{x.data, x.to}])
        if (copies[c].event == id)
          copies[c].value = op.getResult();
      break;
    }
    case Kind::Put:
    case Kind::Evict: {
      const CacheEvent &e = schedule.cacheEvents[ev.index];
      auto node = builder.getI64IntegerAttr(e.node);
      auto time = builder.getF64FloatAttr(e.time);
      if (ev.kind == Kind::Put)
        tg::CachePutOp::create(builder, loc, operands.front(), node, time);
      else
        tg::EvictOp::create(builder, loc, operands.front(), node, time);
      break;
    }
    }
    for (size_t next : dependents[id])
      if (--waiting[next] == 0)
        ready.push(next);
  }
  if (emitted != events.size()) {
    error = "the plan's transfers depend on each other in a cycle";
    return false;
  }
  return true;
}

} // namespace

PlanSummary cmm::planning::summarizePlan(const MachineModel &machine,
                                         llvm::StringRef scheduler,
                                         double makespan) {
  PlanSummary summary;
  summary.scheduler = scheduler.str();
  summary.nodes = machine.nodes.size();
  summary.makespan = makespan;
  return summary;
}

tg::GraphOp cmm::planning::emitScheduledGraph(
    OpBuilder &builder, Location loc, const TaskGraph &graph,
    ArrayRef<OpDecl> ops, const Schedule &schedule, int64_t tileSize,
    const PlanSummary &summary, std::string &error, StringRef function) {
  if (schedule.placement.size() != graph.size()) {
    error = "the schedule does not place every task";
    return {};
  }
  auto graphOp = tg::GraphOp::create(builder, loc, function, tileSize);
  graphOp.setMakespanAttr(builder.getF64FloatAttr(summary.makespan));
  graphOp.setSchedulerAttr(builder.getStringAttr(summary.scheduler));
  graphOp.setNodesAttr(builder.getI64IntegerAttr(summary.nodes));
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(graphOp.getBodyBlock().getTerminator());
  emitOpDecls(builder, ops);
  if (!PlanEmitter(graph, ops, schedule).run(builder, loc, error)) {
    graphOp.erase();
    return {};
  }
  return graphOp;
}

//===----------------------------------------------------------------------===//
// Reading
//===----------------------------------------------------------------------===//

LogicalResult cmm::planning::readTaskGraph(tg::GraphOp op, TaskGraph &graph,
                                           std::vector<OpDecl> *ops) {
  llvm::DenseMap<Value, DataId> data;
  llvm::DenseMap<StringAttr, int> declared;
  for (auto decl : op.getBodyBlock().getOps<tg::OpDeclOp>()) {
    NamedAttrList attrs(decl->getAttrDictionary());
    attrs.erase(SymbolTable::getSymbolAttrName());
    int index = declared.size();
    declared[decl.getSymNameAttr()] = index;
    if (ops)
      ops->push_back({decl.getSymName().str(), decl.getLoc(),
                      attrs.getDictionary(op.getContext())});
  }
  for (Operation &inner : op.getBodyBlock()) {
    if (auto recv = dyn_cast<tg::RecvOp>(inner)) {
      data[recv.getResult()] = data.at(recv.getInput());
      continue;
    }
    auto taskOp = dyn_cast<tg::TaskOp>(inner);
    if (!taskOp)
      continue; // cache commands, the terminator
    Task task;
    if (auto gang = taskOp.getNodesAttr())
      for (int64_t n : gang.asArrayRef())
        task.gangNodes.push_back(unsigned(n));
    task.name = taskOp.getName().value_or("").str();
    task.kind = toPlannerKind(taskOp.getTaskKind());
    task.op = taskOp.getCostClass();
    task.m = double(taskOp.getM().value_or(1));
    task.n = double(taskOp.getN().value_or(1));
    task.k = double(taskOp.getK().value_or(1));
    if (auto pinned = taskOp.getPinned())
      task.pinnedNode = int(*pinned);
    if (auto name = taskOp.getOpAttr())
      task.opIndex = declared.lookup(name.getAttr());
    for (Value in : taskOp.getInputs())
      task.inputs.push_back(data.at(in));
    TaskId id = graph.addTask(std::move(task));
    auto origins = taskOp.getOrigins();
    for (auto [i, result] : llvm::enumerate(taskOp.getResults())) {
      auto type = cast<tg::TileType>(result.getType());
      DataId d = graph.addData(id, type.getBytes(), graph.task(id).name);
      int64_t row0 = origins ? (*origins)[2 * i] : 0;
      int64_t col0 = origins ? (*origins)[2 * i + 1] : 0;
      graph.setRegion(d, row0, col0, type.getRows(), type.getCols());
      data[result] = d;
    }
  }
  return success();
}
