//===- TaskKernelsTest.cpp - Planned tasks on tiles -------------*- C++ -*-===//
//
// Each task kind on tiles against the whole-matrix kernel (cmmrt/Kernels.h)
// of the reference interpreter or a hand result: a matrix cut into tiles,
// run task by task as a plan would, and put back together must equal the
// matrix computed whole.
//
//===----------------------------------------------------------------------===//

#include "cmmrt/TaskKernels.h"
#include "RelativeError.h"
#include "cmmrt/Factorizations.h"
#include "cmmrt/Format.h"
#include "cmmrt/Kernels.h"
#include "cmmrt/Random.h"
#include "cmmrt/RowBands.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace cmmrt;
using namespace cmmrt::plan;

namespace {

Matrix randomMatrix(int64_t rows, int64_t cols, uint64_t id) {
  Matrix m(rows, cols);
  fillRandom(m, false, 7, id);
  return m;
}

Matrix block(const Matrix &m, int64_t r0, int64_t c0, int64_t rows,
             int64_t cols) {
  Matrix b(rows, cols);
  assemble(b, r0, c0, {{&m, 0, 0}});
  return b;
}

/// A one-task plan: `op`, and output slots (rows, cols, row0, col0).
struct OneTask {
  std::vector<Op> ops;
  std::vector<Slot> slots;
  Plan plan{};
  Task task{};
  OneTask(Op op, TaskKind kind, std::vector<Slot> outputs) : ops{op} {
    slots = std::move(outputs);
    plan.sourceFile = "test.cmm";
    plan.ops = ops.data();
    plan.numOps = 1;
    plan.slots = slots.data();
    plan.numSlots = slots.size();
    task.kind = kind;
    task.op = kind == TaskKind::Merge ? -1 : 0;
    task.firstOutput = 0;
    task.numOutputs = slots.size();
    task.name = "t";
  }
  /// Runs the task; `reuse` (input `reuseInput`) as the executor passes a
  /// stolen input.
  bool run(const std::vector<TileRef> &inputs, std::vector<Matrix> &out,
           std::string &error, Matrix *reuse = nullptr, int reuseInput = -1) {
    LoadFn noLoad = [](int32_t, std::shared_ptr<const Matrix> &,
                       std::string &e) {
      e = "no load";
      return false;
    };
    return runTask(plan, task, inputs, out, noLoad, error, reuse, reuseInput);
  }
};

Op op(OpCode code, int64_t rows = 0, int64_t cols = 0) {
  Op o{};
  o.code = code;
  o.rows = rows;
  o.cols = cols;
  o.line = 3;
  o.column = 7;
  return o;
}

Slot slot(int64_t rows, int64_t cols, int64_t row0 = 0, int64_t col0 = 0) {
  return {0, rows, cols, row0, col0, 1};
}

} // namespace

TEST(TaskKernels, AssembleCopiesOnlyTheOverlap) {
  Matrix whole = randomMatrix(5, 7, 1);
  Matrix out(2, 3, -1.0);
  // Tiles of 3x4 at their origins; the 2x3 block at (2, 3) straddles four.
  std::vector<TileRef> parts;
  std::vector<Matrix> tiles;
  for (int64_t r = 0; r < 5; r += 3)
    for (int64_t c = 0; c < 7; c += 4)
      tiles.push_back(block(whole, r, c, std::min<int64_t>(3, 5 - r),
                            std::min<int64_t>(4, 7 - c)));
  size_t t = 0;
  for (int64_t r = 0; r < 5; r += 3)
    for (int64_t c = 0; c < 7; c += 4)
      parts.push_back({&tiles[t++], r, c});
  EXPECT_EQ(assemble(out, 2, 3, parts), 6);
  EXPECT_EQ(relativeError(out, block(whole, 2, 3, 2, 3)), 0.0);
}

TEST(TaskKernels, GeneratedTilesAreBlocksOfTheWholeMatrix) {
  Op rand = op(OpCode::Randn, 9, 8);
  rand.a = 42;
  rand.b = 5;
  Matrix whole(9, 8);
  fillRandom(whole, true, 42, 5);
  OneTask t(rand, TaskKind::Generate, {slot(4, 3, 4, 6)});
  std::vector<Matrix> out;
  std::string error;
  ASSERT_TRUE(t.run({}, out, error)) << error;
  // Only columns 6..7 exist: the slot is 4x3 by the plan, but the op is 8
  // wide, so compare the part inside the matrix.
  EXPECT_EQ(relativeError(block(out[0], 0, 0, 4, 2), block(whole, 4, 6, 4, 2)),
            0.0);

  Op range = op(OpCode::Range, 1, 10);
  range.a = -3;
  OneTask r(range, TaskKind::Generate, {slot(1, 4, 0, 4)});
  ASSERT_TRUE(r.run({}, out, error));
  EXPECT_EQ(out[0](0, 0), 1.0); // element 4 of -3:6
  EXPECT_EQ(out[0](0, 3), 4.0);

  OneTask eye(op(OpCode::Eye, 6, 6), TaskKind::Generate, {slot(3, 3, 3, 0)});
  ASSERT_TRUE(eye.run({}, out, error));
  for (int64_t i = 0; i < 3; ++i)
    for (int64_t j = 0; j < 3; ++j)
      EXPECT_EQ(out[0](i, j), 0.0); // an off-diagonal block
}

TEST(TaskKernels, GemmAccChainEqualsTheProduct) {
  // C = A B with A 5x7, B 7x4 cut along k into 3 + 4: gemm then gemm_acc.
  Matrix a = randomMatrix(5, 7, 2), b = randomMatrix(7, 4, 3);
  Matrix a0 = block(a, 0, 0, 5, 3), a1 = block(a, 0, 3, 5, 4);
  Matrix b0 = block(b, 0, 0, 3, 4), b1 = block(b, 3, 0, 4, 4);
  OneTask gemm(op(OpCode::Matmul, 5, 4), TaskKind::Gemm, {slot(5, 4)});
  std::vector<Matrix> partial, out;
  std::string error;
  ASSERT_TRUE(gemm.run({{&a0, 0, 0}, {&b0, 0, 0}}, partial, error));
  OneTask acc(op(OpCode::Matmul, 5, 4), TaskKind::GemmAcc, {slot(5, 4)});
  ASSERT_TRUE(
      acc.run({{&a1, 0, 3}, {&b1, 3, 0}, {&partial[0], 0, 0}}, out, error));
  EXPECT_LT(relativeError(out[0], matmul(a, b)), 1e-15);
  // Shapes that do not agree are an error, not a crash.
  EXPECT_FALSE(gemm.run({{&a0, 0, 0}, {&b1, 0, 0}}, out, error));
  EXPECT_NE(error.find("do not agree"), std::string::npos);
}

TEST(TaskKernels, TransposedGemmReadsTilesOfTheStoredOperand) {
  // C = A' * B' with A 7x5, B 4x7 (C 5x4), as the tiler cuts it at tile
  // size 3: tile (i, k) of A' is tile (k, i) of A, tile (k, j) of B' is
  // tile (j, k) of B, ragged at the edges (7 = 3 + 3 + 1).
  Matrix a = randomMatrix(7, 5, 4), b = randomMatrix(4, 7, 5);
  Matrix expected = matmul(transpose(a), transpose(b));
  Op product = op(OpCode::Matmul, 5, 4);
  product.a = kTransposeLhs | kTransposeRhs;
  auto extent = [](int64_t n, int64_t t) {
    return std::min<int64_t>(3, n - 3 * t);
  };
  for (int64_t i = 0; i < 2; ++i)     // C's row tiles: 3 + 2
    for (int64_t j = 0; j < 2; ++j) { // C's column tiles: 3 + 1
      int64_t rows = extent(5, i), cols = extent(4, j);
      Matrix acc;
      for (int64_t k = 0; k < 3; ++k) { // inner tiles: 3 + 3 + 1
        int64_t depth = extent(7, k);
        Matrix ak = block(a, 3 * k, 3 * i, depth, rows);
        Matrix bk = block(b, 3 * j, 3 * k, cols, depth);
        OneTask task(product, k ? TaskKind::GemmAcc : TaskKind::Gemm,
                     {slot(rows, cols, 3 * i, 3 * j)});
        std::vector<TileRef> inputs{{&ak, 3 * k, 3 * i}, {&bk, 3 * j, 3 * k}};
        if (k)
          inputs.push_back({&acc, 3 * i, 3 * j});
        std::vector<Matrix> out;
        std::string error;
        ASSERT_TRUE(task.run(inputs, out, error)) << error;
        acc = std::move(out[0]);
      }
      EXPECT_LT(relativeError(acc, block(expected, 3 * i, 3 * j, rows, cols)),
                1e-15);
    }
  // Read without the flag, the same tiles do not agree.
  OneTask plain(op(OpCode::Matmul, 3, 3), TaskKind::Gemm, {slot(3, 3)});
  Matrix a0 = block(a, 0, 0, 3, 3), b0 = block(b, 0, 0, 3, 3);
  Matrix a1 = block(a, 0, 0, 3, 2);
  std::vector<Matrix> out;
  std::string error;
  EXPECT_FALSE(plain.run({{&a1, 0, 0}, {&b0, 0, 0}}, out, error));
  OneTask flagged(product, TaskKind::Gemm, {slot(2, 3)});
  EXPECT_FALSE(flagged.run({{&a0, 0, 0}, {&b0, 0, 0}}, out, error));
  EXPECT_NE(error.find("3x3' * 3x3'"), std::string::npos) << error;
}

TEST(TaskKernels, ReductionsOfTilesEqualTheWholeReduction) {
  Matrix m = randomMatrix(6, 5, 4);
  m(2, 3) = -7.0;
  Matrix top = block(m, 0, 0, 3, 5), bottom = block(m, 3, 0, 3, 5);
  struct Case {
    OpCode code;
    ReduceFn fn;
  } cases[] = {{OpCode::ReduceSum, ReduceFn::Sum},
               {OpCode::ReduceMax, ReduceFn::Max},
               {OpCode::ReduceMin, ReduceFn::Min},
               {OpCode::ReduceMean, ReduceFn::Mean}};
  for (const Case &c : cases)
    for (int dim : {0, 1}) { // dims that combine the two row blocks
      Op o = op(c.code, dim ? 1 : 1, dim ? 5 : 1);
      o.inRows = 6;
      o.inCols = 5;
      o.a = dim;
      Slot s = slot(1, dim ? 5 : 1);
      OneTask t(o, TaskKind::Reduce, {s});
      std::vector<Matrix> p0, p1, out;
      std::string error;
      ASSERT_TRUE(t.run({{&top, 0, 0}}, p0, error)) << error;
      ASSERT_TRUE(t.run({{&bottom, 3, 0}}, p1, error)) << error;
      ASSERT_TRUE(t.run({{&p0[0], 0, 0}, {&p1[0], 0, 0}}, out, error));
      EXPECT_LT(relativeError(out[0], reduce(c.fn, m, dim)), 1e-15)
          << "reduction " << int(c.code) << " dim " << dim;
    }
}

TEST(TaskKernels, NormOfTilesIsHypotOfTileNorms) {
  Matrix m = randomMatrix(4, 4, 5);
  m(0, 0) = 1e200; // squares would overflow
  Matrix left = block(m, 0, 0, 4, 2), right = block(m, 0, 2, 4, 2);
  Op norm = op(OpCode::Norm, 1, 1);
  OneTask t(norm, TaskKind::Reduce, {slot(1, 1)});
  std::vector<Matrix> p0, p1, out;
  std::string error;
  ASSERT_TRUE(t.run({{&left, 0, 0}}, p0, error));
  ASSERT_TRUE(t.run({{&right, 0, 2}}, p1, error));
  ASSERT_TRUE(t.run({{&p0[0], 0, 0}, {&p1[0], 0, 0}}, out, error));
  EXPECT_NEAR(out[0](0, 0) / frobeniusNorm(m), 1.0, 1e-15);
  // NaN anywhere gives NaN, as the whole-matrix norm.
  p1[0](0, 0) = std::numeric_limits<double>::quiet_NaN();
  ASSERT_TRUE(t.run({{&p0[0], 0, 0}, {&p1[0], 0, 0}}, out, error));
  EXPECT_TRUE(std::isnan(out[0](0, 0)));
}

TEST(TaskKernels, ElementwiseBroadcastsTiles) {
  Matrix a = randomMatrix(3, 4, 6), row = randomMatrix(1, 4, 7);
  OneTask t(op(OpCode::Div, 3, 4), TaskKind::Elementwise, {slot(3, 4)});
  std::vector<Matrix> out;
  std::string error;
  ASSERT_TRUE(t.run({{&a, 0, 0}, {&row, 0, 0}}, out, error));
  EXPECT_EQ(relativeError(out[0], broadcast(BinaryFn::Div, a, row)), 0.0);
  Matrix wrong = randomMatrix(2, 4, 8);
  EXPECT_FALSE(t.run({{&a, 0, 0}, {&wrong, 0, 0}}, out, error));
}

// A fused op's task runs its generated kernel when the plan has one, else
// its text step by step; both see the tiles broadcast as for one op.
void tenTimesPlusColumn(int64_t rows, int64_t cols, const fused::Operand *in,
                        double *out) {
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      out[i * cols + j] = in[0].data[i * cols + j] * 10 + in[1].data[i];
}

TEST(TaskKernels, FusedTaskRunsItsKernel) {
  Matrix a = randomMatrix(3, 4, 6), column = randomMatrix(3, 1, 7);
  Op o = op(OpCode::Fused, 3, 4);
  o.a = 2;
  o.text = "mul %i0, 10; add %t0, %i1; yield %t1";
  std::vector<Matrix> out;
  std::string error;
  OneTask stepwise(o, TaskKind::Elementwise, {slot(3, 4)});
  ASSERT_TRUE(stepwise.run({{&a, 0, 0}, {&column, 0, 0}}, out, error)) << error;
  Matrix expected = broadcast(BinaryFn::Add, scale(a, 10), column);
  EXPECT_EQ(relativeError(out[0], expected), 0.0);
  o.kernel = tenTimesPlusColumn;
  OneTask generated(o, TaskKind::Elementwise, {slot(3, 4)});
  ASSERT_TRUE(generated.run({{&a, 0, 0}, {&column, 0, 0}}, out, error));
  EXPECT_EQ(relativeError(out[0], expected), 0.0);
  // The tile count and shapes are checked before the kernel runs.
  EXPECT_FALSE(generated.run({{&a, 0, 0}}, out, error));
  EXPECT_EQ(error, "a fused task takes 2 tiles, not 1");
  Matrix wrong = randomMatrix(2, 4, 8);
  EXPECT_FALSE(generated.run({{&a, 0, 0}, {&wrong, 0, 0}}, out, error));
  o.kernel = nullptr;
  o.text = "mul %i0, %i2; yield %t0";
  OneTask broken(o, TaskKind::Elementwise, {slot(3, 4)});
  EXPECT_FALSE(broken.run({{&a, 0, 0}, {&column, 0, 0}}, out, error));
  EXPECT_EQ(error, "fused kernel: '%i2' names no input");
}

// On a node of one worker with several BLAS threads, tasks split their
// rows into bands (cmmrt/RowBands.h): every banded task of 301 x 400
// elements (above kMinBandedElements) on 3 threads equals, bit for bit, the
// whole-matrix kernels on one thread, and the generated values equal
// uniformAt's.
TEST(TaskKernels, BandedTasksEqualTheWholeMatrixKernels) {
  const int64_t rows = 301, cols = 400;
  ASSERT_GE(rows * cols, kMinBandedElements);
  Matrix a = randomMatrix(rows, cols, 20), row = randomMatrix(1, cols, 21),
         column = randomMatrix(rows, 1, 22);
  Op divide = op(OpCode::Div, rows, cols), tanhOp = op(OpCode::Map, rows, cols),
     scaleOp = op(OpCode::Scale, rows, cols),
     negOp = op(OpCode::Neg, rows, cols),
     fusedOp = op(OpCode::Fused, rows, cols),
     randOp = op(OpCode::Rand, rows, cols),
     transposeOp = op(OpCode::Transpose, cols, rows);
  tanhOp.a = int64_t(MapFn::Tanh);
  scaleOp.scalar = -2.5;
  fusedOp.a = 2;
  fusedOp.text = "mul %i0, 10; add %t0, %i1; yield %t1";
  randOp.a = 5;
  randOp.b = 9;
  const Matrix expectDivide = broadcast(BinaryFn::Div, a, row),
               expectTanh = map(MapFn::Tanh, a), expectScale = scale(a, -2.5),
               expectNeg = negate(a),
               expectFused = broadcast(BinaryFn::Add, scale(a, 10), column),
               expectTranspose = transpose(a);

  setTaskThreads(3);
  std::vector<Matrix> out;
  std::string error;
  auto runShaped = [&](Op o, TaskKind kind, std::vector<TileRef> in, int64_t r,
                       int64_t c) {
    OneTask t(o, kind, {slot(r, c, 1000, 2000)});
    bool ok = t.run(in, out, error);
    EXPECT_TRUE(ok) << error;
    return ok ? out[0] : Matrix();
  };
  auto runOne = [&](Op o, TaskKind kind, std::vector<TileRef> in) {
    return runShaped(o, kind, std::move(in), rows, cols);
  };
  auto same = [](const Matrix &x, const Matrix &y) {
    return x.shape() == y.shape() &&
           std::equal(x.values().begin(), x.values().end(), y.values().begin());
  };
  EXPECT_TRUE(
      same(runOne(divide, TaskKind::Elementwise, {{&a, 0, 0}, {&row, 0, 0}}),
           expectDivide));
  EXPECT_TRUE(
      same(runOne(tanhOp, TaskKind::Elementwise, {{&a, 0, 0}}), expectTanh));
  EXPECT_TRUE(
      same(runOne(scaleOp, TaskKind::Elementwise, {{&a, 0, 0}}), expectScale));
  EXPECT_TRUE(
      same(runOne(negOp, TaskKind::Elementwise, {{&a, 0, 0}}), expectNeg));
  EXPECT_TRUE(same(
      runOne(fusedOp, TaskKind::Elementwise, {{&a, 0, 0}, {&column, 0, 0}}),
      expectFused));
  fusedOp.kernel = tenTimesPlusColumn;
  EXPECT_TRUE(same(
      runOne(fusedOp, TaskKind::Elementwise, {{&a, 0, 0}, {&column, 0, 0}}),
      expectFused));
  EXPECT_TRUE(same(
      runShaped(transposeOp, TaskKind::Transpose, {{&a, 0, 0}}, cols, rows),
      expectTranspose));
  Matrix generated = runOne(randOp, TaskKind::Generate, {});
  setTaskThreads(1);
  ASSERT_EQ(generated.rows(), rows);
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      ASSERT_EQ(generated(i, j), uniformAt(5, 9, 1000 + i, 2000 + j));
}

TEST(TaskKernels, MergeRequiresFullCover) {
  Matrix m = randomMatrix(4, 4, 9);
  Matrix q[4] = {block(m, 0, 0, 2, 2), block(m, 0, 2, 2, 2),
                 block(m, 2, 0, 2, 2), block(m, 2, 2, 2, 2)};
  // A merge belongs to no op; the op entry is not read.
  OneTask t(op(OpCode::Fill), TaskKind::Merge, {slot(4, 4)});
  std::vector<Matrix> out;
  std::string error;
  ASSERT_TRUE(t.run(
      {{&q[0], 0, 0}, {&q[1], 0, 2}, {&q[2], 2, 0}, {&q[3], 2, 2}}, out, error))
      << error;
  EXPECT_EQ(relativeError(out[0], m), 0.0);
  EXPECT_FALSE(t.run({{&q[0], 0, 0}, {&q[1], 0, 2}}, out, error));
  EXPECT_NE(error.find("do not cover"), std::string::npos);
}

// chol as one task (TaskKind::Solve): op.a = 1 (cmm.chol `symmetric`, the
// input symmetric by construction) skips the symmetry test, which a
// matrix that is not symmetric fails otherwise; the factor is then that of
// the upper triangle (as the tiled potrf reads it), by hand.
TEST(TaskKernels, WholeCholeskyTestsSymmetryUnlessKnown) {
  Matrix a(2, 2);
  a(0, 0) = 2, a(0, 1) = 1, a(1, 0) = 0, a(1, 1) = 2;
  Op cholOp = op(OpCode::Chol, 2, 2);
  cholOp.inRows = cholOp.inCols = 2;
  OneTask tested(cholOp, TaskKind::Solve, {slot(2, 2)});
  std::vector<Matrix> out;
  std::string error;
  EXPECT_FALSE(tested.run({{&a, 0, 0}}, out, error));
  EXPECT_NE(error.find("chol: the 2x2 matrix is not symmetric"),
            std::string::npos)
      << error;
  cholOp.a = 1;
  OneTask known(cholOp, TaskKind::Solve, {slot(2, 2)});
  ASSERT_TRUE(known.run({{&a, 0, 0}}, out, error)) << error;
  EXPECT_NEAR(out[0](0, 0), std::sqrt(2.0), 1e-15);
  EXPECT_NEAR(out[0](0, 1), 1 / std::sqrt(2.0), 1e-15);
  EXPECT_EQ(out[0](1, 0), 0.0);
  EXPECT_NEAR(out[0](1, 1), std::sqrt(1.5), 1e-15);
  // A NaN still fails (as the test of a NaN does), whole or on a tile.
  a(0, 1) = a(1, 0) = std::nan("");
  EXPECT_FALSE(known.run({{&a, 0, 0}}, out, error));
  EXPECT_NE(error.find("chol: the 2x2 matrix is not symmetric"),
            std::string::npos)
      << error;
  OneTask potrf(cholOp, TaskKind::Potrf, {slot(2, 2)});
  potrf.task.numInputs = 1;
  error.clear();
  EXPECT_FALSE(potrf.run({{&a, 0, 0}}, out, error));
  EXPECT_NE(error.find("chol: the 2x2 matrix is not symmetric"),
            std::string::npos)
      << error;
}

TEST(TaskKernels, SolveFromTilesAndSingularMessage) {
  Matrix a = randomMatrix(4, 4, 10);
  for (int64_t i = 0; i < 4; ++i)
    a(i, i) += 4.0; // well conditioned
  Matrix b = randomMatrix(4, 2, 11);
  Op solveOp = op(OpCode::Solve, 4, 2);
  solveOp.inRows = 4;
  solveOp.inCols = 4;
  // A in two row blocks, then B whole; the result as two row tiles.
  Matrix a0 = block(a, 0, 0, 2, 4), a1 = block(a, 2, 0, 2, 4);
  OneTask t(solveOp, TaskKind::Solve, {slot(2, 2, 0, 0), slot(2, 2, 2, 0)});
  std::vector<Matrix> out;
  std::string error;
  ASSERT_TRUE(t.run({{&a0, 0, 0}, {&a1, 2, 0}, {&b, 0, 0}}, out, error))
      << error;
  Matrix x;
  ASSERT_TRUE(solve(a, b, x));
  EXPECT_LT(relativeError(out[0], block(x, 0, 0, 2, 2)), 1e-14);
  EXPECT_LT(relativeError(out[1], block(x, 2, 0, 2, 2)), 1e-14);

  Matrix zero(4, 4);
  Op invOp = op(OpCode::Inv, 4, 4);
  invOp.inRows = invOp.inCols = 4;
  OneTask inv(invOp, TaskKind::Solve, {slot(4, 4)});
  EXPECT_FALSE(inv.run({{&zero, 0, 0}}, out, error));
  EXPECT_EQ(error, "inv: the 4x4 matrix is singular");
  EXPECT_EQ(sourceLocation(inv.plan, 0), "test.cmm:3:7");
  // No source lines kept: no excerpt. With them: the line, then a caret
  // under column 7 (tabs kept so it lines up).
  EXPECT_EQ(sourceExcerpt(inv.plan, 0), "");
  const char *const lines[] = {nullptr, nullptr, "\tx = inv(A)"};
  inv.plan.sourceLines = lines;
  inv.plan.numSourceLines = 3;
  EXPECT_EQ(sourceExcerpt(inv.plan, 0), "\n\tx = inv(A)\n\t     ^");
  inv.plan.numSourceLines = 2; // the line is not in the table
  EXPECT_EQ(sourceExcerpt(inv.plan, 0), "");
  EXPECT_EQ(sourceExcerpt(inv.plan, -1), "");
}

TEST(TaskKernels, PrintLineFromTilesEqualsTheWholeMatrixLine) {
  Matrix m = randomMatrix(5, 7, 12);
  std::vector<Matrix> tiles;
  std::vector<TileRef> refs;
  // Ragged 2x3 tiles, listed in an order other than row-major.
  for (int64_t c = 6; c >= 0; c -= 3)
    for (int64_t r = 0; r < 5; r += 2) {
      int64_t c0 = c - c % 3;
      tiles.push_back(block(m, r, c0, std::min<int64_t>(2, 5 - r),
                            std::min<int64_t>(3, 7 - c0)));
    }
  size_t t = 0;
  for (int64_t c = 6; c >= 0; c -= 3)
    for (int64_t r = 0; r < 5; r += 2)
      refs.push_back({&tiles[t++], r, c - c % 3});
  EXPECT_EQ(summarizeTiles("M", 5, 7, refs), formatSummary("M", m));
  // NaN and Inf in the norm as for the whole matrix.
  tiles[0](0, 0) = std::numeric_limits<double>::infinity();
  m(0, 6) = std::numeric_limits<double>::infinity();
  EXPECT_EQ(summarizeTiles("M", 5, 7, refs), formatSummary("M", m));
}

// The names of OpCodes.def read back to their codes, and nothing else does.
TEST(OpCodes, NamesRoundTrip) {
  int count = 0;
  for (unsigned i = 0; i <= static_cast<unsigned>(OpCode::Save); ++i) {
    OpCode code = static_cast<OpCode>(i), back = OpCode::Save;
    ASSERT_TRUE(opCodeFromName(opCodeName(code), back)) << i;
    EXPECT_EQ(back, code);
    ++count;
  }
  EXPECT_EQ(count, 52);
  // A task over whole operands lists the tiles of each result in turn.
  EXPECT_EQ(resultCount(OpCode::Qr), 2u);
  EXPECT_EQ(resultCount(OpCode::Eig), 2u);
  EXPECT_EQ(resultCount(OpCode::Svd), 3u);
  EXPECT_EQ(resultCount(OpCode::SvdVals), 1u);
  EXPECT_EQ(resultCount(OpCode::Solve), 1u);
  EXPECT_STREQ(opCodeName(OpCode::Matmul), "matmul");
  EXPECT_STREQ(opCodeName(OpCode::ReduceMean), "reduce_mean");
  OpCode unchanged = OpCode::Add;
  EXPECT_FALSE(opCodeFromName("Matmul", unchanged));
  EXPECT_FALSE(opCodeFromName("", unchanged));
  EXPECT_EQ(unchanged, OpCode::Add);
}

// The names of TaskKinds.def read back to their kinds.
TEST(TaskKinds, NamesRoundTrip) {
  for (unsigned i = 0; i <= static_cast<unsigned>(TaskKind::Symmetry); ++i) {
    TaskKind kind = static_cast<TaskKind>(i), back = TaskKind::Merge;
    ASSERT_TRUE(taskKindFromName(taskKindName(kind), back)) << i;
    EXPECT_EQ(back, kind);
  }
  EXPECT_STREQ(taskKindName(TaskKind::GemmAcc), "gemm_acc");
  EXPECT_STREQ(taskKindName(TaskKind::DistributedGemm), "distributed_gemm");
  EXPECT_STREQ(taskKindName(TaskKind::GemmSub), "gemm_sub");
  TaskKind unchanged = TaskKind::Gemm;
  EXPECT_FALSE(taskKindFromName("gemm-accumulate", unchanged));
  EXPECT_EQ(unchanged, TaskKind::Gemm);
}

TEST(TaskKernels, InPlaceElementwiseAllocatesNoOutput) {
  // a + b written over a stolen a (what the executor passes as `reuse`):
  // the result is right and no fresh pooled block (512x512 = 2 MiB) is
  // mapped for an output that would be thrown away.
  const int64_t n = 512;
  Matrix a = randomMatrix(n, n, 1), b = randomMatrix(n, n, 2);
  Matrix expected = broadcast(BinaryFn::Add, a, b);
  OneTask t(op(OpCode::Add, n, n), TaskKind::Elementwise, {slot(n, n)});
  t.task.numInputs = 2;
  std::vector<TileRef> inputs = {{&a, 0, 0}, {&b, 0, 0}};
  std::vector<Matrix> out;
  std::string error;
  trimTileMemory();
  uint64_t fresh = tileMemoryStats().freshBlocks;
  ASSERT_TRUE(t.run(inputs, out, error, &a, 0)) << error;
  EXPECT_EQ(tileMemoryStats().freshBlocks, fresh);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(relativeError(out[0], expected), 0.0);
}

TEST(TaskKernels, GemmAccAccumulatesIntoTheStolenPartialSum) {
  // c += a b over a stolen partial sum c (the executor's `reuse` of input
  // 2): the product lands in c's own buffer. A copy of c would map a fresh
  // 512x512 block and fault its pages (4-14 % of each accumulating product
  // in a 4000-sized tiled product on this machine).
  const int64_t n = 512;
  Matrix a = randomMatrix(n, n, 1), b = randomMatrix(n, n, 2),
         c = randomMatrix(n, n, 3);
  Matrix expected = broadcast(BinaryFn::Add, matmul(a, b), c);
  OneTask t(op(OpCode::Matmul, n, n), TaskKind::GemmAcc, {slot(n, n)});
  t.task.numInputs = 3;
  std::vector<TileRef> inputs = {{&a, 0, 0}, {&b, 0, 0}, {&c, 0, 0}};
  std::vector<Matrix> out;
  std::string error;
  const double *buffer = c.data();
  trimTileMemory();
  uint64_t fresh = tileMemoryStats().freshBlocks;
  ASSERT_TRUE(t.run(inputs, out, error, &c, 2)) << error;
  EXPECT_EQ(tileMemoryStats().freshBlocks, fresh);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].data(), buffer);
  EXPECT_LT(relativeError(out[0], expected), 1e-14);
}

TEST(TaskKernels, FactorizationKernelsUpdateTheStolenTileInPlace) {
  // potrf, trsm, syrk and gemm_sub of chol and of triangular solves write over
  // the tile they update when the executor passes it as `reuse`
  // (mayWriteOver): the result lands in that tile's buffer, and equals the
  // one made from a copy and the product checked by hand (T X = B, C - A'
  // A, C - op(A) B).
  const int64_t n = 96;
  Matrix t = randomMatrix(n, n, 1);
  for (int64_t i = 0; i < n; ++i)
    t(i, i) += n; // well conditioned
  Matrix upper = t;
  keepTriangle(upper, /*lower=*/false);
  auto minus = [](const Matrix &a, const Matrix &b) {
    return broadcast(BinaryFn::Sub, a, b);
  };
  struct Case {
    const char *what;
    OpCode code;
    SolveMethod method;
    TaskKind kind;
  };
  for (Case c :
       {Case{"chol trsm", OpCode::Chol, SolveMethod::General, TaskKind::Trsm},
        Case{"R \\ B trsm", OpCode::Solve, SolveMethod::Upper, TaskKind::Trsm},
        Case{"R' \\ B trsm", OpCode::Solve, SolveMethod::UpperTransposed,
             TaskKind::Trsm},
        Case{"chol syrk", OpCode::Chol, SolveMethod::General, TaskKind::Syrk},
        Case{"chol gemm_sub", OpCode::Chol, SolveMethod::General,
             TaskKind::GemmSub},
        Case{"R \\ B gemm_sub", OpCode::Solve, SolveMethod::Upper,
             TaskKind::GemmSub},
        Case{"R' \\ B gemm_sub", OpCode::Solve, SolveMethod::UpperTransposed,
             TaskKind::GemmSub}}) {
    Op o = op(c.code, n, n);
    o.inRows = o.inCols = n;
    o.a = static_cast<int64_t>(c.method);
    OneTask task(o, c.kind, {slot(n, n)});
    Matrix a = randomMatrix(n, n, 2), b = randomMatrix(n, n, 3);
    std::vector<TileRef> inputs;
    int updated = 0;
    const bool transposedRead =
        c.code == OpCode::Chol || c.method == SolveMethod::UpperTransposed;
    Matrix expected;
    if (c.kind == TaskKind::Trsm) {
      inputs = {{&t, 0, 0}, {&b, 0, 0}};
      updated = 1;
    } else if (c.kind == TaskKind::Syrk) {
      inputs = {{&a, 0, 0}, {&b, 0, 0}};
      updated = 1;
      // Only the upper triangle is written (POTRF reads it).
      expected = minus(b, matmul(a, a, /*transposeA=*/true));
    } else {
      inputs = {{&a, 0, 0}, {&t, 0, 0}, {&b, 0, 0}};
      updated = 2;
      expected = minus(b, matmul(a, t, transposedRead));
    }
    task.task.numInputs = int32_t(inputs.size());
    std::vector<Matrix> copied, inPlace;
    std::string error;
    ASSERT_TRUE(task.run(inputs, copied, error)) << c.what << ": " << error;
    Matrix stolen = *inputs[size_t(updated)].tile;
    const double *buffer = stolen.data();
    inputs[size_t(updated)].tile = &stolen;
    ASSERT_TRUE(task.run(inputs, inPlace, error, &stolen, updated))
        << c.what << ": " << error;
    ASSERT_EQ(inPlace.size(), 1u);
    EXPECT_EQ(inPlace[0].data(), buffer) << c.what;
    EXPECT_EQ(relativeError(inPlace[0], copied[0]), 0.0) << c.what;
    if (c.kind == TaskKind::Trsm) {
      Matrix back = matmul(upper, inPlace[0], transposedRead);
      EXPECT_LT(relativeError(back, b), 1e-13) << c.what;
    } else if (c.kind == TaskKind::Syrk) {
      Matrix got = inPlace[0], want = expected;
      keepTriangle(got, /*lower=*/false);
      keepTriangle(want, /*lower=*/false);
      EXPECT_LT(relativeError(got, want), 1e-13) << c.what;
    } else {
      EXPECT_LT(relativeError(inPlace[0], expected), 1e-13) << c.what;
    }
  }
  // potrf over its diagonal tile: R' R = T' T.
  Op chol = op(OpCode::Chol, n, n);
  chol.inRows = chol.inCols = n;
  OneTask potrf(chol, TaskKind::Potrf, {slot(n, n)});
  potrf.task.numInputs = 1;
  Matrix gram = matmul(t, t, /*transposeA=*/true);
  const double *buffer = gram.data();
  std::vector<TileRef> inputs = {{&gram, 0, 0}};
  std::vector<Matrix> out;
  std::string error;
  ASSERT_TRUE(potrf.run(inputs, out, error, &gram, 0)) << error;
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].data(), buffer);
  EXPECT_LT(relativeError(matmul(out[0], out[0], /*transposeA=*/true),
                          matmul(t, t, /*transposeA=*/true)),
            1e-14);
}
