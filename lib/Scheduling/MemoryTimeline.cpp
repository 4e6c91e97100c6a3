//===- MemoryTimeline.cpp - Tile memory of each node over a plan ----------===//

#include "cmm/Scheduling/MemoryTimeline.h"

#include "cmmrt/Factorizations.h"
#include "cmmrt/TileMemory.h"

#include <algorithm>
#include <map>

using namespace cmm::scheduling;

namespace {
/// A copy of a data item on a node: made by a task or a transfer, read by
/// tasks and sends there.
struct Copy {
  double bytes = 0;
  std::vector<std::pair<double, long>> made; // (time, event), event < 0: none
  double lastUse = -1; // finish of the last reader; < 0: never read
  bool stolen = false; // written over by its last reader
};

struct Event {
  double time;
  double delta;  // bytes: > 0 allocated, < 0 released
  long producer; // task id, or -(transfer index + 1); for allocations
  bool pooled;   // from the runtime's tile pool, else from malloc's heap
  double block;  // bytes of each block allocated (delta may be several)
};

/// The bytes of the tiles in `tiles` that belong to matrices of more than
/// one tile, the tiles listed matrix by matrix, each matrix from its (0, 0)
/// tile on: how cmmrt::runTask groups a whole-operand task's inputs and
/// outputs.
double bytesInMatricesOfSeveralTiles(const TaskGraph &graph,
                                     const std::vector<DataId> &tiles) {
  double total = 0, matrix = 0;
  size_t count = 0;
  auto close = [&] {
    if (count > 1)
      total += matrix;
    matrix = 0;
    count = 0;
  };
  for (DataId d : tiles) {
    const DataItem &item = graph.item(d);
    if (count > 0 && item.row0 == 0 && item.col0 == 0)
      close();
    matrix += item.bytes;
    ++count;
  }
  close();
  return total;
}
} // namespace

MemoryTimeline
cmm::scheduling::memoryTimeline(const TaskGraph &graph, const Schedule &plan,
                                unsigned numNodes,
                                const std::vector<double> &hugePageBytes) {
  MemoryTimeline out;
  out.peakBytes.assign(numNodes, 0.0);
  out.freshTaskBytes.assign(graph.size(), 0.0);
  out.bandedTaskBytes.assign(graph.size(), 0.0);
  out.freshTransferBytes.assign(plan.transfers.size(), 0.0);

  std::map<std::pair<DataId, unsigned>, Copy> copies;
  auto outputNode = [&](TaskId t) {
    const Task &task = graph.task(t);
    return task.isGang() ? task.gangNodes.front() : plan.placement[t].node;
  };
  for (TaskId t = 0; t < graph.size(); ++t) {
    const TaskPlacement &p = plan.placement[t];
    for (DataId d : graph.task(t).outputs) {
      Copy &c = copies[{d, outputNode(t)}];
      c.bytes = graph.item(d).bytes;
      c.made.push_back({p.start, long(t)});
    }
    const std::vector<DataId> &inputs = graph.task(t).inputs;
    for (size_t i = 0; i < inputs.size(); ++i) {
      Copy &c = copies[{inputs[i], p.inputNode(i)}];
      c.lastUse = std::max(c.lastUse, p.finish);
    }
  }
  for (size_t x = 0; x < plan.transfers.size(); ++x) {
    const Transfer &tr = plan.transfers[x];
    Copy &received = copies[{tr.data, tr.to}];
    received.bytes = graph.item(tr.data).bytes;
    received.made.push_back({tr.start, -long(x) - 1});
    Copy &sent = copies[{tr.data, tr.from}];
    sent.lastUse = std::max(sent.lastUse, tr.finish);
  }

  // In place: the first input the task may write over (mayWriteOver, as
  // Executor::stealableInput asks) of the output's shape that the task is
  // the last reader of lends its buffer to the output, which then needs no
  // allocation of its own.
  std::vector<bool> outputInPlace(graph.size(), false);
  for (TaskId t = 0; t < graph.size(); ++t) {
    const Task &task = graph.task(t);
    if (task.isGang() || task.outputs.size() != 1 ||
        task.kind == TaskKind::Abstract)
      continue;
    const auto kind = static_cast<cmmrt::plan::TaskKind>(task.kind);
    const DataItem &result = graph.item(task.outputs[0]);
    for (size_t i = 0; i < task.inputs.size(); ++i) {
      if (!cmmrt::plan::mayWriteOver(kind, int(i)))
        continue;
      const DataItem &in = graph.item(task.inputs[i]);
      Copy &c = copies[{task.inputs[i], plan.placement[t].node}];
      if (in.bytes == result.bytes && in.rows == result.rows &&
          in.cols == result.cols && c.made.size() == 1 && !c.stolen &&
          c.lastUse <= plan.placement[t].finish) {
        c.stolen = true;
        outputInPlace[t] = true;
        break;
      }
    }
  }

  std::vector<std::vector<Event>> events(numNodes);
  for (const auto &[key, c] : copies) {
    unsigned node = key.second;
    if (node >= numNodes)
      continue;
    // Buffers below the pool's threshold come from malloc's heap (which the
    // runtime keeps: cmmrt::keepFreedHeapMemory), the others from the pool.
    bool pooled = c.bytes >= double(cmmrt::kPooledBufferBytes);
    for (const auto &[time, producer] : c.made)
      if (producer < 0 || !outputInPlace[producer])
        events[node].push_back({time, c.bytes, producer, pooled, c.bytes});
    // A copy never read stays to the end; a stolen one lives on as the
    // output of its reader.
    if (c.lastUse >= 0 && !c.stolen)
      events[node].push_back(
          {c.lastUse, -c.bytes * double(c.made.size()), 0, pooled, c.bytes});
  }
  // A task over whole operands (TaskKind::Solve) works on whole matrices
  // (cmmrt::runTask): an operand of several tiles is assembled into a copy
  // (one of one tile is read where it is), a result of several tiles is
  // made whole before it is cut into them (one of one tile is moved into
  // it, the output counted above), and a factorization adds LAPACK's copies
  // and workspaces (cmmrt::factorizationScratchBytes). Pooled, for the
  // task's duration. A 20000 x 100 SVD of an operand of several tiles
  // faulted in about 64 MB above its program's peak: 16 of assembly, 16 of
  // U, 32 of LAPACK's. Until 2026-12-01 every operand and result was
  // charged a copy: OLS's 20000 x 200 concatenation of two one-tile
  // operands was predicted at 102 ms and measured 37.
  for (TaskId t = 0; t < graph.size(); ++t) {
    const Task &task = graph.task(t);
    if (task.isGang() || task.kind == TaskKind::Abstract ||
        static_cast<cmmrt::plan::TaskKind>(task.kind) !=
            cmmrt::plan::TaskKind::Solve)
      continue;
    double scratch = bytesInMatricesOfSeveralTiles(graph, task.inputs) +
                     bytesInMatricesOfSeveralTiles(graph, task.outputs) +
                     cmmrt::factorizationScratchBytes(task.op, task.m, task.n);
    unsigned node = plan.placement[t].node;
    if (node >= numNodes || scratch <= 0)
      continue;
    events[node].push_back(
        {plan.placement[t].start, scratch, long(t), true, scratch});
    events[node].push_back(
        {plan.placement[t].finish, -scratch, 0, true, scratch});
  }
  for (unsigned n = 0; n < numNodes; ++n) {
    size_t hugePage =
        n < hugePageBytes.size() ? size_t(std::max(0.0, hugePageBytes[n])) : 0;
    std::vector<Event> &list = events[n];
    // At one instant, releases come first: a task that ends frees its
    // inputs before the next one allocates.
    std::stable_sort(
        list.begin(), list.end(), [](const Event &a, const Event &b) {
          return a.time < b.time || (a.time == b.time && a.delta < b.delta);
        });
    // The pool and malloc's heap each reuse only their own freed buffers:
    // each faults in the bytes its live tiles grow past its own peak.
    double live = 0, peak = 0;
    double reservoirLive[2] = {0, 0}, reservoirPeak[2] = {0, 0};
    for (const Event &e : list) {
      live += e.delta;
      peak = std::max(peak, live);
      double &rLive = reservoirLive[e.pooled], &rPeak = reservoirPeak[e.pooled];
      rLive += e.delta;
      if (e.delta <= 0 || rLive <= rPeak)
        continue;
      double fresh = std::min(e.delta, rLive - rPeak);
      rPeak = rLive;
      if (e.pooled)
        fresh *= cmmrt::touchedBytesPerFreshByte(e.block, double(hugePage));
      if (e.producer < 0) {
        out.freshTransferBytes[-e.producer - 1] += fresh;
        continue;
      }
      out.freshTaskBytes[e.producer] += fresh;
      if (e.pooled && cmmrt::populatedInBands(size_t(e.block), hugePage))
        out.bandedTaskBytes[e.producer] += fresh;
    }
    out.peakBytes[n] = peak;
  }
  return out;
}

MemoryPressure
cmm::scheduling::memoryPressure(const std::vector<double> &peakBytes,
                                const std::vector<double> &memoryBytes) {
  MemoryPressure worst;
  for (unsigned n = 0; n < peakBytes.size() && n < memoryBytes.size(); ++n) {
    double share = peakBytes[n] / (kUsableMemoryShare * memoryBytes[n]);
    if (share > worst.share)
      worst = {n, share};
  }
  return worst;
}
