//===- PlanTables.h - A plan's tables built by hand -------------*- C++ -*-===//
//
// The tables of a cmmrt::plan::Plan, filled one op, task and transfer at a
// time, for code that runs hand-made plans through the executor: the
// executor's tests and cmm-profile's measurements of the runtime's own
// overheads (transfers and task hand-offs as a program sees them). Generated
// programs get their tables from cmm-translate instead.
//
//===----------------------------------------------------------------------===//

#ifndef CMMRT_PLANTABLES_H
#define CMMRT_PLANTABLES_H

#include "cmmrt/Plan.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace cmmrt::plan {

class PlanTables {
public:
  /// A plan for `nodes` ranks, each with one worker of one BLAS thread and
  /// `communicators` communicator threads.
  explicit PlanTables(int nodes, int communicators = 1)
      : workers(nodes, 1), threads(nodes, 1),
        communicatorCounts(nodes, communicators) {}

  /// Adds an op declaration; print, print_scalar and save become outputs.
  int32_t op(const Op &o) {
    ops.push_back(o);
    if (o.code == OpCode::Print || o.code == OpCode::PrintScalar ||
        o.code == OpCode::Save)
      outputs.push_back(int32_t(ops.size() - 1));
    return int32_t(ops.size() - 1);
  }
  /// A task of op `opIndex` on `node` (worker 0) reading slots `in`, making
  /// one new rows x cols slot there (none for a gather); returns that slot
  /// (-1 for a gather). Tasks of a node run in the order they are added.
  int32_t task(TaskKind kind, int32_t opIndex, int node,
               const std::vector<int32_t> &in, int64_t rows = 0,
               int64_t cols = 0, CostClass cost = CostClass{}) {
    Task t{};
    t.kind = kind;
    t.op = opIndex;
    t.node = node;
    t.worker = 0;
    t.firstInput = int32_t(inputs.size());
    t.numInputs = int32_t(in.size());
    for (int32_t s : in) {
      inputs.push_back(s);
      ++slots[s].uses;
    }
    t.name = "task";
    t.start = t.finish = double(tasks.size());
    t.cost = cost;
    t.m = double(rows);
    t.n = double(cols);
    t.k = 1;
    int32_t out = -1;
    if (kind != TaskKind::Gather) {
      out = slot(node, rows, cols);
      t.firstOutput = out;
      t.numOutputs = 1;
    }
    tasks.push_back(t);
    return out;
  }
  /// Sends slot `source` to node `to` over communicator `comm` of both
  /// ends; returns the copy's slot there.
  int32_t send(int32_t source, int to, int comm = 0) {
    const Slot s = slots[source];
    ++slots[source].uses;
    int32_t target = slot(to, s.rows, s.cols);
    double order = double(transfers.size());
    transfers.push_back({source, target, s.node, to, comm, comm, order, order});
    return target;
  }
  /// The plan, valid while this object lives and is not changed.
  const Plan &finish(const char *sourceFile = "plan-tables",
                     int64_t tileSize = 1) {
    // The executor wants each node's tasks together, in schedule order.
    std::stable_sort(
        tasks.begin(), tasks.end(),
        [](const Task &a, const Task &b) { return a.node < b.node; });
    plan = Plan{};
    plan.sourceFile = sourceFile;
    plan.nodes = int32_t(workers.size());
    plan.workers = workers.data();
    plan.threads = threads.data();
    plan.communicators = communicatorCounts.data();
    plan.tileSize = tileSize;
    plan.ops = ops.data();
    plan.numOps = int32_t(ops.size());
    plan.slots = slots.data();
    plan.numSlots = int32_t(slots.size());
    plan.tasks = tasks.data();
    plan.numTasks = int32_t(tasks.size());
    plan.inputs = inputs.data();
    plan.transfers = transfers.data();
    plan.numTransfers = int32_t(transfers.size());
    plan.outputs = outputs.data();
    plan.numOutputs = int32_t(outputs.size());
    return plan;
  }

private:
  int32_t slot(int node, int64_t rows, int64_t cols) {
    slots.push_back({node, rows, cols, 0, 0, 0});
    return int32_t(slots.size() - 1);
  }

  std::vector<int32_t> workers, threads, communicatorCounts;
  std::vector<Op> ops;
  std::vector<Slot> slots;
  std::vector<Task> tasks;
  std::vector<int32_t> inputs;
  std::vector<Transfer> transfers;
  std::vector<int32_t> outputs;
  Plan plan{};
};

} // namespace cmmrt::plan

#endif // CMMRT_PLANTABLES_H
