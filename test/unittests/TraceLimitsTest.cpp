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

cmm::TraceLimits withIterations(int64_t n) {
  cmm::TraceLimits limits;
  limits.iterations = n;
  return limits;
}

TEST(TraceLimits, DefaultsAreTheLanguages) {
  cmm::TraceLimits limits;
  EXPECT_EQ(limits.iterations, 10'000'000);
  EXPECT_EQ(limits.ops, 2'000'000u);
  EXPECT_EQ(limits.callDepth, 256u);
}

TEST(TraceLimits, LoopIterationsStopAtTheBudget) {
  // Two loops of 30: 60 iterations in all.
  const std::string program = "s = 0\n"
                              "for i in 1:30\n  s = s + i\nend\n"
                              "for j in 1:30\n  s = s + j\nend\n"
                              "print(s)\n";
  EXPECT_TRUE(trace(program, withIterations(60)).traced);
  TraceResult over = trace(program, withIterations(59));
  EXPECT_FALSE(over.traced);
  EXPECT_NE(over.diagnostics.find("limits.cmm:5:11: error: the loops trace "
                                  "more than 59 iterations"),
            std::string::npos)
      << over.diagnostics;
}

TEST(TraceLimits, UserCallsCountAsIterations) {
  const std::string program = "function f(x)\n  return x + 1\nend\n"
                              "y = f(f(f(1)))\nprint(y)\n";
  EXPECT_TRUE(trace(program, withIterations(3)).traced);
  TraceResult over = trace(program, withIterations(2));
  EXPECT_FALSE(over.traced);
  EXPECT_NE(over.diagnostics.find("more than 2 loop iterations and function "
                                  "calls"),
            std::string::npos)
      << over.diagnostics;
}

TEST(TraceLimits, CallNestingStopsAtTheBudget) {
  // depth(n) nests n + 1 calls.
  const std::string program = "function depth(n)\n"
                              "  if n == 0\n    return 0\n  end\n"
                              "  return depth(n - 1) + 1\n"
                              "end\n"
                              "print(depth(9))\n";
  cmm::TraceLimits limits;
  limits.callDepth = 10;
  EXPECT_TRUE(trace(program, limits).traced);
  limits.callDepth = 9;
  TraceResult over = trace(program, limits);
  EXPECT_FALSE(over.traced);
  EXPECT_NE(over.diagnostics.find("nest more than 9 deep"), std::string::npos)
      << over.diagnostics;
}

TEST(TraceLimits, TracedOpsStopAtTheBudget) {
  // Each iteration traces matrix ops; the budget is checked after every
  // statement, so a loop of them fails inside the loop with its line.
  const std::string program = "A = rand(2, 2)\n"
                              "for i in 1:1000\n  A = A * A\nend\n"
                              "print(A)\n";
  cmm::TraceLimits limits;
  EXPECT_TRUE(trace(program, limits).traced);
  limits.ops = 100;
  TraceResult over = trace(program, limits);
  EXPECT_FALSE(over.traced);
  EXPECT_NE(over.diagnostics.find("limits.cmm:3:3: error: the traced program "
                                  "has more than 100 operations"),
            std::string::npos)
      << over.diagnostics;
}

} // namespace
