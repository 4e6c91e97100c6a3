//===- TraceLimitsTest.cpp - The tracer's budgets as options --------------===//
//
// MLIRGenOptions::limits bounds loop iterations (with user calls), traced
// ops and call nesting; each budget is exact (a program at the budget
// traces, one past it fails) and its error names the budget and the
// statement's line. The defaults are the language's (docs/language.md §11);
// the fuzz target traces under smaller ones.
//
//===----------------------------------------------------------------------===//

#include "cmm/Frontend/MLIRGen.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <string>

namespace {

struct TraceResult {
  bool traced = false;
  std::string diagnostics;
};

TraceResult trace(const std::string &source, const cmm::TraceLimits &limits) {
  mlir::MLIRContext context;
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(source, "limits.cmm"),
      llvm::SMLoc());
  TraceResult result;
  llvm::raw_string_ostream os(result.diagnostics);
  sourceMgr.setDiagHandler(
      [](const llvm::SMDiagnostic &d, void *out) {
        d.print(nullptr, *static_cast<llvm::raw_string_ostream *>(out),
                /*ShowColors=*/false);
      },
      &os);
  cmm::MLIRGenOptions options;
  options.limits = limits;
  result.traced =
      static_cast<bool>(cmm::importCmm(context, sourceMgr, options));
  return result;
}

/// `program` traces under `at` and fails under `over` with an error
/// containing `message`.
void expectBudget(const std::string &program, const cmm::TraceLimits &at,
                  const cmm::TraceLimits &over, const std::string &message) {
  EXPECT_TRUE(trace(program, at).traced);
  TraceResult past = trace(program, over);
  EXPECT_FALSE(past.traced);
  EXPECT_NE(past.diagnostics.find(message), std::string::npos)
      << past.diagnostics;
}

/// The default limits with one budget set to `value`.
template <typename Field>
cmm::TraceLimits with(Field cmm::TraceLimits::*budget, Field value) {
  cmm::TraceLimits limits;
  limits.*budget = value;
  return limits;
}

TEST(TraceLimits, DefaultsAreTheLanguages) {
  cmm::TraceLimits limits;
  EXPECT_EQ(limits.iterations, 10'000'000);
  EXPECT_EQ(limits.ops, 2'000'000u);
  EXPECT_EQ(limits.callDepth, 256u);
}

TEST(TraceLimits, LoopIterationsStopAtTheBudget) {
  // Two loops of 30: 60 iterations in all; the second loop's range fails.
  expectBudget("s = 0\n"
               "for i in 1:30\n  s = s + i\nend\n"
               "for j in 1:30\n  s = s + j\nend\n"
               "print(s)\n",
               with<int64_t>(&cmm::TraceLimits::iterations, 60),
               with<int64_t>(&cmm::TraceLimits::iterations, 59),
               "limits.cmm:5:11: error: the loops trace more than 59 "
               "iterations");
}

TEST(TraceLimits, UserCallsCountAsIterations) {
  expectBudget("function f(x)\n  return x + 1\nend\n"
               "y = f(f(f(1)))\nprint(y)\n",
               with<int64_t>(&cmm::TraceLimits::iterations, 3),
               with<int64_t>(&cmm::TraceLimits::iterations, 2),
               "more than 2 loop iterations and function calls");
}

TEST(TraceLimits, CallNestingStopsAtTheBudget) {
  // depth(9) nests 10 calls.
  expectBudget("function depth(n)\n"
               "  if n == 0\n    return 0\n  end\n"
               "  return depth(n - 1) + 1\n"
               "end\n"
               "print(depth(9))\n",
               with<size_t>(&cmm::TraceLimits::callDepth, 10),
               with<size_t>(&cmm::TraceLimits::callDepth, 9),
               "nest more than 9 deep");
}

TEST(TraceLimits, TracedOpsStopAtTheBudget) {
  // Each iteration traces matrix ops; the budget is checked after every
  // statement, so a loop of them fails inside the loop, at its line.
  expectBudget("A = rand(2, 2)\n"
               "for i in 1:1000\n  A = A * A\nend\n"
               "print(A)\n",
               cmm::TraceLimits(), with<size_t>(&cmm::TraceLimits::ops, 100),
               "limits.cmm:3:3: error: the traced program has more than 100 "
               "operations");
}

} // namespace
