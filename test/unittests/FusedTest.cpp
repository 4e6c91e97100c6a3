//===- FusedTest.cpp - Fused elementwise kernels (cmmrt/Fused.h) ----------===//
//
// The oracle is the unfused evaluation: each step as its own whole-matrix
// kernel (cmmrt::broadcast, map, negate). A fused kernel computes the same
// functions in the same order on each element, so it must agree bit for bit,
// whatever the operands' broadcast kinds, the chunking or aliasing.
//
//===----------------------------------------------------------------------===//

#include "cmmrt/Fused.h"
#include "cmmrt/Kernels.h"
#include "cmmrt/Random.h"
#include "cmmrt/Scalar.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

using namespace cmmrt;
using namespace cmmrt::fused;

namespace {

Matrix randomMatrix(int64_t rows, int64_t cols, uint64_t seed) {
  Matrix m(rows, cols);
  fillRandom(m, /*normal=*/true, seed, 1, 0, 0);
  return m;
}

Kernel parsed(const std::string &text, int inputs) {
  Kernel k;
  std::string error;
  EXPECT_TRUE(parse(text, inputs, k, error)) << text << ": " << error;
  return k;
}

Matrix runFused(const Kernel &k, int64_t rows, int64_t cols,
                const std::vector<const Matrix *> &in) {
  std::vector<Operand> ops;
  for (const Matrix *m : in)
    ops.push_back({m->data(), m->rows(), m->cols()});
  Matrix out(rows, cols, NAN);
  run(k, rows, cols, ops.data(), out.data());
  return out;
}

bool sameBits(const Matrix &a, const Matrix &b) {
  return a.shape() == b.shape() &&
         std::memcmp(a.data(), b.data(), sizeof(double) * a.size()) == 0;
}

Matrix constant(double v) { return Matrix(1, 1, v); }

} // namespace

TEST(Fused, TextRoundTrips) {
  const std::string text =
      "mul %i0, %i1; add %t0, -2.5; tanh %t1; max %t2, %i0; neg %t3; "
      "mod %t4, 0.1; gt %t5, %t0; yield %t6";
  Kernel k = parsed(text, 2);
  ASSERT_EQ(k.steps.size(), 7u);
  EXPECT_EQ(k.steps[2].fn, StepFn::Map);
  EXPECT_EQ(k.steps[2].map, MapFn::Tanh);
  EXPECT_EQ(k.steps[1].args[1].kind, Arg::Constant);
  EXPECT_EQ(k.steps[1].args[1].value, -2.5);
  EXPECT_EQ(k.result.kind, Arg::Step);
  EXPECT_EQ(k.result.index, 6);
  EXPECT_EQ(format(k), text);
  // A constant reads back to its exact bits.
  Kernel third = parsed("mul %i0, 0.1; div %t0, 3; yield %t1", 1);
  EXPECT_EQ(format(third), "mul %i0, 0.1; div %t0, 3; yield %t1");
  EXPECT_EQ(third.steps[0].args[1].value, 0.1);
}

TEST(Fused, EveryFunctionNameReadsBack) {
  int count = 0;
  for (const char *name :
       {"add", "sub", "mul", "div", "pow",  "max",   "min",  "mod",
        "gt",  "lt",  "ge",  "le",  "eq",   "neg",   "sqrt", "exp",
        "log", "abs", "sin", "cos", "tanh", "floor", "round"}) {
    Step s;
    ASSERT_TRUE(stepFunction(name, s)) << name;
    EXPECT_STREQ(functionName(s), name);
    ++count;
  }
  EXPECT_EQ(count, 23);
  Step s;
  EXPECT_FALSE(stepFunction("cbrt", s));
  EXPECT_FALSE(stepFunction("Add", s));
}

TEST(Fused, MalformedTextIsRefused) {
  struct Case {
    const char *text, *message;
  } cases[] = {
      {"add %i0, %i2; yield %t0", "'%i2' names no input"},
      {"exp %t0; yield %t0", "'%t0' names no earlier step"},
      {"exp %i0", "the kernel does not end in 'yield'"},
      {"exp %i0, %i1; yield %t0", "'exp' takes 1 argument(s), not 2"},
      {"add %i0; yield %t0", "'add' takes 2 argument(s), not 1"},
      {"cbrt %i0; yield %t0", "'cbrt' is not an elementwise function"},
      {"exp %i0; yield %t0; neg %t0", "nothing may follow 'yield'"},
      {"add %i0, 1x; yield %t0", "'1x' is neither %iK, %tK nor a number"},
      {"yield %t0, %t0", "'yield' takes one value"},
  };
  for (const Case &c : cases) {
    Kernel k;
    std::string error;
    EXPECT_FALSE(parse(c.text, 2, k, error)) << c.text;
    EXPECT_EQ(error, c.message) << c.text;
  }
}

// tanh(X .* r .+ c) .* s over whole, row, column and scalar operands, on
// shapes that are not multiples of the chunk: the unfused ops' bits.
TEST(Fused, BroadcastOperandsMatchTheUnfusedOps) {
  for (auto [rows, cols] : {std::pair<int64_t, int64_t>{37, 23},
                            {3, 700},
                            {600, 1},
                            {1, 513},
                            {1, 1}}) {
    Matrix x = randomMatrix(rows, cols, 1), r = randomMatrix(1, cols, 2),
           c = randomMatrix(rows, 1, 3), s = constant(0.75);
    Kernel k = parsed(
        "mul %i0, %i1; add %t0, %i2; tanh %t1; mul %t2, %i3; yield %t3", 4);
    Matrix fusedResult = runFused(k, rows, cols, {&x, &r, &c, &s});
    Matrix unfused = broadcast(
        BinaryFn::Mul,
        map(MapFn::Tanh,
            broadcast(BinaryFn::Add, broadcast(BinaryFn::Mul, x, r), c)),
        s);
    EXPECT_TRUE(sameBits(fusedResult, unfused)) << rows << "x" << cols;
  }
}

// Every step function, with constants, against the whole-matrix kernels.
TEST(Fused, EveryStepMatchesItsKernel) {
  Matrix a = randomMatrix(40, 30, 4), b = randomMatrix(40, 30, 5);
  Matrix positive = map(MapFn::Abs, a);
  for (int f = 0; f <= int(BinaryFn::Eq); ++f) {
    Step s;
    s.fn = StepFn::Binary;
    s.binary = BinaryFn(f);
    Kernel k = parsed(std::string(functionName(s)) + " %i0, %i1; yield %t0", 2);
    const Matrix &lhs = BinaryFn(f) == BinaryFn::Pow ? positive : a;
    EXPECT_TRUE(sameBits(runFused(k, 40, 30, {&lhs, &b}),
                         broadcast(BinaryFn(f), lhs, b)))
        << functionName(s);
  }
  for (int f = 0; f <= int(MapFn::Round); ++f) {
    Step s;
    s.fn = StepFn::Map;
    s.map = MapFn(f);
    const Matrix &in =
        MapFn(f) == MapFn::Log || MapFn(f) == MapFn::Sqrt ? positive : a;
    Kernel k = parsed(std::string(functionName(s)) + " %i0; yield %t0", 1);
    EXPECT_TRUE(sameBits(runFused(k, 40, 30, {&in}), map(MapFn(f), in)))
        << functionName(s);
  }
  Kernel neg = parsed("neg %i0; pow %t0, 2; yield %t1", 1);
  EXPECT_TRUE(sameBits(runFused(neg, 40, 30, {&a}),
                       broadcast(BinaryFn::Pow, negate(a), constant(2.0))));
}

// A row and a column make the whole matrix; a value read twice; the result
// an input or a constant.
TEST(Fused, OuterShapesAndTrivialYields) {
  Matrix r = randomMatrix(1, 300, 6), c = randomMatrix(45, 1, 7);
  Kernel k = parsed("sub %i0, %i1; mul %t0, %t0; exp %t1; yield %t2", 2);
  Matrix d = broadcast(BinaryFn::Sub, c, r);
  EXPECT_TRUE(sameBits(runFused(k, 45, 300, {&c, &r}),
                       map(MapFn::Exp, broadcast(BinaryFn::Mul, d, d))));
  Kernel input = parsed("yield %i0", 1);
  Matrix x = randomMatrix(5, 5, 8);
  EXPECT_TRUE(sameBits(runFused(input, 5, 5, {&x}), x));
  Kernel value = parsed("yield 2.5", 1);
  EXPECT_TRUE(sameBits(runFused(value, 5, 5, {&x}), Matrix(5, 5, 2.5)));
}

// The executor writes a result over a dead operand: the chunks read each
// element before they write it.
TEST(Fused, ResultMayOverwriteAnOperand) {
  Matrix x = randomMatrix(70, 90, 9), y = randomMatrix(70, 90, 10);
  Kernel k =
      parsed("exp %i0; add %t0, %i1; sin %t1; mul %t2, %i0; yield %t3", 2);
  Matrix expected = runFused(k, 70, 90, {&x, &y});
  Operand ops[] = {{x.data(), 70, 90}, {y.data(), 70, 90}};
  run(k, 70, 90, ops, x.data());
  EXPECT_TRUE(sameBits(x, expected));
}

// The chunk walk hands each operand's matching elements to the body.
TEST(Fused, ChunksCoverTheResultOnce) {
  Matrix r = randomMatrix(1, 600, 11), c = randomMatrix(3, 1, 12);
  Operand ops[] = {{r.data(), 1, 600}, {c.data(), 3, 1}};
  Matrix out(3, 600, NAN);
  int64_t covered = 0;
  forEachChunk(3, 600, ops, 2, out.data(),
               [&](int64_t n, const double *const *x, double *y) {
                 EXPECT_LE(n, kChunk);
                 for (int64_t e = 0; e < n; ++e)
                   y[e] = x[0][e] * 10 + x[1][e];
                 covered += n;
               });
  EXPECT_EQ(covered, 1800);
  for (int64_t i = 0; i < 3; ++i)
    for (int64_t j = 0; j < 600; ++j)
      EXPECT_EQ(out(i, j), r(0, j) * 10 + c(i, 0));
}

// Rows narrower than a chunk go several to a chunk (k-means' m x 32
// distances were one call per row), rows in order, the row operand
// repeated and the column's element stretched over its row.
TEST(Fused, NarrowRowsShareAChunk) {
  const int64_t rows = 50, cols = 32, perChunk = kChunk / cols;
  Matrix w = randomMatrix(rows, cols, 13), r = randomMatrix(1, cols, 14),
         c = randomMatrix(rows, 1, 15);
  Operand ops[] = {{w.data(), rows, cols},
                   {r.data(), 1, cols},
                   {c.data(), rows, 1},
                   {c.data(), 1, 1}};
  Matrix out(rows, cols, NAN);
  int64_t calls = 0, covered = 0;
  forEachChunk(rows, cols, ops, 4, out.data(),
               [&](int64_t n, const double *const *x, double *y) {
                 EXPECT_LE(n, kChunk);
                 for (int64_t e = 0; e < n; ++e)
                   y[e] =
                       x[0][e] + 10 * x[1][e] + 100 * x[2][e] + 1000 * x[3][e];
                 ++calls;
                 covered += n;
               });
  EXPECT_EQ(covered, rows * cols);
  EXPECT_EQ(calls, (rows + perChunk - 1) / perChunk);
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      EXPECT_EQ(out(i, j),
                w(i, j) + 10 * r(0, j) + 100 * c(i, 0) + 1000 * c(0, 0));
}
