//===- ExecutorTimings.cpp - The runtime's own overheads, measured --------===//

#include "ExecutorTimings.h"

#include "cmmrt/Executor.h"
#include "cmmrt/PlanTables.h"

#include <mpi.h>

#include <vector>

using namespace cmmrt;
using namespace cmmrt::plan;

namespace {

/// An op of `code` on rows x cols tiles, with `scalar` (fill value, scale).
Op profileOp(OpCode code, int64_t rows, int64_t cols, double scalar = 1.0) {
  Op o{};
  o.code = code;
  o.rows = o.inRows = rows;
  o.cols = o.inCols = cols;
  o.scalar = scalar;
  o.text = "profile";
  o.line = o.column = 1;
  return o;
}

/// A reduction of a rows x cols tile to 1 x 1 (its sum).
Op sumOp(int64_t rows, int64_t cols) {
  Op o = profileOp(OpCode::ReduceSum, 1, 1);
  o.inRows = rows;
  o.inCols = cols;
  o.a = 0; // to 1 x 1
  return o;
}

} // namespace

cmm::profile::TransferTiming cmm::profile::executorTransfer(int from, int to,
                                                            int64_t rows,
                                                            int64_t cols,
                                                            int count) {
  PlanTables tables(worldSize());
  int32_t fill = tables.op(profileOp(OpCode::Fill, rows, cols));
  int32_t sum = tables.op(sumOp(rows, cols));
  // Each tile is made on `from`, read once (by its send), received on `to`
  // and summed there, so the copy is released and its buffer reused as a
  // program's would be (kept, every receive would fault in fresh pages:
  // first touch, which the model charges apart).
  for (int i = 0; i < count; ++i) {
    int32_t made = tables.task(TaskKind::Generate, fill, from, {}, rows, cols,
                               CostClass::Generate);
    int32_t copy = tables.send(made, to);
    tables.task(TaskKind::Reduce, sum, to, {copy}, 1, 1, CostClass::Reduce);
  }
  ExecResult result;
  executePlan(tables.finish("cmm-profile", rows > cols ? rows : cols),
              ExecOptions{}, result);
  // Each end's communicator CPU, on rank 0.
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double mine[2] = {rank == from ? result.ownCommunicatorCpuSeconds : 0,
                    rank == to ? result.ownCommunicatorCpuSeconds : 0};
  double ends[2] = {};
  MPI_Reduce(mine, ends, 2, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  TransferTiming out;
  // byClass is summed on rank 0; its last entry is the transfers.
  if (rank != 0 || result.byClass.empty() || result.byClass.back().tasks == 0)
    return out;
  double transfers = double(result.byClass.back().tasks);
  out.seconds = result.byClass.back().measured / transfers;
  out.senderCpu = ends[0] / transfers;
  out.receiverCpu = ends[1] / transfers;
  return out;
}

double cmm::profile::executorChainSeconds(int count) {
  int ranks = worldSize();
  PlanTables tables(ranks);
  int32_t fill = tables.op(profileOp(OpCode::Fill, 1, 1));
  int32_t scale = tables.op(profileOp(OpCode::Scale, 1, 1));
  int32_t sum = tables.op(sumOp(1, 1));
  // Every chain first, so no rank's worker waits for another rank before
  // its own chain is done.
  std::vector<int32_t> last(ranks);
  for (int r = 0; r < ranks; ++r) {
    last[r] =
        tables.task(TaskKind::Generate, fill, r, {}, 1, 1, CostClass::Generate);
    for (int i = 1; i < count; ++i)
      last[r] = tables.task(TaskKind::Elementwise, scale, r, {last[r]}, 1, 1,
                            CostClass::Elementwise);
  }
  for (int r = 0; r < ranks && ranks > 1; ++r) {
    int next = (r + 1) % ranks;
    tables.task(TaskKind::Reduce, sum, next, {tables.send(last[r], next)}, 1, 1,
                CostClass::Reduce);
  }
  ExecResult result;
  auto start = MPI_Wtime();
  executePlan(tables.finish("cmm-profile"), ExecOptions{}, result);
  return MPI_Wtime() - start;
}
