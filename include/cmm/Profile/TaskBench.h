//===- TaskBench.h - Timing the runtime's tasks -----------------*- C++ -*-===//
//
// What cmm-profile times for a cost class: one task of the runtime
// (cmmrt::runTask, what a generated program's worker calls) on operands of
// a given size, so the fitted model describes the code that runs. Each
// repetition reads its own copy of the operands, out of cache, as a task
// in a program reads tiles other tasks wrote a while ago. Output
// buffers come from the runtime's tile pool, reused from one repetition to
// the next as a running program reuses them, so the polynomials hold no
// page faults: the model charges those apart (FirstTouch.h). Each class
// has one representative task (docs/machine-model.md, "What cmm-profile
// measures") and the (m, n, k) the planner passes for it.
//
//===----------------------------------------------------------------------===//

#ifndef CMM_PROFILE_TASKBENCH_H
#define CMM_PROFILE_TASKBENCH_H

#include "cmm/Profile/Fit.h"
#include "cmmrt/Matrix.h"
#include "cmmrt/Plan.h"
#include "cmmrt/SparseRows.h"

#include <memory>
#include <string>
#include <vector>

namespace cmm::profile {

/// A class's representative task at one size, with its operands made once.
class TaskBench {
public:
  /// The task of `cost` on m x n (k: a product's inner dimension, a
  /// solve's matrix size); with `cold` false every repetition reads the
  /// same operands, in cache when they fit (CacheReuse.h).
  TaskBench(cmmrt::plan::CostClass cost, int64_t m, int64_t n, int64_t k,
            bool cold = true);
  /// Runs the task once; its wall time in seconds. Aborts with the
  /// runtime's message if the task fails (it cannot on these operands).
  double run();
  /// The (m, n, k) the planner gives this task's class (Tiling.cpp).
  Observation signature() const { return sig; }

private:
  cmmrt::plan::Plan plan{};
  cmmrt::plan::Op op{};
  std::vector<cmmrt::plan::Slot> slots;
  cmmrt::plan::Task task{};
  /// Bytes of operand copies a bench cycles through (twice the 32 MiB
  /// last-level cache of the development VM), and the most copies.
  static constexpr double kColdBytes = 64.0 * (1 << 20);
  static constexpr double kMaxColdCopies = 4096;
  /// Copies of the task's operands, `perRun` to a run, used in turn.
  std::vector<cmmrt::Matrix> operands;
  size_t perRun = 0, next = 0;
  std::vector<cmmrt::Matrix> outputs;
  Observation sig;
  /// Class `compress`: each run compresses its tile anew, as the first
  /// of kCompressedReaders products (any count past breakEvenDensity's).
  bool compresses = false;
  std::unique_ptr<cmmrt::SparseOperand> sparse;
  /// Class `fused`: the kernel's text (op.text points into it).
  std::string kernelText;
  static constexpr int64_t kCompressedReaders = 1000;
};

/// The sizes a profile times for `cost` (m, n, k), smallest first; `quick`
/// gives fewer and smaller ones.
std::vector<Observation> benchSizes(cmmrt::plan::CostClass cost, bool quick);

/// Whether the profile times `cost` itself: not `sparse`, whose tasks carry
/// the depth of the dense product that costs as much (CostClasses.def), so
/// its polynomial is its fallback's, gemm.
inline bool isTimed(cmmrt::plan::CostClass cost) {
  return cost != cmmrt::plan::CostClass::Sparse;
}

/// Class `fused`'s kernel of `steps` multiplications and additions, as
/// cmm-translate writes it and compiled as generated programs are
/// (FusedChain.cpp); null for a count benchSizes does not time.
cmmrt::fused::KernelFn fusedChainKernel(int64_t steps);

/// The monomials fitted for `cost` (docs/machine-model.md).
Terms fittedTerms(cmmrt::plan::CostClass cost);

} // namespace cmm::profile

#endif // CMM_PROFILE_TASKBENCH_H
