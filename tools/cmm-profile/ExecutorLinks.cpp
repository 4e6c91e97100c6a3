//===- ExecutorLinks.cpp - Transfers timed through the runtime ------------===//

#include "ExecutorLinks.h"

#include "cmmrt/Executor.h"
#include "cmmrt/Plan.h"

#include <mpi.h>

#include <vector>

using namespace cmmrt;
using namespace cmmrt::plan;

double cmm::profile::executorTransferSeconds(int from, int to, int64_t rows,
                                             int64_t cols, int count) {
  int ranks = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  std::vector<int32_t> workers(ranks, 1), threads(ranks, 1),
      communicators(ranks, 1);
  Op fill{};
  fill.code = OpCode::Fill;
  fill.rows = fill.inRows = rows;
  fill.cols = fill.inCols = cols;
  fill.scalar = 1.0;
  fill.text = "profile";
  fill.line = fill.column = 1;

  Op sum = fill;
  sum.code = OpCode::ReduceSum;
  sum.rows = sum.cols = 1;
  sum.a = 0; // to 1 x 1

  // Tile i: made on `from` into slot 3i (read once, by its send), received
  // on `to` into slot 3i + 1, summed there into slot 3i + 2, so the copy is
  // released and its buffer reused as a program's would be (kept, every
  // receive would fault in fresh pages: first touch, which the model
  // charges apart).
  std::vector<Slot> slots;
  std::vector<Task> tasks, reads;
  std::vector<int32_t> inputs;
  std::vector<Transfer> transfers;
  for (int i = 0; i < count; ++i) {
    int32_t made = int32_t(slots.size());
    slots.push_back({from, rows, cols, 0, 0, 1});
    slots.push_back({to, rows, cols, 0, 0, 1});
    slots.push_back({to, 1, 1, 0, 0, 0});
    Task r{};
    r.kind = TaskKind::Reduce;
    r.op = 1;
    r.node = to;
    r.worker = 0;
    r.firstInput = int32_t(inputs.size());
    r.numInputs = 1;
    inputs.push_back(made + 1);
    r.firstOutput = made + 2;
    r.numOutputs = 1;
    r.name = "sum";
    r.start = r.finish = double(i) + 1;
    r.cost = CostClass::Reduce;
    reads.push_back(r);
    Task t{};
    t.kind = TaskKind::Generate;
    t.op = 0;
    t.node = from;
    t.worker = 0;
    t.firstOutput = made;
    t.numOutputs = 1;
    t.name = "fill";
    t.start = t.finish = double(i);
    t.cost = CostClass::Generate;
    tasks.push_back(t);
    transfers.push_back({made, made + 1, from, to, 0, 0, double(i), double(i)});
  }
  // The executor wants each node's tasks together, in schedule order.
  if (to < from)
    tasks.insert(tasks.begin(), reads.begin(), reads.end());
  else
    tasks.insert(tasks.end(), reads.begin(), reads.end());
  Op ops[] = {fill, sum};
  int32_t noOutputs = 0;
  Plan plan{};
  plan.sourceFile = "cmm-profile";
  plan.nodes = ranks;
  plan.workers = workers.data();
  plan.threads = threads.data();
  plan.communicators = communicators.data();
  plan.tileSize = rows > cols ? rows : cols;
  plan.ops = ops;
  plan.numOps = 2;
  plan.slots = slots.data();
  plan.numSlots = int32_t(slots.size());
  plan.tasks = tasks.data();
  plan.numTasks = int32_t(tasks.size());
  plan.inputs = inputs.data();
  plan.transfers = transfers.data();
  plan.numTransfers = int32_t(transfers.size());
  plan.outputs = &noOutputs;

  ExecOptions options;
  ExecResult result;
  executePlan(plan, options, result);
  // byClass is summed on rank 0; its last entry is the transfers.
  if (result.byClass.empty() || result.byClass.back().tasks == 0)
    return 0;
  return result.byClass.back().measured / double(result.byClass.back().tasks);
}
