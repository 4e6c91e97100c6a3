//===- TaskKernels.h - What one planned task computes -----------*- C++ -*-===//
//
// The arithmetic of one task of a plan on its input tiles, without MPI or
// threads: the executor (cmmrt/Executor.h) waits for the inputs, calls
// runTask, and stores the outputs. Each tile knows where it sits in its
// matrix (Slot::row0, col0), which is all a task needs: a generated tile
// is the same block of the counter-based random matrix the reference
// interpreter makes, a merge copies sub-tiles into place, a solve
// assembles its operands from their tiles.
//
//===----------------------------------------------------------------------===//

#ifndef CMMRT_TASKKERNELS_H
#define CMMRT_TASKKERNELS_H

#include "cmmrt/Matrix.h"
#include "cmmrt/Plan.h"
#include "cmmrt/SparseRows.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace cmmrt {

/// An input tile and where it sits in its matrix, and its compressed rows
/// when the executor keeps them (a matrix-vector product's matrix).
struct TileRef {
  const Matrix *tile;
  int64_t row0, col0;
  SparseOperand *sparse = nullptr;
};

/// The input (0 or 1) a gemm task streams as the matrix of a matrix-vector
/// product (its result one column, or one row), or -1 for any other task.
int vectorProductMatrixInput(const plan::Plan &plan, const plan::Task &task);

/// Reads the whole matrix of a `load` op (the executor caches it so each
/// tile does not read the file again); false with a message.
using LoadFn = std::function<bool(int32_t op, std::shared_ptr<const Matrix> &,
                                  std::string &error)>;

/// Runs `task` of `plan` on `inputs` (in the task's input order), filling
/// `outputs` (one per output slot, shaped by the slot). A gather's result is
/// the whole matrix, in `outputs[0]`. False with a message (a singular
/// matrix, a load that fails), which the caller reports with the task's
/// name and source line.
///
/// `reuse`, when given, is the buffer of the input `inputs[reuseInput]`
/// (which then points to it) that nobody else reads: a gemm_acc moves its
/// accumulator into the output instead of copying it, an elementwise task
/// computes in it in place (it has the result's shape).
bool runTask(const plan::Plan &plan, const plan::Task &task,
             const std::vector<TileRef> &inputs, std::vector<Matrix> &outputs,
             const LoadFn &load, std::string &error, Matrix *reuse = nullptr,
             int reuseInput = -1);

/// The `print` line of a `rows x cols` matrix from its tiles, without
/// assembling it (cmmrt::formatSummary of the whole matrix, up to the
/// order in which the sum adds).
std::string summarizeTiles(const std::string &label, int64_t rows, int64_t cols,
                           const std::vector<TileRef> &tiles);

/// Copies the parts of `parts` that fall inside `out` (which sits at
/// (row0, col0) of the same matrix); the number of elements copied.
int64_t assemble(Matrix &out, int64_t row0, int64_t col0,
                 const std::vector<TileRef> &parts);

/// `file:line:col` of an op, for messages.
std::string sourceLocation(const plan::Plan &plan, int32_t op);

/// The op's source line and a caret under its column, each after a newline
/// (as the compiler's diagnostics), or "" when the plan did not keep it.
std::string sourceExcerpt(const plan::Plan &plan, int32_t op);

/// A run-time error of the task `taskName` of `op` in the one format of
/// docs/reliability.md, without the "cmm: rank R: " its printer puts first
/// and the excerpt it puts after: "file:line:col: error: MESSAGE (task
/// 'NAME')".
std::string taskError(const plan::Plan &plan, int32_t op,
                      const std::string &taskName, const std::string &message);

} // namespace cmmrt

#endif // CMMRT_TASKKERNELS_H
