//===- ExecutorTest.cpp - The MPI executor on hand-made plans ---*- C++ -*-===//
//
// Run under mpirun (-np 2 and -np 4 in ctest). Each test builds a small
// plan by hand, runs it on every rank, and checks on rank 0 the gathered
// matrices (against values computed here), the bytes moved, the cache hits
// and that every tile copy was released.
//
//===----------------------------------------------------------------------===//

#include "cmmrt/Executor.h"
#include "cmmrt/Format.h"
#include "cmmrt/PlanTables.h"
#include "cmmrt/Random.h"

#include <gtest/gtest.h>
#include <mpi.h>

#include <cmath>
#include <vector>

using namespace cmmrt;
using namespace cmmrt::plan;

namespace {

int worldRank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

/// A plan's tables (cmmrt/PlanTables.h) with the ops these tests use.
struct PlanBuilder : PlanTables {
  explicit PlanBuilder(int nodes, int comms = 1) : PlanTables(nodes, comms) {}

  int32_t op(OpCode code, int64_t rows, int64_t cols, double scalar = 0) {
    Op o{};
    o.code = code;
    o.rows = rows;
    o.cols = cols;
    o.scalar = scalar;
    o.a = code == OpCode::Print ? 0 : 1; // a print's 1 is display(A)
    o.b = 2;
    o.text = "m";
    o.line = ++lines;
    o.column = 1;
    return PlanTables::op(o);
  }
  const Plan &finish() { return PlanTables::finish("test.cmm", 4); }

private:
  int lines = 0;
};

} // namespace

// A tile made on rank 0, sent to rank 1, read there by two tasks (the
// second read is a cache hit: no second transfer), both results back.
TEST(Executor, TransferReuseAndGather) {
  if (worldSize() < 2)
    GTEST_SKIP() << "needs two ranks";
  PlanBuilder b(worldSize(), /*comms=*/2);
  int32_t rand = b.op(OpCode::Rand, 4, 4);
  int32_t twice = b.op(OpCode::Scale, 4, 4, 2.0);
  int32_t neg = b.op(OpCode::Neg, 4, 4);
  int32_t printTwice = b.op(OpCode::Print, 4, 4);
  int32_t printNeg = b.op(OpCode::Print, 4, 4);
  int32_t r0 = b.task(TaskKind::Generate, rand, 0, {}, 4, 4);
  int32_t r1 = b.send(r0, 1, /*comm=*/0);
  int32_t t1 = b.task(TaskKind::Elementwise, twice, 1, {r1}, 4, 4);
  int32_t n1 = b.task(TaskKind::Elementwise, neg, 1, {r1}, 4, 4);
  int32_t t0 = b.send(t1, 0, /*comm=*/1);
  int32_t n0 = b.send(n1, 0, /*comm=*/0);
  b.task(TaskKind::Gather, printTwice, 0, {t0});
  b.task(TaskKind::Gather, printNeg, 0, {n0});

  ExecOptions keep;
  keep.keepPrinted = true; // whole matrices, as --dump-prints
  ExecResult result;
  executePlan(b.finish(), keep, result);
  if (worldRank() != 0)
    return;
  Matrix expected(4, 4);
  fillRandom(expected, false, 1, 2);
  ASSERT_EQ(result.gathered.size(), 2u);
  ASSERT_EQ(result.gathered[printTwice].size(), 16);
  ASSERT_EQ(result.gathered[printNeg].size(), 16);
  for (int64_t e = 0; e < 16; ++e) {
    EXPECT_EQ(result.gathered[printTwice].data()[e], 2 * expected.data()[e]);
    EXPECT_EQ(result.gathered[printNeg].data()[e], -expected.data()[e]);
  }
  EXPECT_EQ(result.bytesReceived, 3 * 16 * 8);
  EXPECT_EQ(result.bytesSent, 3 * 16 * 8);
  EXPECT_EQ(result.cacheHits, 1);
  EXPECT_EQ(result.tasks, 5);
  EXPECT_EQ(result.liveSlots, 0); // every copy released after its last use
}

// A tile passed around every rank, doubled on each, back to rank 0.
TEST(Executor, RingThroughEveryRank) {
  int size = worldSize();
  PlanBuilder b(size, /*comms=*/2);
  int32_t fill = b.op(OpCode::Fill, 2, 3, 1.0);
  int32_t twice = b.op(OpCode::Scale, 2, 3, 2.0);
  int32_t print = b.op(OpCode::Print, 2, 3);
  int32_t tile = b.task(TaskKind::Generate, fill, 0, {}, 2, 3);
  for (int r = 1; r < size; ++r) {
    int32_t here = b.send(tile, r, r % 2);
    tile = b.task(TaskKind::Elementwise, twice, r, {here}, 2, 3);
  }
  if (size > 1)
    tile = b.send(tile, 0, 1);
  b.task(TaskKind::Gather, print, 0, {tile});

  // Without --dump-prints a print keeps only its line, made from the tiles.
  ExecResult result;
  executePlan(b.finish(), ExecOptions{}, result);
  if (worldRank() != 0)
    return;
  EXPECT_TRUE(result.gathered.empty());
  EXPECT_EQ(result.printed[print],
            formatSummary("m", Matrix(2, 3, std::ldexp(1.0, size - 1))));
  EXPECT_EQ(result.bytesReceived, 6 * 8 * (size > 1 ? size : 0));
  EXPECT_EQ(result.cacheHits, 0);
  EXPECT_EQ(result.liveSlots, 0);
}

int main(int argc, char **argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  ::testing::InitGoogleTest(&argc, argv);
  if (worldRank() != 0) // one report, from rank 0
    delete ::testing::UnitTest::GetInstance()->listeners().Release(
        ::testing::UnitTest::GetInstance()
            ->listeners()
            .default_result_printer());
  int failed = provided < MPI_THREAD_MULTIPLE ? 1 : RUN_ALL_TESTS();
  int anyFailed = 0;
  MPI_Allreduce(&failed, &anyFailed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return anyFailed;
}
