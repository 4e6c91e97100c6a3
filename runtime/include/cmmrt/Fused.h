//===- Fused.h - Fused elementwise kernels ----------------------*- C++ -*-===//
//
// A fused op (cmm.fused, made by cmm-fuse-elementwise) applies a chain of
// elementwise functions to its operands in one pass over memory. Its body
// travels to the runtime as a kernel: steps, each a function of cmmrt/
// ElementFunctions.def (or `neg`) on the kernel's inputs, earlier steps'
// values and constants, and the value it yields. Its text form is
//
//   mul %i0, %i1; add %t0, %i2; tanh %t1; yield %t2
//
// (%iK: input K, %tK: step K's value, or a number). cmm-translate generates
// one loop nest per kernel from it, calling cmmrt/Scalar.h and SLEEF; the
// reference interpreter and hand-made plans run the same steps through
// `run` below. Both walk the result in chunks small enough for L1
// (`forEachChunk`), so no intermediate ever takes a tile-sized buffer.
//
//===----------------------------------------------------------------------===//

#ifndef CMMRT_FUSED_H
#define CMMRT_FUSED_H

#include "cmmrt/Kernels.h"
#include "cmmrt/RowBands.h"
#include "cmmrt/VectorMath.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace cmmrt::fused {

/// Elements per chunk (cmmrt::kVectorChunk).
constexpr int64_t kChunk = kVectorChunk;

/// One operand of a kernel as the loops read it (cmmrt/RowBands.h).
using Operand = BroadcastOperand;

/// A generated kernel: the rows x cols result `out` from `in`, which
/// broadcast to it.
using KernelFn = void (*)(int64_t rows, int64_t cols, const Operand *in,
                          double *out);

/// Calls `body(n, x, y)` on consecutive chunks of the rows x cols result
/// `out` (y: n elements of it) with x[k] pointing at the n elements of
/// operand k that land there (a scalar, a row or a column stretched into a
/// chunk-sized copy). Results whose operands are all whole or scalar are one
/// flat run; with a row or column operand, each result row is.
template <typename Body>
void forEachChunk(int64_t rows, int64_t cols, const Operand *in, int numInputs,
                  double *out, Body body) {
  enum Kind { Whole, Scalar, Row, Column };
  std::vector<Kind> kind(numInputs);
  std::vector<const double *> x(numInputs);
  std::vector<size_t> copyAt(numInputs);
  std::vector<double> copies; // chunk-sized copies of stretched elements
  bool flat = true;
  for (int k = 0; k < numInputs; ++k) {
    const Operand &o = in[k];
    kind[k] = o.rows == rows && o.cols == cols ? Whole
              : o.rows == 1 && o.cols == 1     ? Scalar
              : o.rows == 1                    ? Row
                                               : Column;
    flat &= kind[k] == Whole || kind[k] == Scalar;
    copyAt[k] = copies.size();
    if (kind[k] == Scalar || kind[k] == Column)
      copies.resize(copies.size() + kChunk);
  }
  auto stretch = [&](int k, double v) {
    double *c = copies.data() + copyAt[k];
    for (int64_t e = 0; e < kChunk; ++e)
      c[e] = v;
    x[k] = c;
  };
  for (int k = 0; k < numInputs; ++k)
    if (kind[k] == Scalar)
      stretch(k, in[k].data[0]);
  if (flat) {
    const int64_t total = rows * cols;
    for (int64_t e0 = 0; e0 < total; e0 += kChunk) {
      for (int k = 0; k < numInputs; ++k)
        if (kind[k] == Whole)
          x[k] = in[k].data + e0;
      body(std::min(kChunk, total - e0), x.data(), out + e0);
    }
    return;
  }
  // Rows narrower than a chunk go several to a chunk: one call per row of
  // k-means' 8000 x 32 distances (a column stretched for each) ran at 2 ns
  // an element, 4-5x the flat walk.
  if (const int64_t perChunk = kChunk / std::max<int64_t>(cols, 1);
      perChunk > 1) {
    for (int k = 0; k < numInputs; ++k)
      if (kind[k] == Row) {
        copyAt[k] = copies.size();
        copies.resize(copies.size() + perChunk * cols);
        double *c = copies.data() + copyAt[k];
        for (int64_t t = 0; t < perChunk; ++t)
          std::copy(in[k].data, in[k].data + cols, c + t * cols);
      }
    for (int k = 0; k < numInputs; ++k)
      if (kind[k] == Row || kind[k] == Scalar)
        x[k] = copies.data() + copyAt[k];
    for (int64_t i0 = 0; i0 < rows; i0 += perChunk) {
      const int64_t band = std::min(perChunk, rows - i0);
      for (int k = 0; k < numInputs; ++k)
        if (kind[k] == Whole) {
          x[k] = in[k].data + i0 * cols;
        } else if (kind[k] == Column) {
          double *c = copies.data() + copyAt[k];
          for (int64_t t = 0; t < band; ++t)
            std::fill_n(c + t * cols, cols, in[k].data[i0 + t]);
          x[k] = c;
        }
      body(band * cols, x.data(), out + i0 * cols);
    }
    return;
  }
  for (int64_t i = 0; i < rows; ++i) {
    for (int k = 0; k < numInputs; ++k)
      if (kind[k] == Column)
        stretch(k, in[k].data[i]);
    for (int64_t j0 = 0; j0 < cols; j0 += kChunk) {
      for (int k = 0; k < numInputs; ++k)
        if (kind[k] == Whole)
          x[k] = in[k].data + i * cols + j0;
        else if (kind[k] == Row)
          x[k] = in[k].data + j0;
      body(std::min(kChunk, cols - j0), x.data(), out + i * cols + j0);
    }
  }
}

/// A chunk's body in a generated kernel: y[0, n) from x[k][0, n).
using ChunkFn = void (*)(int64_t n, const double *const *x, double *y);

/// forEachChunk for a generated kernel's body: compiled once, here, so a
/// program's kernels do not each instantiate the walk.
void forEachChunk(int64_t rows, int64_t cols, const Operand *in, int numInputs,
                  double *out, ChunkFn body);

/// What a step applies.
enum class StepFn : int8_t { Binary, Map, Neg };

/// An argument of a step or the kernel's result.
struct Arg {
  enum Kind : int8_t { Input, Step, Constant } kind = Input;
  int32_t index = 0; // Input: the operand; Step: the step
  double value = 0;  // Constant
};

struct Step {
  StepFn fn = StepFn::Neg;
  BinaryFn binary = BinaryFn::Add; // StepFn::Binary
  MapFn map = MapFn::Sqrt;         // StepFn::Map
  Arg args[2];                     // the second for binary functions only
  int arity() const { return fn == StepFn::Binary ? 2 : 1; }
};

struct Kernel {
  int32_t numInputs = 0;
  std::vector<Step> steps;
  Arg result;
};

/// The IR name of a function (cmmrt/ElementFunctions.def) and back.
const char *functionName(const Step &step);
bool stepFunction(const std::string &name, Step &step);

/// The text form (see the file comment); `parse` checks that every argument
/// refers to an input below `numInputs` or an earlier step.
std::string format(const Kernel &kernel);
bool parse(const std::string &text, int32_t numInputs, Kernel &kernel,
           std::string &error);

/// Runs `kernel` step by step over chunks (what a generated kernel computes,
/// bit for bit): the reference interpreter's and hand-made plans' path.
void run(const Kernel &kernel, int64_t rows, int64_t cols, const Operand *in,
         double *out);

} // namespace cmmrt::fused

#endif // CMMRT_FUSED_H
