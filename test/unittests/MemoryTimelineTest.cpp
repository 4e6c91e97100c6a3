//===- MemoryTimelineTest.cpp - Live tiles, first touch, memory check -----===//
//
// Hand-computed plans: which bytes each node holds when, which task writes
// pages its node never had, and the simulator's first-touch charge.
//
//===----------------------------------------------------------------------===//

#include "cmm/Scheduling/MemoryTimeline.h"
#include "cmm/Scheduling/Simulator.h"
#include "cmmrt/Factorizations.h"

#include <gtest/gtest.h>

using namespace cmm::scheduling;

namespace {
/// Sizes in MiB, so that every tile is one of the pool's buffers (at least
/// cmmrt::kPooledBufferBytes); smaller ones are the heap's, a reservoir of
/// its own.
constexpr double MiB = 1 << 20;

/// t0 generates d0 (800 MiB); t1 reduces it to d1 of `readBytes`.
struct GenerateThenReduce {
  TaskGraph graph;
  DataId d0, d1;
  TaskId t1;
};

GenerateThenReduce generateThenReduce(double readBytes) {
  GenerateThenReduce r;
  Task gen;
  gen.kind = TaskKind::Generate;
  TaskId t0 = r.graph.addTask(gen);
  r.d0 = r.graph.addData(t0, 800 * MiB);
  Task use;
  use.kind = TaskKind::Reduce;
  use.inputs = {r.d0};
  r.t1 = r.graph.addTask(use);
  r.d1 = r.graph.addData(r.t1, readBytes);
  return r;
}

/// t0, t1: generate 10x10 tiles (800 MiB) d0, d1; t2 = d0 op d1 (kind
/// `combine`, 10x10: d2); t3 reduces d2 to d3 (8 MiB); t4 generates d4.
/// All on node 0, worker 0, one after another in [i, i + 1].
struct Chain {
  TaskGraph graph;
  Schedule plan;
};

Chain chain(TaskKind combine, double unit = MiB,
            std::vector<CostClass> classes = {}) {
  Chain c;
  auto add = [&](TaskKind kind, std::vector<DataId> in, double bytes,
                 int64_t rows, int64_t cols) {
    Task t;
    t.kind = kind;
    if (c.graph.size() < classes.size())
      t.op = classes[c.graph.size()];
    t.inputs = std::move(in);
    TaskId id = c.graph.addTask(t);
    DataId d = c.graph.addData(id, bytes * unit);
    c.graph.setShape(d, rows, cols);
    c.plan.placement.push_back({0, 0, double(id), double(id) + 1});
    return d;
  };
  DataId d0 = add(TaskKind::Generate, {}, 800, 10, 10);
  DataId d1 = add(TaskKind::Generate, {}, 800, 10, 10);
  DataId d2 = add(combine, {d0, d1}, 800, 10, 10);
  add(TaskKind::Reduce, {d2}, 8, 1, 1);
  add(TaskKind::Generate, {}, 800, 10, 10);
  return c;
}

/// Costs as tables plus a first-touch price per byte.
class TouchCost : public TableCostModel {
public:
  TouchCost(std::vector<std::vector<double>> time, std::vector<double> data,
            double perByte)
      : TableCostModel(std::move(time), std::move(data)), perByte(perByte) {}
  double firstTouch(unsigned) const override { return perByte; }

private:
  double perByte;
};
} // namespace

TEST(MemoryTimeline, InPlaceTaskAllocatesNothing) {
  // d0 and d1 fault in 800 MiB each (peak 1600). t2 writes over d0, its
  // last reader; d1 is freed when t2 ends (3), d2 when t3 ends (4); t3's 8
  // bytes and t4's 800 fit under the peak: live 808 at 4, nothing fresh.
  Chain c = chain(TaskKind::Elementwise);
  MemoryTimeline m = memoryTimeline(c.graph, c.plan, 1);
  EXPECT_DOUBLE_EQ(m.peakBytes[0], 1600 * MiB);
  EXPECT_EQ(m.freshTaskBytes,
            (std::vector<double>{800 * MiB, 800 * MiB, 0, 0, 0}));
}

TEST(MemoryTimeline, NewOutputRaisesThePeak) {
  // A product-like task does not write over its inputs: d2 is new while
  // d0 and d1 are live (2400, 800 of it fresh); then t3 (8) and t4 (800)
  // come in after d0, d1 (at 3) and d2 (at 4) are freed.
  Chain c = chain(TaskKind::Gemm);
  MemoryTimeline m = memoryTimeline(c.graph, c.plan, 1);
  EXPECT_DOUBLE_EQ(m.peakBytes[0], 2400 * MiB);
  EXPECT_EQ(m.freshTaskBytes,
            (std::vector<double>{800 * MiB, 800 * MiB, 800 * MiB, 0, 0}));
}

TEST(MemoryTimeline, WholeOperandTasksReadOneTileOperandsWhereTheyAre) {
  // t2 over whole operands (a concatenation: no LAPACK copies) of one tile
  // each reads them in place and its one-tile result is moved into its
  // output (cmmrt::runTask): as a product, 800 fresh.
  Chain c = chain(TaskKind::Solve, MiB,
                  {CostClass::Generate, CostClass::Generate, CostClass::Copy});
  MemoryTimeline m = memoryTimeline(c.graph, c.plan, 1);
  EXPECT_DOUBLE_EQ(m.peakBytes[0], 2400 * MiB);
  EXPECT_EQ(m.freshTaskBytes,
            (std::vector<double>{800 * MiB, 800 * MiB, 800 * MiB, 0, 0}));
}

TEST(MemoryTimeline, WholeOperandTasksAssembleMatricesOfSeveralTiles) {
  // t0 makes the two 400 MiB tiles of a matrix (rows 0-9 and 10-19), t1 a
  // one-tile matrix of 100 MiB; t2 reads both whole (a copy class) and
  // writes a result of two 300 MiB tiles. It holds the assembled first
  // operand (800) and the whole result (600) while it runs, beside its
  // tiles (600): 500 + 800 + 600 + 600 at 1, all fresh above t0's and t1's.
  TaskGraph graph;
  Task generate;
  generate.kind = TaskKind::Generate;
  TaskId t0 = graph.addTask(generate);
  DataId top = graph.addData(t0, 400 * MiB),
         bottom = graph.addData(t0, 400 * MiB);
  graph.setRegion(top, 0, 0, 10, 20);
  graph.setRegion(bottom, 10, 0, 10, 20);
  TaskId t1 = graph.addTask(generate);
  DataId other = graph.addData(t1, 100 * MiB);
  graph.setRegion(other, 0, 0, 5, 5);
  Task whole;
  whole.kind = TaskKind::Solve;
  whole.op = CostClass::Copy;
  whole.inputs = {top, bottom, other};
  TaskId t2 = graph.addTask(whole);
  DataId left = graph.addData(t2, 300 * MiB),
         right = graph.addData(t2, 300 * MiB);
  graph.setRegion(left, 0, 0, 10, 10);
  graph.setRegion(right, 0, 10, 10, 10);
  Schedule plan;
  plan.placement = {{0, 0, 0, 1}, {0, 0, 0, 1}, {0, 0, 1, 2}};
  MemoryTimeline m = memoryTimeline(graph, plan, 1);
  EXPECT_DOUBLE_EQ(m.freshTaskBytes[2], (800 + 600 + 600) * MiB);
  EXPECT_DOUBLE_EQ(m.peakBytes[0], (900 + 800 + 600 + 600) * MiB);
}

TEST(MemoryTimeline, FactorizationsHoldLapacksCopies) {
  // An SVD of a 3000 x 300 operand (7.2 MB, one tile: read in place) holds
  // LAPACK's copies while it runs (cmmrt::factorizationScratchBytes: its
  // copy of the operand, U and V' column-major, dgesdd's workspace) beside
  // U (one tile, moved): all of it fresh above the operand's 7.2 MB.
  const double bytes = 3000 * 300 * 8.0;
  TaskGraph graph;
  Task generate;
  generate.kind = TaskKind::Generate;
  DataId a = graph.addData(graph.addTask(generate), bytes);
  Task svd;
  svd.kind = TaskKind::Solve;
  svd.op = CostClass::Svd;
  svd.m = 3000;
  svd.n = 300;
  svd.inputs = {a};
  graph.addData(graph.addTask(svd), bytes);
  Schedule plan;
  plan.placement = {{0, 0, 0, 1}, {0, 0, 1, 2}};
  MemoryTimeline m = memoryTimeline(graph, plan, 1);
  double lapack = cmmrt::factorizationScratchBytes(CostClass::Svd, 3000, 300);
  EXPECT_GT(lapack, 2 * bytes);
  EXPECT_DOUBLE_EQ(m.freshTaskBytes[1], bytes + lapack);
  EXPECT_DOUBLE_EQ(m.peakBytes[0], 2 * bytes + lapack);
}

TEST(MemoryTimeline, LuSolvesHoldTheCopyTheyFactor) {
  // A whole n x n solve (the solve class) factors a column-major copy of A.
  EXPECT_DOUBLE_EQ(cmmrt::factorizationScratchBytes(CostClass::Solve, 300, 300),
                   300 * 300 * 8.0);
  EXPECT_DOUBLE_EQ(cmmrt::factorizationScratchBytes(CostClass::Copy, 300, 300),
                   0);
}

TEST(MemoryTimeline, HeapTilesFaultAboveTheirOwnPeak) {
  // The same chain in bytes: 800-byte tiles come from malloc's heap, which
  // the runtime keeps, so they fault as the pool's do, above the heap's peak.
  Chain c = chain(TaskKind::Gemm, /*unit=*/1.0);
  MemoryTimeline m = memoryTimeline(c.graph, c.plan, 1);
  EXPECT_DOUBLE_EQ(m.peakBytes[0], 2400);
  EXPECT_EQ(m.freshTaskBytes, (std::vector<double>{800, 800, 800, 0, 0}));
}

TEST(MemoryTimeline, HeapAndPoolDoNotReuseEachOther) {
  // t0 makes 800 MiB (pool) [0,1], read by t1 [1,2], which makes 800 bytes
  // (heap); t0's tile is freed at 2; t2 [2,3] makes another 800 bytes while
  // t1's is live: the heap grows (fresh) though the pool has 800 MiB free.
  GenerateThenReduce g = generateThenReduce(800);
  Task again;
  again.kind = TaskKind::Reduce;
  again.inputs = {g.d1};
  TaskId t2 = g.graph.addTask(again);
  g.graph.addData(t2, 800);
  Schedule plan;
  plan.placement = {{0, 0, 0, 1}, {0, 0, 1, 2}, {0, 0, 2, 3}};
  MemoryTimeline m = memoryTimeline(g.graph, plan, 1);
  EXPECT_EQ(m.freshTaskBytes, (std::vector<double>{800 * MiB, 800, 800}));
}

TEST(MemoryTimeline, ReceivedCopiesCountOnTheReceiver) {
  // t0 on node 0 makes d0 (800 MiB) [0,1]; d0 goes to node 1 [1,2]; t1 on
  // node 1 reads it [2,3] and makes 8 bytes. Node 0 keeps d0 until the send
  // ends; node 1's receive is fresh, then t1's 8 bytes on top.
  GenerateThenReduce g = generateThenReduce(8 * MiB);
  Schedule plan;
  plan.placement = {{0, 0, 0, 1}, {1, 0, 2, 3}};
  plan.transfers = {{g.d0, 0, 1, 0, 0, 1, 2}};
  MemoryTimeline m = memoryTimeline(g.graph, plan, 2);
  EXPECT_DOUBLE_EQ(m.peakBytes[0], 800 * MiB);
  EXPECT_DOUBLE_EQ(m.peakBytes[1], 808 * MiB);
  EXPECT_DOUBLE_EQ(m.freshTransferBytes[0], 800 * MiB);
  EXPECT_EQ(m.freshTaskBytes, (std::vector<double>{800 * MiB, 8 * MiB}));
}

TEST(MemoryTimeline, PooledTilesFaultWholeHugePages) {
  // On a node of 2 MiB huge pages: d0 (800 MiB, 400 of them) faults what it
  // holds, on its task's threads; d1 (3 MiB) faults two whole huge pages
  // (4 MiB) on one thread; a 800-byte heap tile faults its bytes. Without
  // huge pages, the bytes alone (the tests above).
  const std::vector<double> huge = {2 * MiB};
  GenerateThenReduce g = generateThenReduce(3 * MiB);
  Schedule plan;
  plan.placement = {{0, 0, 0, 1}, {0, 0, 1, 2}};
  MemoryTimeline m = memoryTimeline(g.graph, plan, 1, huge);
  EXPECT_EQ(m.freshTaskBytes, (std::vector<double>{800 * MiB, 4 * MiB}));
  EXPECT_EQ(m.bandedTaskBytes, (std::vector<double>{800 * MiB, 0}));
  EXPECT_DOUBLE_EQ(m.peakBytes[0], 803 * MiB); // live bytes, not pages
  GenerateThenReduce h = generateThenReduce(800);
  m = memoryTimeline(h.graph, plan, 1, huge);
  EXPECT_EQ(m.freshTaskBytes, (std::vector<double>{800 * MiB, 800}));
  EXPECT_EQ(m.bandedTaskBytes, (std::vector<double>{800 * MiB, 0}));
  m = memoryTimeline(g.graph, plan, 1);
  EXPECT_EQ(m.freshTaskBytes, (std::vector<double>{800 * MiB, 3 * MiB}));
}

TEST(Simulator, ChargesFirstTouchOnTheTasksThatRaiseThePeak) {
  // The in-place chain with every task 1 s and 1 ms per fresh MiB: t0 and
  // t1 take 0.8 s more each, the rest nothing: makespan 5 + 1.6.
  Chain c = chain(TaskKind::Elementwise);
  std::vector<std::vector<double>> time(5, std::vector<double>{1.0});
  TouchCost cost(time, std::vector<double>(5, 0.0), 1e-3 / MiB);
  SimulationReport r = simulate(c.graph, cost, c.plan);
  EXPECT_NEAR(r.makespan, 6.6, 1e-12);
  EXPECT_NEAR(r.firstTouchSeconds, 1.6, 1e-12);
  EXPECT_DOUBLE_EQ(r.peakBytes[0], 1600 * MiB);
  EXPECT_NEAR(r.replayed.placement[1].finish, 3.6, 1e-12);
  // Free first touch: the plan as it was.
  TouchCost untouched(time, std::vector<double>(5, 0.0), 0.0);
  EXPECT_NEAR(simulate(c.graph, untouched, c.plan).makespan, 5, 1e-12);
}

TEST(MemoryPressure, APlanFitsWhenEveryNodeKeepsItsHeadroom) {
  // 90 % of each node's memory is for tiles: 85 of 100 fits, 95 does not.
  MemoryPressure ok = memoryPressure({50, 85}, {100, 100});
  EXPECT_TRUE(ok.fits());
  EXPECT_EQ(ok.node, 1u);
  EXPECT_NEAR(ok.share, 85.0 / 90, 1e-12);
  MemoryPressure over = memoryPressure({95, 10}, {100, 1000});
  EXPECT_FALSE(over.fits());
  EXPECT_EQ(over.node, 0u);
  // The smaller node is the one that overflows, not the fuller in bytes.
  EXPECT_EQ(memoryPressure({60, 500}, {60, 1000}).node, 0u);
  EXPECT_FALSE(memoryPressure({60, 500}, {60, 1000}).fits());
}

TEST(Simulator, TasksOnSeveralThreadsFaultTheirPagesInParallel) {
  // The chain of the test above on a node whose tasks run on 2 threads:
  // the pool populates a fresh result on both (cmmrt::populateFreshPages),
  // whatever the kernel that then writes it, so t0 (a rand) and t1 (a fill,
  // one loop) each take 0.4 s of faults and the makespan is 5 + 0.8.
  Chain c =
      chain(TaskKind::Elementwise, MiB, {CostClass::Rand, CostClass::Generate});
  class TwoThreads : public TouchCost {
  public:
    using TouchCost::TouchCost;
    unsigned taskThreads(unsigned) const override { return 2; }
  };
  std::vector<std::vector<double>> time(5, std::vector<double>{1.0});
  TwoThreads cost(time, std::vector<double>(5, 0.0), 1e-3 / MiB);
  SimulationReport r = simulate(c.graph, cost, c.plan);
  EXPECT_NEAR(r.firstTouchSeconds, 0.8, 1e-12);
  EXPECT_NEAR(r.makespan, 5.8, 1e-12);
  EXPECT_NEAR(r.replayed.placement[0].finish, 1.4, 1e-12);
  EXPECT_NEAR(r.replayed.placement[1].finish, 2.8, 1e-12);
}

TEST(Simulator, TilesBelowTwoHugePagesFaultOnOneThread) {
  // generateThenReduce(3 MiB) with 1 s tasks, 1 ms per MiB, 2 task threads
  // and 2 MiB huge pages: t0's 800 MiB over two threads (0.4 s), t1's two
  // huge pages on one (4 ms): makespan 2.404.
  GenerateThenReduce g = generateThenReduce(3 * MiB);
  Schedule plan;
  plan.placement = {{0, 0, 0, 1}, {0, 0, 1, 2}};
  class HugePages : public TouchCost {
  public:
    using TouchCost::TouchCost;
    unsigned taskThreads(unsigned) const override { return 2; }
    double hugePageBytes(unsigned) const override { return 2 * MiB; }
  };
  std::vector<std::vector<double>> time(2, std::vector<double>{1.0});
  HugePages cost(time, std::vector<double>(2, 0.0), 1e-3 / MiB);
  SimulationReport r = simulate(g.graph, cost, plan);
  EXPECT_NEAR(r.firstTouchSeconds, 0.404, 1e-12);
  EXPECT_NEAR(r.makespan, 2.404, 1e-12);
}

TEST(MachineModel, TaskThreadsFollowTheRuntime) {
  // A lone worker's tasks get the node's BLAS threads, several workers one
  // each (cmmrt::taskThreadsOf, which the executor calls too).
  NodeSpec node;
  node.workers = 1;
  node.threadsPerWorker = 4;
  EXPECT_EQ(node.taskThreads(), 4u);
  node.workers = 2;
  node.threadsPerWorker = 2;
  EXPECT_EQ(node.taskThreads(), 1u);
  node.workers = 1;
  node.threadsPerWorker = 0;
  EXPECT_EQ(node.taskThreads(), 1u);
}
