//===- TaskKernels.cpp - What one planned task computes ---------*- C++ -*-===//

#include "cmmrt/TaskKernels.h"

#include "cmmrt/Factorizations.h"
#include "cmmrt/Format.h"
#include "cmmrt/Kernels.h"
#include "cmmrt/Random.h"
#include "cmmrt/RowBands.h"
#include "cmmrt/TileFactorizations.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

using namespace cmmrt;
using namespace cmmrt::plan;

int cmmrt::vectorProductMatrixInput(const Plan &plan, const Task &task) {
  if ((task.kind != TaskKind::Gemm && task.kind != TaskKind::GemmAcc) ||
      task.numOutputs != 1)
    return -1;
  const Slot &c = plan.slots[task.firstOutput];
  if (c.cols == 1 && c.rows > 1)
    return 0; // op(A) * column
  if (c.rows == 1 && c.cols > 1)
    return 1; // row * op(B)
  return -1;
}

std::string cmmrt::sourceLocation(const Plan &plan, int32_t op) {
  std::string file = plan.sourceFile ? plan.sourceFile : "<unknown>";
  if (op < 0 || op >= plan.numOps)
    return file;
  return file + ":" + std::to_string(plan.ops[op].line) + ":" +
         std::to_string(plan.ops[op].column);
}

std::string cmmrt::sourceExcerpt(const Plan &plan, int32_t op) {
  if (op < 0 || op >= plan.numOps || !plan.sourceLines)
    return "";
  int line = plan.ops[op].line, column = plan.ops[op].column;
  if (line < 1 || line > plan.numSourceLines || column < 1 ||
      !plan.sourceLines[line - 1])
    return "";
  std::string text = plan.sourceLines[line - 1];
  std::string caret;
  // Tabs stay tabs, so the caret lines up however the terminal shows them.
  for (int i = 0; i + 1 < column && i < static_cast<int>(text.size()); ++i)
    caret += text[i] == '\t' ? '\t' : ' ';
  return "\n" + text + "\n" + caret + "^";
}

std::string cmmrt::taskError(const Plan &plan, int32_t op,
                             const std::string &taskName,
                             const std::string &message) {
  return sourceLocation(plan, op) + ": error: " + message + " (task '" +
         taskName + "')";
}

int64_t cmmrt::assemble(Matrix &out, int64_t row0, int64_t col0,
                        const std::vector<TileRef> &parts) {
  int64_t copied = 0;
  for (const TileRef &p : parts) {
    int64_t r0 = std::max(row0, p.row0);
    int64_t r1 = std::min(row0 + out.rows(), p.row0 + p.tile->rows());
    int64_t c0 = std::max(col0, p.col0);
    int64_t c1 = std::min(col0 + out.cols(), p.col0 + p.tile->cols());
    if (r0 >= r1 || c0 >= c1)
      continue;
    for (int64_t r = r0; r < r1; ++r)
      std::memcpy(&out(r - row0, c0 - col0),
                  p.tile->data() + (r - p.row0) * p.tile->cols() +
                      (c0 - p.col0),
                  sizeof(double) * static_cast<size_t>(c1 - c0));
    copied += (r1 - r0) * (c1 - c0);
  }
  return copied;
}

namespace {

BinaryFn binaryFn(OpCode code) {
  switch (code) {
  case OpCode::Sub:
    return BinaryFn::Sub;
  case OpCode::Mul:
    return BinaryFn::Mul;
  case OpCode::Div:
    return BinaryFn::Div;
  case OpCode::EPow:
    return BinaryFn::Pow;
  case OpCode::Max:
  case OpCode::ReduceMax:
    return BinaryFn::Max;
  case OpCode::Min:
  case OpCode::ReduceMin:
    return BinaryFn::Min;
  case OpCode::Mod:
    return BinaryFn::Mod;
  case OpCode::Gt:
    return BinaryFn::Gt;
  case OpCode::Lt:
    return BinaryFn::Lt;
  case OpCode::Ge:
    return BinaryFn::Ge;
  case OpCode::Le:
    return BinaryFn::Le;
  case OpCode::Eq:
    return BinaryFn::Eq;
  default:
    return BinaryFn::Add;
  }
}

bool isBinary(OpCode code) { return code >= OpCode::Add && code <= OpCode::Eq; }

void generate(const Op &op, Matrix &out, int64_t row0, int64_t col0) {
  switch (op.code) {
  case OpCode::Rand:
  case OpCode::Randn:
    fillRandom(out, op.code == OpCode::Randn, static_cast<uint64_t>(op.a),
               static_cast<uint64_t>(op.b), row0, col0);
    return;
  case OpCode::Fill:
    std::fill(out.values().begin(), out.values().end(), op.scalar);
    return;
  case OpCode::Eye:
  case OpCode::Pow: // A^0
    for (int64_t i = 0; i < out.rows(); ++i)
      for (int64_t j = 0; j < out.cols(); ++j)
        out(i, j) = row0 + i == col0 + j ? 1.0 : 0.0;
    return;
  case OpCode::Range:
    for (int64_t j = 0; j < out.cols(); ++j)
      out(0, j) = static_cast<double>(op.a + col0 + j);
    return;
  case OpCode::Constant:
    for (int64_t i = 0; i < out.rows(); ++i)
      for (int64_t j = 0; j < out.cols(); ++j)
        out(i, j) = op.data[(row0 + i) * op.cols + col0 + j];
    return;
  case OpCode::Chol: // a tile of the factor below its diagonal
  default: // not a generating op (the verifier keeps them out): zeros
    std::fill(out.values().begin(), out.values().end(), 0.0);
    return;
  }
}

/// Partial reduction of one tile, or the combine of two partials.
bool reduceTask(const Op &op, const std::vector<TileRef> &in, Matrix &out,
                std::string &error) {
  if (in.size() == 2) {
    const Matrix &a = *in[0].tile, &b = *in[1].tile;
    for (int64_t e = 0; e < out.size(); ++e) {
      double x = a.values()[e], y = b.values()[e];
      if (op.code == OpCode::Norm) // hypot, but NaN anywhere gives NaN
        out.values()[e] = std::isnan(x) || std::isnan(y)
                              ? std::numeric_limits<double>::quiet_NaN()
                              : std::hypot(x, y);
      else if (op.code == OpCode::ReduceMax || op.code == OpCode::ReduceMin)
        out.values()[e] = applyBinary(binaryFn(op.code), x, y);
      else
        out.values()[e] = x + y;
    }
    return true;
  }
  if (in.size() != 1) {
    error = "a reduction task takes one or two tiles";
    return false;
  }
  const Matrix &tile = *in[0].tile;
  if (op.code == OpCode::Norm) {
    out(0, 0) = frobeniusNorm(tile);
    return true;
  }
  int dim = static_cast<int>(op.a);
  ReduceFn fn = op.code == OpCode::ReduceMax   ? ReduceFn::Max
                : op.code == OpCode::ReduceMin ? ReduceFn::Min
                                               : ReduceFn::Sum;
  out = reduce(fn, tile, dim);
  if (op.code == OpCode::ReduceMean) {
    // Each partial divides by the whole count, so the combines just add.
    double count = dim == 1   ? double(op.inRows)
                   : dim == 2 ? double(op.inCols)
                              : double(op.inRows) * double(op.inCols);
    for (double &x : out.values())
      x /= count;
  }
  return true;
}

/// A fused op's task: its generated loop nest, or its kernel's text run step
/// by step (plans made by hand).
bool fusedElementwise(const Op &op, const std::vector<TileRef> &in, Matrix &out,
                      std::string &error) {
  if (int64_t(in.size()) != op.a) {
    error = "a fused task takes " + std::to_string(op.a) + " tiles, not " +
            std::to_string(in.size());
    return false;
  }
  std::vector<fused::Operand> operands;
  for (const TileRef &t : in) {
    const Matrix &m = *t.tile;
    MatrixShape shape;
    if (!broadcastShape(m.shape(), out.shape(), shape) ||
        shape != out.shape()) {
      error = "operand tiles do not broadcast to the result tile";
      return false;
    }
    operands.push_back({m.data(), m.rows(), m.cols()});
  }
  fused::Kernel kernel;
  if (!op.kernel &&
      !fused::parse(op.text ? op.text : "", int32_t(op.a), kernel, error)) {
    error = "fused kernel: " + error;
    return false;
  }
  // Bands of the result's rows (cmmrt/RowBands.h).
  const int64_t cols = out.cols();
  forEachRowBand(out.rows(), cols, [&](int64_t first, int64_t end) {
    std::vector<fused::Operand> band;
    for (const fused::Operand &o : operands)
      band.push_back(bandOf(o, out.rows(), first, end));
    double *result = out.data() + first * cols;
    if (op.kernel)
      op.kernel(end - first, cols, band.data(), result);
    else
      fused::run(kernel, end - first, cols, band.data(), result);
  });
  return true;
}

/// An elementwise task into `out` (the result's shape), which may be one of
/// the inputs.
bool elementwise(const Op &op, const std::vector<TileRef> &in, Matrix &out,
                 const Slot &place, std::string &error) {
  if (op.code == OpCode::Fused)
    return fusedElementwise(op, in, out, error);
  if (isBinary(op.code)) {
    MatrixShape shape;
    if (in.size() != 2 ||
        !broadcastShape(in[0].tile->shape(), in[1].tile->shape(), shape) ||
        shape != out.shape()) {
      error = "operand tiles do not broadcast to the result tile";
      return false;
    }
    forEachRowBand(out.rows(), out.cols(), [&](int64_t first, int64_t end) {
      broadcastRows(binaryFn(op.code), *in[0].tile, *in[1].tile, out, first,
                    end);
    });
    return true;
  }
  if (in.size() != 1 || in[0].tile->shape() != out.shape()) {
    error = "a unary elementwise task takes one tile of the result's shape";
    return false;
  }
  if (in[0].tile != &out)
    out = *in[0].tile;
  if (op.code == OpCode::Tril || op.code == OpCode::Triu) {
    keepTriangle(out, op.code == OpCode::Tril, place.row0, place.col0);
    return true;
  }
  if (op.code != OpCode::Scale && op.code != OpCode::Neg &&
      op.code != OpCode::Map) {
    error = "not an elementwise op";
    return false;
  }
  // Bands of rows on the task's cores (cmmrt/RowBands.h).
  const int64_t cols = out.cols();
  forEachRowBand(out.rows(), cols, [&](int64_t first, int64_t end) {
    double *x = out.data() + first * cols;
    const int64_t n = (end - first) * cols;
    if (op.code == OpCode::Map) {
      mapValues(static_cast<MapFn>(op.a), x, n);
      return;
    }
    for (int64_t e = 0; e < n; ++e)
      x[e] = op.code == OpCode::Scale ? x[e] * op.scalar : -x[e];
  });
  return true;
}

bool checkShape(const Matrix &m, const Op &op, std::string &error) {
  if (m.rows() == op.rows && m.cols() == op.cols)
    return true;
  error = std::string("'") + op.text + "' now holds a " +
          std::to_string(m.rows()) + "x" + std::to_string(m.cols()) +
          " matrix but held " + std::to_string(op.rows) + "x" +
          std::to_string(op.cols) + " when the program was compiled";
  return false;
}

std::string shapeString(int64_t rows, int64_t cols) {
  return std::to_string(rows) + "x" + std::to_string(cols);
}

/// The results of a task over whole operands (TaskKind::Solve): an
/// inverse, a solve, a factorization or a block op; false with `error` set
/// otherwise.
bool computeWhole(const Op &op, const std::vector<const Matrix *> &operands,
                  std::vector<Matrix> &results, std::string &error) {
  auto need = [&](size_t count) {
    if (operands.size() == count)
      return true;
    error = "expected " + std::to_string(count) + " operand(s), got " +
            std::to_string(operands.size());
    return false;
  };
  auto in = [&](size_t i) -> const Matrix & { return *operands[i]; };
  results.assign(resultCount(op.code), Matrix());
  Matrix &result = results[0];
  switch (op.code) {
  case OpCode::Inv:
    return need(1) && invert(in(0), result, error);
  case OpCode::Solve:
    // op.a: the cmmrt::SolveMethod; op.text: the call it replaces, if any.
    if (!need(2))
      return false;
    if (leftDivide(in(0), in(1), result, error, static_cast<SolveMethod>(op.a)))
      return true;
    if (op.text)
      restateAs(op.text, in(0).rows(), in(0).cols(), error);
    return false;
  case OpCode::Chol:
    // op.a: 1 for an input symmetric by construction (no run-time test).
    return need(1) && cholesky(in(0), result, error, op.a != 0);
  case OpCode::Qr:
    return need(1) && qr(in(0), results[0], results[1], error);
  case OpCode::Svd:
    return need(1) && svd(in(0), &results[0], results[1], &results[2], error);
  case OpCode::SvdVals:
    return need(1) && svd(in(0), nullptr, result, nullptr, error);
  case OpCode::Eig:
    return need(1) &&
           symmetricEigen(in(0), results[0], &results[1], error, op.a != 0);
  case OpCode::EigVals:
    return need(1) && symmetricEigen(in(0), result, nullptr, error, op.a != 0);
  case OpCode::Det:
    if (!need(1))
      return false;
    result = determinant(in(0));
    return true;
  case OpCode::Pinv:
    return need(1) && pseudoInverse(in(0), result, error);
  case OpCode::Slice:
    if (!need(1))
      return false;
    result = sliceOf(in(0), op.a, op.b, op.rows, op.cols);
    return true;
  case OpCode::Insert:
    if (!need(2))
      return false;
    result = insertBlock(in(0), in(1), op.a, op.b);
    return true;
  case OpCode::Concat: {
    result = concatenate(operands, static_cast<int>(op.a));
    return true;
  }
  case OpCode::Diag:
    if (!need(1))
      return false;
    result = diagonal(in(0));
    return true;
  case OpCode::Reshape:
    if (!need(1))
      return false;
    result = reshapeColumnMajor(in(0), op.rows, op.cols);
    return true;
  default:
    error = std::string("no whole-operand kernel for ") + opCodeName(op.code);
    return false;
  }
}

/// The tile input `input` of a task that updates it (gemm_acc's partial
/// sum, the tile of a trsm, syrk or gemm_sub), as the task's output `out`:
/// moved from `reuse` when the executor gives that input (mayWriteOver: its
/// last reader), else copied. Two statements, not `?:`: its common type
/// with the const input is const Matrix, which would copy the reused buffer
/// instead of moving it.
Matrix *takeUpdatedTile(const std::vector<TileRef> &inputs, int input,
                        Matrix *reuse, int reuseInput, Matrix &out) {
  if (reuse && reuseInput == input)
    out = std::move(*reuse);
  else
    out = *inputs[input].tile;
  return &out;
}

/// A tile kernel of chol or of a triangular solve
/// (cmmrt/TileFactorizations.h), updating its tile in place where it may.
bool factorTile(const Op &op, const Task &task,
                const std::vector<TileRef> &inputs,
                std::vector<Matrix> &outputs, const Slot &out,
                std::string &error, Matrix *reuse, int reuseInput) {
  auto updated = [&](int input) {
    return takeUpdatedTile(inputs, input, reuse, reuseInput, outputs[0]);
  };
  const bool chol = op.code == OpCode::Chol;
  // A solve's method is the cmmrt::SolveMethod in op.a; chol's updates read
  // the factor's tiles transposed (R_kk' X = A_kj, C - R_ki' R_kj), as
  // R' \ B does.
  const auto method = static_cast<SolveMethod>(op.a);
  const bool transposeA = chol || readsTransposed(method);
  switch (task.kind) {
  case TaskKind::Symmetry:
    outputs[0] = symmetryShare(*inputs[0].tile,
                               inputs.size() > 1 ? inputs[1].tile : nullptr);
    return true;
  case TaskKind::Potrf: {
    // The first diagonal tile also reads every tile pair's share of the
    // symmetry test: a matrix that is not symmetric fails here, before
    // any factor is made (as cmmrt::cholesky tests first).
    std::vector<const Matrix *> shares;
    for (size_t i = 1; i < inputs.size(); ++i)
      shares.push_back(inputs[i].tile);
    // A chol symmetric by construction (op.a, no shares) fails the test
    // only for an Inf or NaN, which reaches a diagonal tile non-finite
    // (through the trsm and syrk updates) before it is factored.
    if ((!shares.empty() && !symmetricFromShares(shares)) ||
        (op.a != 0 && !allFinite(*inputs[0].tile))) {
      error = notSymmetricError("chol", op.inRows, op.inCols);
      return false;
    }
    // In place when this is the diagonal tile's last reader (its trailing
    // update's result; the first one, A's own tile, is read by A's other
    // users too).
    return factorDiagonalTile(*updated(0), out.row0, op.inRows, error);
  }
  case TaskKind::Trsm: {
    const Matrix &t = *inputs[0].tile;
    if (!chol && hasZeroOnDiagonal(t)) {
      error = singularSolveError(op.inRows);
      if (op.text) // inv(tril(M)) * B
        restateAs(op.text, op.inRows, op.inCols, error);
      return false;
    }
    const bool upper = chol || readsUpper(method);
    solveWithTriangle(t, tileTriangle(upper, transposeA), *updated(1));
    return true;
  }
  case TaskKind::Syrk:
    subtractGram(*inputs[0].tile, *updated(1));
    return true;
  case TaskKind::GemmSub: {
    const Matrix &a = *inputs[0].tile, &b = *inputs[1].tile;
    Matrix &c = *updated(2);
    if ((transposeA ? a.cols() : a.rows()) != c.rows() ||
        b.cols() != c.cols() ||
        (transposeA ? a.rows() : a.cols()) != b.rows()) {
      error = "tile shapes do not agree: " + shapeString(c.rows(), c.cols()) +
              " - " + shapeString(a.rows(), a.cols()) +
              (transposeA ? "'" : "") + " * " + shapeString(b.rows(), b.cols());
      return false;
    }
    subtractProduct(a, b, transposeA, c);
    return true;
  }
  default:
    error = "not a tile kernel of a factorization";
    return false;
  }
}

} // namespace

bool cmmrt::runTask(const Plan &plan, const Task &task,
                    const std::vector<TileRef> &inputs,
                    std::vector<Matrix> &outputs, const LoadFn &load,
                    std::string &error, Matrix *reuse, int reuseInput) {
  const Op *op = task.op >= 0 ? &plan.ops[task.op] : nullptr;
  outputs.clear();
  // An output written over a stolen input gets no buffer of its own: a
  // fresh one would cost its first-touch page faults for nothing.
  const bool inPlace = reuse && task.numOutputs == 1 &&
                       mayWriteOver(task.kind, reuseInput) &&
                       reuse->rows() == plan.slots[task.firstOutput].rows &&
                       reuse->cols() == plan.slots[task.firstOutput].cols;
  // Tasks that write every element of their result (or replace it) get it
  // unset: its pages are first touched by the threads that compute it.
  const bool writesWhole =
      task.kind == TaskKind::Generate || task.kind == TaskKind::Elementwise ||
      task.kind == TaskKind::Transpose || task.kind == TaskKind::Gemm ||
      task.kind == TaskKind::GemmAcc || task.kind == TaskKind::Merge ||
      task.kind == TaskKind::Potrf || task.kind == TaskKind::Trsm ||
      task.kind == TaskKind::Syrk || task.kind == TaskKind::GemmSub;
  // A task over whole operands moves or copies its results into its tiles.
  const bool fillsOwn = task.kind == TaskKind::Solve;
  for (int32_t o = 0; o < task.numOutputs; ++o) {
    const Slot &s = plan.slots[task.firstOutput + o];
    if (inPlace || fillsOwn)
      outputs.emplace_back();
    else if (writesWhole)
      outputs.push_back(Matrix::uninitialized(s.rows, s.cols));
    else
      outputs.emplace_back(s.rows, s.cols);
  }
  const Slot *first = task.numOutputs ? &plan.slots[task.firstOutput] : nullptr;
  if (!op && task.kind != TaskKind::Merge) {
    error = "task has no op";
    return false;
  }
  switch (task.kind) {
  case TaskKind::Generate:
    generate(*op, outputs[0], first->row0, first->col0);
    return true;
  case TaskKind::Load: {
    std::shared_ptr<const Matrix> whole;
    if (!load(task.op, whole, error) || !checkShape(*whole, *op, error))
      return false;
    assemble(outputs[0], first->row0, first->col0, {{whole.get(), 0, 0}});
    return true;
  }
  case TaskKind::Gemm:
  case TaskKind::GemmAcc: {
    const Matrix &a = *inputs[0].tile, &b = *inputs[1].tile;
    Matrix &c = outputs[0];
    double beta = 0.0;
    if (task.kind == TaskKind::GemmAcc) {
      takeUpdatedTile(inputs, 2, reuse, reuseInput, c);
      beta = 1.0;
    }
    // A tile of A' is the transposed tile of A: read so (dgemm's TRANSA).
    const bool ta = op->a & plan::kTransposeLhs,
               tb = op->a & plan::kTransposeRhs;
    const int64_t m = ta ? a.cols() : a.rows(), k = ta ? a.rows() : a.cols(),
                  k2 = tb ? b.cols() : b.rows(), n = tb ? b.rows() : b.cols();
    if (k != k2 || c.rows() != m || c.cols() != n) {
      error = "tile shapes do not agree: " + shapeString(a.rows(), a.cols()) +
              (ta ? "'" : "") + " * " + shapeString(b.rows(), b.cols()) +
              (tb ? "'" : "");
      return false;
    }
    // A tile that is mostly zeros, read by several matrix-vector products:
    // on its compressed rows (SparseRows.h).
    if (!multiplyAddVectorSparse(inputs[0].sparse, inputs[1].sparse, a, b, beta,
                                 c, ta, tb))
      multiplyAdd(a, b, beta, c, ta, tb);
    return true;
  }
  case TaskKind::Potrf:
  case TaskKind::Trsm:
  case TaskKind::Syrk:
  case TaskKind::GemmSub:
  case TaskKind::Symmetry:
    return factorTile(*op, task, inputs, outputs, *first, error, reuse,
                      reuseInput);
  case TaskKind::Elementwise:
    if (inPlace) {
      // In place: the inputs still point at `reuse`, read before written.
      if (!elementwise(*op, inputs, *reuse, *first, error))
        return false;
      outputs[0] = std::move(*reuse);
      return true;
    }
    return elementwise(*op, inputs, outputs[0], *first, error);
  case TaskKind::Transpose: {
    const Matrix &a = *inputs[0].tile;
    Matrix &t = outputs[0];
    if (t.rows() != a.cols() || t.cols() != a.rows()) {
      error = "a transpose of " + shapeString(a.rows(), a.cols()) +
              " cannot be " + shapeString(t.rows(), t.cols());
      return false;
    }
    forEachRowBand(t.rows(), t.cols(), [&](int64_t first, int64_t end) {
      transposeRows(a, t, first, end);
    });
    return true;
  }
  case TaskKind::Reduce:
    return reduceTask(*op, inputs, outputs[0], error);
  case TaskKind::DistributedGemm:
    error = "a distributed product runs on every rank at once "
            "(runDistributedGemm), not as a task on one";
    return false;
  case TaskKind::Merge:
    if (assemble(outputs[0], first->row0, first->col0, inputs) !=
        outputs[0].size()) {
      error = "sub-tiles do not cover the merged tile";
      return false;
    }
    return true;
  case TaskKind::Gather: {
    Matrix whole(op->rows, op->cols);
    if (assemble(whole, 0, 0, inputs) != whole.size()) {
      error = "the gathered tiles do not cover the matrix";
      return false;
    }
    outputs.clear();
    outputs.push_back(std::move(whole));
    return true;
  }
  case TaskKind::Solve: {
    // The operands whole, from their tiles in order: each operand's first
    // tile is its (0, 0) one (Tiling.cpp lists a grid row-major).
    // An operand of one tile is read where it is; one of several is
    // assembled first.
    std::vector<std::vector<TileRef>> parts;
    for (const TileRef &t : inputs) {
      if (parts.empty() || (t.row0 == 0 && t.col0 == 0))
        parts.emplace_back();
      parts.back().push_back(t);
    }
    std::vector<Matrix> assembled;
    assembled.reserve(parts.size());
    std::vector<const Matrix *> operands;
    for (const std::vector<TileRef> &part : parts) {
      if (part.size() == 1) {
        operands.push_back(part.front().tile);
        continue;
      }
      int64_t rows = 0, cols = 0;
      for (const TileRef &t : part) {
        rows = std::max(rows, t.row0 + t.tile->rows());
        cols = std::max(cols, t.col0 + t.tile->cols());
      }
      Matrix &whole = assembled.emplace_back(Matrix::uninitialized(rows, cols));
      if (assemble(whole, 0, 0, part) != whole.size()) {
        error = "the operand tiles do not cover the operands";
        return false;
      }
      operands.push_back(&whole);
    }
    std::vector<Matrix> results;
    if (!computeWhole(*op, operands, results, error))
      return false;
    // The tiles of each result in turn, each result's first at (0, 0); a
    // result of one tile is moved there, not copied.
    size_t r = 0;
    for (int32_t o = 0; o < task.numOutputs; ++o) {
      const Slot &s = plan.slots[task.firstOutput + o];
      if (o > 0 && s.row0 == 0 && s.col0 == 0)
        ++r;
      if (r >= results.size()) {
        error = "the task lists tiles of more results than its op has";
        return false;
      }
      Matrix &result = results[r];
      if (s.row0 == 0 && s.col0 == 0 && s.rows == result.rows() &&
          s.cols == result.cols()) {
        outputs[o] = std::move(result);
        continue;
      }
      outputs[o] = Matrix::uninitialized(s.rows, s.cols);
      assemble(outputs[o], s.row0, s.col0, {{&result, 0, 0}});
    }
    return true;
  }
  }
  error = "unknown task kind";
  return false;
}

std::string cmmrt::summarizeTiles(const std::string &label, int64_t rows,
                                  int64_t cols,
                                  const std::vector<TileRef> &tiles) {
  double sum = 0, norm = 0;
  bool nan = false, inf = false;
  std::vector<std::pair<int64_t, double>> firstRow;
  for (const TileRef &t : tiles) {
    SumAndNorm tile = sumAndNorm(*t.tile);
    sum += tile.sum;
    double n = tile.norm;
    nan |= std::isnan(n);
    inf |= std::isinf(n);
    if (!nan && !inf)
      norm = std::hypot(norm, n);
    if (t.row0 == 0)
      for (int64_t j = 0; j < t.tile->cols() && t.col0 + j < 4; ++j)
        firstRow.push_back({t.col0 + j, (*t.tile)(0, j)});
  }
  if (nan)
    norm = std::numeric_limits<double>::quiet_NaN();
  else if (inf)
    norm = std::numeric_limits<double>::infinity();
  std::sort(firstRow.begin(), firstRow.end());
  std::vector<double> shown;
  for (const auto &element : firstRow)
    shown.push_back(element.second);
  return formatSummary(label, rows, cols, sum, norm, shown);
}
