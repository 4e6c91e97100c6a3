//===- CacheReuseTest.cpp - Tasks on inputs still in cache ----------------===//
//
// Reuse distances of a hand-built graph (in MiB), the cost model's charge
// for inputs that fit in a node's cache, a plan replayed with it, and the
// profile's hot factor.
//
//===----------------------------------------------------------------------===//

#include "cmm/Profile/CacheReuse.h"
#include "cmm/Scheduling/CostModel.h"
#include "cmm/Scheduling/Simulator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>

#include <unistd.h>

using namespace cmm::scheduling;
using namespace cmm::profile;

namespace {
constexpr double MiB = 1 << 20;

/// t0, t1 make d0, d1 (8 MiB each, rand); t2 = `combine`(d0, d1) makes d2
/// (8 MiB); t3 reduces d2 to d3 (8 KiB); t4 makes d4 (rand). One worker,
/// in [i, i + 1].
struct Chain {
  TaskGraph graph;
  Schedule plan;
};

Chain chain(CostClass combine, double m = 1, double n = 1) {
  Chain c;
  auto add = [&](CostClass op, std::vector<DataId> in, double bytes,
                 double rows = 1, double cols = 1) {
    Task t;
    t.op = op;
    t.m = rows;
    t.n = cols;
    t.k = rows;
    t.inputs = std::move(in);
    TaskId id = c.graph.addTask(t);
    c.plan.placement.push_back({0, 0, double(id), double(id) + 1});
    return c.graph.addData(id, bytes);
  };
  DataId d0 = add(CostClass::Rand, {}, 8 * MiB);
  DataId d1 = add(CostClass::Rand, {}, 8 * MiB);
  DataId d2 = add(combine, {d0, d1}, 8 * MiB, m, n);
  add(CostClass::Reduce, {d2}, 8 * 1024);
  add(CostClass::Rand, {}, 8 * MiB);
  return c;
}

/// One node, every class 1 s (its constant term), `overhead` of each task
/// the runtime's, a cache of `cache` bytes, hot factor 0.5.
MachineModel machine(double cache, double overhead = 0) {
  MachineModel m;
  NodeSpec node;
  for (TimePolynomial &p : node.time)
    p.a[0] = 1 - overhead;
  node.taskOverhead = overhead;
  node.cacheBytes = cache;
  node.hotFactor = 0.5;
  m.nodes.push_back(node);
  return m;
}

/// One field of each of `t`'s inputs (distance or bytes).
std::vector<double> perInput(const Task &t, double Task::InputReuse::*field) {
  std::vector<double> out;
  for (const Task::InputReuse &input : t.inputReuse)
    out.push_back(input.*field);
  return out;
}

std::vector<double> distances(const Task &t) {
  return perInput(t, &Task::InputReuse::distance);
}

double timeOf(const Chain &c, TaskId t, double cache, double overhead = 0) {
  return MachineCostModel(machine(cache, overhead))
      .taskTime(c.graph.task(t), t, 0);
}
} // namespace

TEST(CacheReuse, ReuseDistancesFollowTheOrderTasksWereAdded) {
  // d0 written (8), d1 written (16): t2 reads d0 at distance 16 - 8 + 8 =
  // 16, then d1 at 24 - 16 + 8 = 16 (d0's read came between). d2 is
  // written at 40; t3 reads it at 8.
  Chain c = chain(CostClass::Elementwise);
  EXPECT_EQ(distances(c.graph.task(2)),
            (std::vector<double>{16 * MiB, 16 * MiB}));
  EXPECT_EQ(perInput(c.graph.task(2), &Task::InputReuse::bytes),
            (std::vector<double>{8 * MiB, 8 * MiB}));
  EXPECT_EQ(distances(c.graph.task(3)), (std::vector<double>{8 * MiB}));
  EXPECT_TRUE(c.graph.task(0).inputReuse.empty());
}

TEST(CacheReuse, InputsThatFitInTheCacheRunAtTheHotFactor) {
  Chain c = chain(CostClass::Elementwise);
  // 20 MiB: both of t2's inputs fit, 0.5 s; t3's d2 too.
  EXPECT_DOUBLE_EQ(timeOf(c, 2, 20 * MiB), 0.5);
  EXPECT_DOUBLE_EQ(timeOf(c, 3, 20 * MiB), 0.5);
  EXPECT_DOUBLE_EQ(timeOf(c, 0, 20 * MiB), 1.0); // reads nothing
  // 12 MiB: neither of t2's (16 each), d2 (8) does.
  EXPECT_DOUBLE_EQ(timeOf(c, 2, 12 * MiB), 1.0);
  EXPECT_DOUBLE_EQ(timeOf(c, 3, 12 * MiB), 0.5);
  // No cache model: 1 s.
  EXPECT_DOUBLE_EQ(timeOf(c, 3, 0), 1.0);
  // The runtime's 0.2 s of a task is not shortened: 0.2 + 0.8 * 0.5.
  EXPECT_DOUBLE_EQ(timeOf(c, 3, 20 * MiB, 0.2), 0.6);
  // The plan replayed: 1 + 1 + 0.5 + 0.5 + 1, and no plan's bound above it.
  MachineCostModel cost(machine(20 * MiB));
  SimulationReport r = simulate(c.graph, cost, c.plan);
  EXPECT_NEAR(r.makespan, 4.0, 1e-12);
  EXPECT_NEAR(lowerBounds(c.graph, cost).lower(), 4.0, 1e-12);
}

TEST(CacheReuse, HalfTheInputBytesHotIsHalfTheSaving) {
  // d0, d1 made (8 MiB each), then read as (d1, d0): d1 at distance 8, d0
  // at 16 - 8 + 8 + 8 = 24 (d1's read came between). With a 20 MiB cache
  // half the bytes are hot: 1 - 0.5 * 0.5 = 0.75 s.
  TaskGraph g;
  Task gen;
  gen.op = CostClass::Rand;
  DataId d0 = g.addData(g.addTask(gen), 8 * MiB);
  DataId d1 = g.addData(g.addTask(gen), 8 * MiB);
  Task use;
  use.op = CostClass::Elementwise;
  use.inputs = {d1, d0};
  TaskId id = g.addTask(use);
  EXPECT_EQ(distances(g.task(id)), (std::vector<double>{8 * MiB, 24 * MiB}));
  EXPECT_DOUBLE_EQ(hotInputShare(g.task(id), 20 * MiB), 0.5);
  EXPECT_DOUBLE_EQ(
      MachineCostModel(machine(20 * MiB)).taskTime(g.task(id), id, 0), 0.75);
}

TEST(CacheReuse, OnlyTasksThatStreamMemoryGetFaster) {
  // A square product (m = n = k = 10) computes more than it reads: 1 s
  // whatever the cache; a matrix-vector product (n = 1) streams its matrix:
  // 0.5 s. Solves and maps compute too.
  EXPECT_DOUBLE_EQ(timeOf(chain(CostClass::Gemm, 10, 10), 2, 20 * MiB), 1.0);
  EXPECT_DOUBLE_EQ(timeOf(chain(CostClass::Gemm, 10, 1), 2, 20 * MiB), 0.5);
  EXPECT_DOUBLE_EQ(timeOf(chain(CostClass::Solve, 10, 10), 2, 20 * MiB), 1.0);
  EXPECT_DOUBLE_EQ(timeOf(chain(CostClass::Tanh), 2, 20 * MiB), 1.0);
  for (CostClass streams : {CostClass::Copy, CostClass::Scale,
                            CostClass::Transpose, CostClass::Sparse})
    EXPECT_DOUBLE_EQ(timeOf(chain(streams, 10, 10), 2, 20 * MiB), 0.5)
        << cmmrt::plan::costClassName(streams);
}

TEST(CacheReuse, HotFactorIsTheMedianRatioWithinBounds) {
  using cmmrt::plan::CostClass;
  std::vector<HotSample> s = {{CostClass::Gemm, {}, 2.0, 1.0},
                              {CostClass::Elementwise, {}, 1.0, 0.7},
                              {CostClass::Transpose, {}, 4.0, 1.2}};
  EXPECT_DOUBLE_EQ(hotFactorOf(s), 0.5);
  EXPECT_DOUBLE_EQ(hotFactorOf({}), 1.0);
  // A hot run slower than the cold one is noise: never above 1.
  EXPECT_DOUBLE_EQ(hotFactorOf({{CostClass::Copy, {}, 1.0, 1.3}}), 1.0);
  EXPECT_DOUBLE_EQ(hotFactorOf({{CostClass::Copy, {}, 1.0, 0.001}}), 0.05);
  EXPECT_GE(lastLevelCacheBytes(), 0.0);
}

/// Writes one sysfs cache entry (level, type, size) under `dir`/indexN.
static void writeCacheEntry(const std::filesystem::path &dir, int index,
                            int level, const char *type, const char *size) {
  std::filesystem::path entry = dir / ("index" + std::to_string(index));
  std::filesystem::create_directories(entry);
  std::ofstream(entry / "level") << level << "\n";
  std::ofstream(entry / "type") << type << "\n";
  std::ofstream(entry / "size") << size << "\n";
}

TEST(CacheReuse, LastLevelCacheComesFromSysfsBeforeSysconf) {
  std::filesystem::path dir = std::filesystem::temp_directory_path() /
                              ("cmm-cache-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  writeCacheEntry(dir, 0, 1, "Data", "32K");
  writeCacheEntry(dir, 1, 1, "Instruction", "32K");
  writeCacheEntry(dir, 2, 2, "Unified", "512K");
  writeCacheEntry(dir, 3, 3, "Unified", "32768K");
  // The highest data or unified level, whatever sysconf says (on the
  // development VM sysconf reads the host's 256 MiB).
  EXPECT_DOUBLE_EQ(lastLevelCacheBytes(dir.string()), 32.0 * (1 << 20));
  // An instruction cache never counts, even at a higher level; "M" sizes.
  writeCacheEntry(dir, 4, 4, "Instruction", "64M");
  EXPECT_DOUBLE_EQ(lastLevelCacheBytes(dir.string()), 32.0 * (1 << 20));
  writeCacheEntry(dir, 5, 4, "Unified", "64M");
  EXPECT_DOUBLE_EQ(lastLevelCacheBytes(dir.string()), 64.0 * (1 << 20));
  std::filesystem::remove_all(dir);
  // No sysfs entries: sysconf's level 3 where it gives one, else 0.
  double fallback = 0;
#ifdef _SC_LEVEL3_CACHE_SIZE
  fallback = std::max(0L, sysconf(_SC_LEVEL3_CACHE_SIZE));
#endif
  EXPECT_DOUBLE_EQ(lastLevelCacheBytes(dir.string()), fallback);
}

TEST(BlasPackingBuffer, PackedBytesFollowOpenBlasPanels) {
  // Page faults of a first call (docs/machine-model.md, "The BLAS packing
  // buffer"): 20000 x 100 x 5 15.4 MB, 20000 x 300 x 5 23.0 MB (two k
  // chunks of 150), 8000 x 64 x 32 2.0 MB.
  EXPECT_DOUBLE_EQ(blasPackBytes(20000, 5, 100), 8.0 * 20000 * 100);
  EXPECT_DOUBLE_EQ(blasPackBytes(20000, 5, 300), 8.0 * 20000 * 150);
  EXPECT_DOUBLE_EQ(blasPackBytes(8000, 32, 64), 8.0 * 8000 * 64);
  EXPECT_DOUBLE_EQ(blasPackBytes(1000, 1000, 1000), 8.0 * 1000 * 250);
  // dgemv packs nothing.
  EXPECT_EQ(blasPackBytes(20000, 1, 100), 0.0);
  EXPECT_EQ(blasPackBytes(1, 20000, 100), 0.0);
}

/// A task of class `op` at m, n, k making one m x n item.
static TaskId addSized(TaskGraph &g, CostClass op, double m, double n,
                       double k) {
  Task t;
  t.op = op;
  t.m = m;
  t.n = n;
  t.k = k;
  TaskId id = g.addTask(t);
  g.addData(id, 8 * m * n);
  return id;
}

TEST(BlasPackingBuffer, OnlyAProductPackingMoreThanAnyBeforePaysItsPages) {
  // Products of 4000 x 32 (k = 100), 20000 x 32 (k = 100), 20000 x 32
  // again, 8000 x 32, which the runtime runs threaded; an elementwise task
  // between; a matrix-vector product last.
  TaskGraph g;
  TaskId small = addSized(g, CostClass::Gemm, 4000, 32, 100);
  TaskId add1 = addSized(g, CostClass::Elementwise, 4000, 32, 1);
  TaskId large = addSized(g, CostClass::Gemm, 20000, 32, 100);
  TaskId again = addSized(g, CostClass::Gemm, 20000, 32, 100);
  TaskId middle = addSized(g, CostClass::Gemm, 8000, 32, 100);
  TaskId gemv = addSized(g, CostClass::Gemm, 30000, 1, 100);
  EXPECT_DOUBLE_EQ(g.task(small).freshPack.shared, 8.0 * 4000 * 100);
  EXPECT_DOUBLE_EQ(g.task(add1).freshPack.shared, 0.0);
  EXPECT_DOUBLE_EQ(g.task(large).freshPack.shared, 8.0 * 16000 * 100);
  EXPECT_DOUBLE_EQ(g.task(again).freshPack.shared, 0.0);
  EXPECT_DOUBLE_EQ(g.task(middle).freshPack.shared, 0.0);
  EXPECT_DOUBLE_EQ(g.task(gemv).freshPack.shared, 0.0);

  // The cost model charges them at the node's first-touch price, on top
  // of the class polynomial (here 1 s a task), on a node whose one worker
  // runs two BLAS threads. Each thread's block (32 columns of a k chunk)
  // was packed by the first product already.
  EXPECT_DOUBLE_EQ(g.task(small).freshPack.perThread, 8.0 * 100 * 32);
  EXPECT_DOUBLE_EQ(g.task(large).freshPack.perThread, 0.0);
  MachineModel m = machine(0);
  m.nodes[0].firstTouch = 1e-9;
  m.nodes[0].threadsPerWorker = 2;
  MachineCostModel cost(m);
  EXPECT_DOUBLE_EQ(cost.taskTime(g.task(large), large, 0),
                   1 + 8.0 * 16000 * 100 * 1e-9);
  EXPECT_DOUBLE_EQ(cost.taskTime(g.task(again), again, 0), 1.0);
}

TEST(BlasPackingBuffer, ProductsOnOneThreadPackAsOpenBlasDoesThere) {
  // The runtime runs a product of fewer than 24 result columns on one
  // BLAS thread (cmmrt::threadsSpeedUpProduct), where OpenBLAS packed
  // 0.07 MB of 20000 x 5 x 100 (16.1 MB on two threads). Measured page
  // faults of a first call on one thread (BlasPack.h), within 20 % and the
  // 16 pages (0.07 MB) the thinnest first call faulted.
  BlasPack thin = blasPack(CostClass::Gemm, 20000, 5, 100);
  EXPECT_EQ(thin.family, BlasPack::Product);
  EXPECT_DOUBLE_EQ(thin.shared, oneThreadPackBytes(20000, 5, 100));
  EXPECT_EQ(thin.perThread, 0.0);
  EXPECT_LT(thin.bytes(2), 0.1e6);
  EXPECT_EQ(blasPack(CostClass::Gemm, 20000, 1, 100).bytes(2), 0.0); // dgemv
  // A product threads speed up is costed as the threaded one.
  EXPECT_DOUBLE_EQ(blasPack(CostClass::Gemm, 1000, 1000, 1000).shared,
                   blasPackBytes(1000, 1000, 1000));
  struct Case {
    double m, n, k, megabytes;
  } measured[] = {{1000, 1000, 1000, 3.13}, {2000, 2000, 2000, 5.19},
                  {1000, 125, 1000, 0.36},  {125, 1000, 1000, 1.34},
                  {1000, 1000, 125, 1.55},  {500, 64, 500, 0.23},
                  {64, 500, 500, 1.11},     {300, 300, 300, 0.45}};
  for (const Case &c : measured)
    EXPECT_NEAR(oneThreadPackBytes(c.m, c.n, c.k) / 1e6, c.megabytes,
                0.2 * c.megabytes + 0.07)
        << c.m << " x " << c.n << " x " << c.k;
}

TEST(BlasPackingBuffer, NodesOfOneTaskThreadAreChargedTheOneThreadPacking) {
  // A 20000 x 32 x 100 product runs threaded where a node's one worker has
  // two BLAS threads: 8 * 20000 * 100 shared + 8 * 100 * 32 per thread.
  // On a node of several one-thread workers it packs 8 * 100 * (32 + 24)
  // (oneThreadPackBytes); then a 1000^3 product packs 8 * 250 * 1500, of
  // which 8 * 100 * 56 was packed already.
  TaskGraph g;
  TaskId thin = addSized(g, CostClass::Gemm, 20000, 32, 100);
  TaskId square = addSized(g, CostClass::Gemm, 1000, 1000, 1000);
  EXPECT_DOUBLE_EQ(g.task(thin).freshPack.oneThread, 8.0 * 100 * 56);
  EXPECT_DOUBLE_EQ(g.task(square).freshPack.oneThread,
                   8.0 * 250 * 1500 - 8.0 * 100 * 56);
  MachineModel m = machine(0);
  m.nodes[0].firstTouch = 1e-9;
  m.nodes[0].threadsPerWorker = 2;
  ASSERT_EQ(m.nodes[0].taskThreads(), 2u);
  EXPECT_DOUBLE_EQ(MachineCostModel(m).taskTime(g.task(thin), thin, 0),
                   1 + (8.0 * 20000 * 100 + 2 * 8.0 * 100 * 32) * 1e-9);
  m.nodes[0].workers = 2;
  ASSERT_EQ(m.nodes[0].taskThreads(), 1u);
  MachineCostModel oneThread(m);
  EXPECT_DOUBLE_EQ(oneThread.taskTime(g.task(thin), thin, 0),
                   1 + 8.0 * 100 * 56 * 1e-9);
  EXPECT_DOUBLE_EQ(oneThread.taskTime(g.task(square), square, 0),
                   1 + (8.0 * 250 * 1500 - 8.0 * 100 * 56) * 1e-9);
}

TEST(BlasPackingBuffer, EachBlas3CallPacksAChunkOfEveryThreadsBlock) {
  // k chunks of 1000 / 4 = 250; per thread at most 512 columns.
  BlasPack gemm = blasPack(CostClass::Gemm, 1000, 1000, 1000);
  EXPECT_EQ(gemm.family, BlasPack::Product);
  EXPECT_DOUBLE_EQ(gemm.shared, 8.0 * 250 * 1000);
  EXPECT_DOUBLE_EQ(gemm.perThread, 8.0 * 250 * 512);
  // Measured first calls: 4.0 MB on 2 threads, 3.0 on one.
  EXPECT_NEAR(gemm.bytes(2) / MiB, 4.0, 0.2);
  EXPECT_NEAR(gemm.bytes(1) / MiB, 3.0, 0.2);
  // SYRK's depth is 2 k, POTRF's its size: the product of 1000.
  for (BlasPack p : {blasPack(CostClass::Syrk, 1000, 1000, 500),
                     blasPack(CostClass::Potrf, 1000, 1000, 167)}) {
    EXPECT_EQ(p.family, BlasPack::Product);
    EXPECT_DOUBLE_EQ(p.shared, gemm.shared);
    EXPECT_DOUBLE_EQ(p.perThread, gemm.perThread);
    EXPECT_DOUBLE_EQ(p.oneThread, gemm.oneThread);
  }
  // One right-hand side: one thread packs the triangle's panel (2.0 MB
  // measured); many: each thread does (5.8 MB on 2 threads, 3.0 on one).
  BlasPack one = blasPack(CostClass::Trsm, 1000, 1, 500);
  EXPECT_EQ(one.family, BlasPack::TriangularSolve);
  EXPECT_DOUBLE_EQ(one.bytes(2), 8.0 * 250 * 1001);
  EXPECT_DOUBLE_EQ(one.bytes(1), one.bytes(2));
  BlasPack many = blasPack(CostClass::Trsm, 1000, 1000, 500);
  EXPECT_NEAR(many.bytes(2) / MiB, 5.8, 0.2);
  EXPECT_NEAR(many.bytes(1) / MiB, 2.9, 0.1);
  // dgemv and element-wise tasks pack nothing.
  EXPECT_EQ(blasPack(CostClass::Gemm, 1000, 1, 1000).bytes(2), 0.0);
  EXPECT_EQ(blasPack(CostClass::Elementwise, 1000, 1000, 1).bytes(2), 0.0);
}

TEST(BlasPackingBuffer, TriangularSolvesAndProductsKeepTheirOwnMarks) {
  TaskGraph g;
  TaskId gemm = addSized(g, CostClass::Gemm, 1000, 1000, 1000);
  TaskId potrf = addSized(g, CostClass::Potrf, 1000, 1000, 167);
  TaskId solve = addSized(g, CostClass::Trsm, 1000, 1, 500);
  TaskId again = addSized(g, CostClass::Trsm, 1000, 1, 500);
  TaskId wide = addSized(g, CostClass::Trsm, 1000, 1000, 500);
  EXPECT_DOUBLE_EQ(g.task(gemm).freshPack.shared, 8.0 * 250 * 1000);
  EXPECT_DOUBLE_EQ(g.task(gemm).freshPack.perThread, 8.0 * 250 * 512);
  // The product before it packed as much.
  EXPECT_EQ(g.task(potrf).freshPack.shared, 0.0);
  EXPECT_EQ(g.task(potrf).freshPack.perThread, 0.0);
  // The products' pages are not the solve's.
  EXPECT_DOUBLE_EQ(g.task(solve).freshPack.shared, 8.0 * 250 * 1001);
  EXPECT_EQ(g.task(again).freshPack.shared, 0.0);
  EXPECT_DOUBLE_EQ(g.task(wide).freshPack.perThread, 8.0 * 250 * 1512);

  // Charged at the first-touch price, the per-thread part on every thread
  // of the node's tasks.
  MachineModel m = machine(0);
  m.nodes[0].firstTouch = 1e-9;
  m.nodes[0].threadsPerWorker = 2;
  MachineCostModel cost(m);
  unsigned threads = m.nodes[0].taskThreads();
  EXPECT_DOUBLE_EQ(cost.taskTime(g.task(gemm), gemm, 0),
                   1 + (8.0 * 250 * 1000 + threads * 8.0 * 250 * 512) * 1e-9);
  EXPECT_DOUBLE_EQ(cost.taskTime(g.task(potrf), potrf, 0), 1.0);
}
