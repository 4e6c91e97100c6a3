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
#include "cmmrt/Placement.h"
#include "cmmrt/PlanTables.h"
#include "cmmrt/Program.h"
#include "cmmrt/Random.h"
#include "cmmrt/RowBands.h"

#include <gtest/gtest.h>
#include <mpi.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
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

// The executor's worker and communicator threads are kept across runs
// (cmmrt/ThreadTeam.h), found by their names in /proc/self/task. A kept
// worker runs where the run binds it (a lone worker of several threads on
// cores chosen for it, else anywhere the process may run), and a run at
// normal priority drops the real-time policy an earlier run gave its
// communicators.
namespace {
struct ThreadState {
  pid_t tid = 0;
  std::vector<int> cores;
  int policy = -1;
};

std::vector<ThreadState> threadsNamed(const std::string &name) {
  std::vector<ThreadState> found;
  for (const auto &entry :
       std::filesystem::directory_iterator("/proc/self/task")) {
    std::ifstream comm(entry.path() / "comm");
    std::string threadName;
    std::getline(comm, threadName);
    if (threadName != name)
      continue;
    pid_t tid = pid_t(std::stol(entry.path().filename().string()));
    ThreadState state;
    state.tid = tid;
    cpu_set_t set;
    if (sched_getaffinity(tid, sizeof set, &set) == 0)
      for (int c = 0; c < CPU_SETSIZE; ++c)
        if (CPU_ISSET(c, &set))
          state.cores.push_back(c);
    state.policy = sched_getscheduler(tid);
    found.push_back(state);
  }
  // In the order they were made: a team's thread i serves job i.
  std::sort(
      found.begin(), found.end(),
      [](const ThreadState &a, const ThreadState &b) { return a.tid < b.tid; });
  return found;
}

/// A tile from rank 0 to rank 1 and back: both ranks run a communicator.
const Plan &pingPong(PlanBuilder &b) {
  int32_t fill = b.op(OpCode::Fill, 2, 2, 3.0);
  int32_t twice = b.op(OpCode::Scale, 2, 2, 2.0);
  int32_t print = b.op(OpCode::Print, 2, 2);
  int32_t tile = b.task(TaskKind::Generate, fill, 0, {}, 2, 2);
  int32_t there = b.send(tile, 1, 0);
  int32_t doubled = b.task(TaskKind::Elementwise, twice, 1, {there}, 2, 2);
  b.task(TaskKind::Gather, print, 0, {b.send(doubled, 0, 0)});
  return b.finish();
}
} // namespace

TEST(Executor, ThreadsAreKeptAcrossRunsAsEachRunWantsThem) {
  if (worldSize() < 2)
    GTEST_SKIP() << "needs two ranks";
  PlanBuilder first(worldSize()), second(worldSize()), third(worldSize());
  ExecOptions realtime;
  realtime.realtimeCommunicators = true;
  ExecResult result;
  executePlan(pingPong(first), realtime, result);
  size_t workers = threadsNamed("cmm-worker").size();
  size_t comms = threadsNamed("cmm-comm").size();
  executePlan(pingPong(second), realtime, result);
  std::vector<ThreadState> keptWorkers = threadsNamed("cmm-worker");
  std::vector<ThreadState> keptComms = threadsNamed("cmm-comm");
  EXPECT_EQ(keptWorkers.size(), workers) << "a second run made new workers";
  EXPECT_EQ(keptComms.size(), comms) << "a second run made new communicators";
  ASSERT_GE(keptWorkers.size(), 1u);
  int rank = worldRank();
  if (rank < 2)
    ASSERT_GE(keptComms.size(), 1u);

  // One worker a rank: bound where the executor chose cores for it
  // (taskCores), else where the process may run.
  std::vector<int> process = allowedCores();
  std::vector<int> cores = taskCores();
  std::vector<int> bound = cores.empty() ? process : std::vector<int>{cores[0]};
  EXPECT_EQ(keptWorkers[0].cores, bound);
  if (rank < 2 && geteuid() == 0)
    EXPECT_EQ(keptComms[0].policy, SCHED_FIFO) << "rank " << rank;

  ExecOptions unbound;
  unbound.bindThreads = false;
  unbound.realtimeCommunicators = false;
  executePlan(pingPong(third), unbound, result);
  // The threads that ran this plan's jobs (a team's others wait as they
  // were: earlier tests ran two communicators).
  EXPECT_EQ(threadsNamed("cmm-worker")[0].cores, process);
  if (rank < 2)
    EXPECT_EQ(threadsNamed("cmm-comm")[0].policy, SCHED_OTHER);
}

// A value in pieces (an export kept where its tiles were made): each rank
// holds its own, rank 0 counts those elsewhere as sent, and materialize
// assembles the value on rank 0 from what the holders send.
namespace {
bool equal(const Matrix &a, const Matrix &b) {
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         std::equal(a.data(), a.data() + a.size(), b.data());
}

Matrix numbered(int64_t rows, int64_t cols) {
  Matrix m(rows, cols);
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      m(i, j) = double(10 * i + j);
  return m;
}

/// The 4x6 `numbered` matrix as four 2x3 pieces, piece p on rank p % size.
std::vector<Piece> fourPieces(int size) {
  std::vector<Piece> pieces;
  for (int p = 0; p < 4; ++p)
    pieces.push_back({2 * (p / 2), 3 * (p % 2), 2, 3, p % size});
  return pieces;
}

void setFourPieces(Environment &env, int32_t id) {
  int rank = worldRank(), size = worldSize();
  Matrix m = numbered(4, 6);
  std::vector<std::shared_ptr<const Matrix>> local;
  for (const Piece &p : fourPieces(size))
    if (p.node == rank)
      local.push_back(std::make_shared<const Matrix>(
          sliceOf(m, p.row0, p.col0, p.rows, p.cols)));
  env.setPieces(id, 4, 6, fourPieces(size), local);
}
} // namespace

TEST(Environment, PiecesStayWhereTheyWereMade) {
  int rank = worldRank(), size = worldSize();
  Environment env(2, rank);
  setFourPieces(env, 0);
  EXPECT_FALSE(env.isWhole(0));
  EXPECT_TRUE(env.isWhole(1));
  EXPECT_EQ(env.version(0), 1);
  Matrix m = numbered(4, 6);
  for (const Piece &p : fourPieces(size)) {
    Slot slot{p.node, p.rows, p.cols, p.row0, p.col0, 1};
    EXPECT_TRUE(env.keptOn(0, slot, p.node));
    EXPECT_FALSE(env.keptOn(0, slot, (p.node + 1) % (size + 1)));
    std::shared_ptr<const Matrix> kept = env.cached(env.keyOf(0, p));
    if (p.node == rank) {
      ASSERT_TRUE(kept);
      EXPECT_TRUE(equal(*kept, sliceOf(m, p.row0, p.col0, p.rows, p.cols)));
    } else {
      EXPECT_FALSE(kept);
    }
    // Rank 0 never sends a piece that is already on its node.
    if (rank == 0 && p.node != 0) {
      EXPECT_FALSE(env.firstSend(env.keyOf(0, p)));
    }
  }
  long long bytes = 0;
  long long moved = env.materialize(0, bytes);
  EXPECT_TRUE(env.isWhole(0));
  if (rank == 0) {
    long long elsewhere = 0;
    for (const Piece &p : fourPieces(size))
      elsewhere += p.node != 0;
    EXPECT_EQ(moved, elsewhere);
    EXPECT_EQ(bytes, elsewhere * 6 * 8);
    ASSERT_TRUE(env.value(0));
    EXPECT_TRUE(equal(*env.value(0), m));
  }
  // Whole again, the pieces are still where they were.
  EXPECT_EQ(env.materialize(0, bytes), 0);
  EXPECT_TRUE(env.keptOn(0, {0, 2, 3, 0, 0, 1}, 0));
}

TEST(Environment, AssignMovesPiecesWithoutSending) {
  int rank = worldRank(), size = worldSize();
  Environment env(3, rank);
  setFourPieces(env, 0);
  env.set(2,
          rank == 0 ? std::make_shared<const Matrix>(numbered(1, 1)) : nullptr);
  // Both at once: 1 = 0 and 0 = 2 (a carried value going round).
  env.assign({1, 0}, {0, 2});
  EXPECT_TRUE(env.isWhole(0));
  EXPECT_FALSE(env.isWhole(1));
  for (const Piece &p : fourPieces(size))
    EXPECT_EQ(bool(env.cached(env.keyOf(1, p))), p.node == rank);
  long long bytes = 0;
  env.materialize(1, bytes);
  if (rank == 0) {
    EXPECT_TRUE(equal(*env.value(1), numbered(4, 6)));
    EXPECT_TRUE(equal(*env.value(0), numbered(1, 1)));
  }
  // A new value drops the pieces everywhere.
  env.set(1, nullptr);
  EXPECT_TRUE(env.piecesOf(1).empty());
  for (const Piece &p : fourPieces(size))
    EXPECT_FALSE(env.cached(env.keyOf(1, p)));
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
