//===- TaskBench.cpp - Timing the runtime's tasks -------------------------===//

#include "cmm/Profile/TaskBench.h"

#include "cmmrt/FactorizationCosts.h"
#include "cmmrt/Factorizations.h"
#include "cmmrt/Kernels.h"
#include "cmmrt/TaskKernels.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <tuple>

#ifdef __GLIBC__
#include <malloc.h>
#endif

using namespace cmm::profile;
using cmmrt::Matrix;
using cmmrt::plan::CostClass;
using cmmrt::plan::OpCode;
using cmmrt::plan::TaskKind;

/// Values in [0.5, 1.5]: every map function is defined on them, and a
/// square matrix of them plus n on the diagonal is well conditioned.
static Matrix operand(int64_t rows, int64_t cols, uint64_t seed) {
  Matrix m(rows, cols);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0.5, 1.5);
  for (double &x : m.values())
    x = u(rng);
  return m;
}

/// A symmetric n x n operand (its upper triangle mirrored), values as
/// operand's.
static Matrix symmetricOperand(int64_t n, uint64_t seed) {
  Matrix m = operand(n, n, seed);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < i; ++j)
      m(i, j) = m(j, i);
  return m;
}

/// Zeros and ones (about half each): a product of two such runs exactly
/// in single precision (cmmrt/IntegerProducts.h), as sgemm's tasks do.
static Matrix zeroOne(int64_t rows, int64_t cols, uint64_t seed) {
  Matrix m(rows, cols);
  std::mt19937_64 rng(seed);
  for (double &x : m.values())
    x = double(rng() & 1);
  return m;
}

/// Values as operand's at a random `density` of the elements, zeros
/// elsewhere (a tile the runtime compresses: PageRank's adjacency).
static Matrix sparseOperand(int64_t rows, int64_t cols, double density,
                            uint64_t seed) {
  Matrix m(rows, cols);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0.5, 1.5), coin(0, 1);
  for (double &x : m.values())
    x = coin(rng) < density ? u(rng) : 0.0;
  return m;
}

/// The function a map class's task applies: `map` stands for the cheap
/// functions without a class of their own (sqrt is one of them).
static cmmrt::MapFn mapFunction(CostClass cost) {
  switch (cost) {
  case CostClass::Exp:
    return cmmrt::MapFn::Exp;
  case CostClass::Log:
    return cmmrt::MapFn::Log;
  case CostClass::Tanh:
    return cmmrt::MapFn::Tanh;
  case CostClass::Sin:
    return cmmrt::MapFn::Sin;
  default:
    return cmmrt::MapFn::Sqrt;
  }
}

TaskBench::TaskBench(CostClass cost, int64_t m, int64_t n, int64_t k,
                     bool cold) {
  sig = {double(m), double(n), double(k), 0};
  op.rows = m;
  op.cols = n;
  op.inRows = m;
  op.inCols = n;
  op.text = "profile";
  int64_t outRows = m, outCols = n;
  switch (cost) {
  case CostClass::Gemm:
  case CostClass::GemmOneThread: // the runtime picks the thread count
  case CostClass::Sparse: // its k is a dense product's (CostClasses.def)
    task.kind = TaskKind::Gemm;
    op.code = OpCode::Matmul;
    operands.push_back(operand(m, k, 1));
    operands.push_back(operand(k, n, 2));
    break;
  case CostClass::Compress:
    // The first product of a vector by an m x n tile of k nonzeros a row:
    // run() gives each repetition a new SparseOperand, so the task
    // compresses the tile (SparseOperand::rows) before its product.
    task.kind = TaskKind::Gemm;
    op.code = OpCode::Matmul;
    op.cols = outCols = 1;
    compresses = true;
    operands.push_back(sparseOperand(m, n, double(k) / double(n), 1));
    operands.push_back(operand(n, 1, 2));
    break;
  case CostClass::SingleGemm:
    task.kind = TaskKind::Gemm;
    op.code = OpCode::Matmul;
    operands.push_back(zeroOne(m, k, 1));
    operands.push_back(zeroOne(k, n, 2));
    break;
  case CostClass::Elementwise:
  case CostClass::Pow:
  case CostClass::Mod:
    task.kind = TaskKind::Elementwise;
    op.code = cost == CostClass::Pow   ? OpCode::EPow
              : cost == CostClass::Mod ? OpCode::Mod
                                       : OpCode::Add;
    operands.push_back(operand(m, n, 1));
    operands.push_back(operand(m, n, 2));
    break;
  case CostClass::Fused: {
    // k steps over two whole tiles, multiplications and additions in turn
    // (cmmrt/Fused.h's text: "mul %i0, %i1; add %t0, %i1; ..."), in the
    // generated form (FusedChain.cpp).
    task.kind = TaskKind::Elementwise;
    op.code = OpCode::Fused;
    op.a = 2;
    op.kernel = fusedChainKernel(k);
    for (int64_t s = 0; s < std::max<int64_t>(k, 1); ++s)
      kernelText += (s % 2 ? "add " : "mul ") +
                    (s ? "%t" + std::to_string(s - 1) : std::string("%i0")) +
                    ", %i1; ";
    kernelText += "yield %t" + std::to_string(std::max<int64_t>(k, 1) - 1);
    op.text = kernelText.c_str();
    operands.push_back(operand(m, n, 1));
    operands.push_back(operand(m, n, 2));
    break;
  }
  case CostClass::Scale:
    // One tile streamed: a scaling (what scale, neg and broadcasts cost).
    task.kind = TaskKind::Elementwise;
    op.code = OpCode::Scale;
    op.scalar = 0.5;
    operands.push_back(operand(m, n, 1));
    break;
  case CostClass::Map:
  case CostClass::Exp:
  case CostClass::Log:
  case CostClass::Tanh:
  case CostClass::Sin:
    task.kind = TaskKind::Elementwise;
    op.code = OpCode::Map;
    op.a = int64_t(mapFunction(cost));
    operands.push_back(operand(m, n, 1));
    break;
  case CostClass::Reduce:
    task.kind = TaskKind::Reduce;
    op.code = OpCode::ReduceSum;
    op.a = 0; // to 1x1
    outRows = outCols = 1;
    operands.push_back(operand(m, n, 1));
    break;
  case CostClass::Transpose:
    task.kind = TaskKind::Transpose;
    op.code = OpCode::Transpose;
    outRows = n;
    outCols = m;
    operands.push_back(operand(m, n, 1));
    break;
  case CostClass::Generate:
    // A constant tile (fill, zeros, ones): what `generate` now covers.
    task.kind = TaskKind::Generate;
    op.code = OpCode::Fill;
    op.scalar = 1.0;
    break;
  case CostClass::Rand:
  case CostClass::Randn:
    task.kind = TaskKind::Generate;
    op.code = cost == CostClass::Rand ? OpCode::Rand : OpCode::Randn;
    op.a = 42;
    op.b = 1;
    break;
  case CostClass::Solve: {
    // inv of an n x n matrix (m = n = k, docs/machine-model.md "Solves"),
    // or with k < m an LU solve A \ b of one right-hand side (k its flops
    // in the inverse's units, as the tiler counts it).
    task.kind = TaskKind::Solve;
    bool inverse = k >= m;
    op.code = inverse ? OpCode::Inv : OpCode::Solve;
    op.a = int64_t(cmmrt::SolveMethod::General);
    op.rows = op.inRows = op.inCols = outRows = m;
    op.cols = outCols = inverse ? m : 1;
    Matrix a = operand(m, m, 1);
    for (int64_t i = 0; i < m; ++i)
      a(i, i) += double(m);
    operands.push_back(std::move(a));
    if (!inverse)
      operands.push_back(operand(m, 1, 2));
    sig = {double(m), double(m), inverse ? double(m) : double(k), 0};
    break;
  }
  case CostClass::Qr:
  case CostClass::Svd:
  case CostClass::SvdVals:
  case CostClass::Lstsq:
    // The factorization of an m x n matrix (least squares: with one
    // right-hand side), k its flops in the class's units.
    task.kind = TaskKind::Solve;
    op.code = cost == CostClass::Qr        ? OpCode::Qr
              : cost == CostClass::Svd     ? OpCode::Svd
              : cost == CostClass::SvdVals ? OpCode::SvdVals
                                           : OpCode::Solve;
    operands.push_back(operand(m, n, 1));
    if (cost == CostClass::Lstsq) {
      operands.push_back(operand(m, 1, 2));
      outRows = n;
      outCols = 1;
    } else {
      outRows = std::max(m, n); // the first result's tile: Q, U
      outCols = std::min(m, n);
    }
    break;
  case CostClass::Eig:
  case CostClass::EigVals: {
    task.kind = TaskKind::Solve;
    op.code = cost == CostClass::Eig ? OpCode::Eig : OpCode::EigVals;
    op.a = 1; // symmetric by construction: no run-time test
    operands.push_back(symmetricOperand(m, 1));
    outCols = 1; // the eigenvalues
    break;
  }
  case CostClass::Potrf:
  case CostClass::Trsm:
  case CostClass::Syrk: {
    // chol's tile kernels (cmmrt/TileFactorizations.h), with m, n, k of
    // the product of equal flops (CostClasses.def): POTRF of an m x m
    // tile; TRSM of an m x m triangle against m x n; SYRK of an m x m
    // tile with depth 2 k.
    op.code = OpCode::Chol;
    op.inRows = op.inCols = m;
    Matrix spd = symmetricOperand(m, 1);
    for (int64_t i = 0; i < m; ++i)
      spd(i, i) += double(m);
    if (cost == CostClass::Potrf) {
      task.kind = TaskKind::Potrf;
      outCols = m;
      operands.push_back(std::move(spd));
    } else if (cost == CostClass::Trsm) {
      task.kind = TaskKind::Trsm;
      operands.push_back(std::move(spd)); // its upper triangle is read
      operands.push_back(operand(m, n, 2));
    } else {
      task.kind = TaskKind::Syrk;
      outCols = m;
      operands.push_back(operand(std::max<int64_t>(1, 2 * k), m, 2));
      operands.push_back(std::move(spd));
    }
    break;
  }
  case CostClass::Copy:
    // A gather of one tile into the whole matrix (print, save).
    task.kind = TaskKind::Gather;
    op.code = OpCode::Print;
    operands.push_back(operand(m, n, 1));
    break;
  }
  // In a program a task's inputs are seldom in cache (other tasks ran
  // since they were written), so each repetition reads its own copy, out
  // of cache: with copies enough to exceed the last-level cache, a small
  // tile costs what it costs there, not a hot loop's time.
  double bytes = 0;
  for (const Matrix &m : operands)
    bytes += 8.0 * double(m.rows()) * double(m.cols());
  if (bytes > 0) {
    size_t copies =
        cold ? size_t(std::min(kMaxColdCopies, std::ceil(kColdBytes / bytes)))
             : 1;
    std::vector<Matrix> first = operands;
    for (size_t c = 1; c < copies; ++c)
      operands.insert(operands.end(), first.begin(), first.end());
    perRun = first.size();
  }
  slots.push_back({0, outRows, outCols, 0, 0, 1});
  task.op = 0;
  task.numOutputs = 1;
  task.firstOutput = 0;
  task.name = "profile";
  plan.ops = &op;
  plan.numOps = 1;
  plan.slots = slots.data();
  plan.numSlots = int32_t(slots.size());
}

double TaskBench::run() {
  std::vector<cmmrt::TileRef> inputs;
  size_t copies = perRun ? operands.size() / perRun : 0;
  for (size_t i = 0; i < perRun; ++i)
    inputs.push_back({&operands[next * perRun + i], 0, 0});
  // A tile read by many products, not yet compressed (freed before the
  // clock starts, as the outputs are). Its compressed rows are written to
  // fresh pages, as a program's are: a tile is compressed once, and its
  // nonzeros' pages (about 24 bytes each, bands and the result) faulted
  // 10-17 us each here, 2-3x the scan's time at 1 % (2026-12-02, 1400 x
  // 1400: 131 faults, 3.1 ms against 0.8 on recycled pages). Returning
  // the free heap to the system makes each repetition's pages fresh.
  sparse.reset();
  if (compresses) {
#ifdef __GLIBC__
    malloc_trim(0);
#endif
    sparse = std::make_unique<cmmrt::SparseOperand>(*inputs[0].tile,
                                                    kCompressedReaders);
    inputs[0].sparse = sparse.get();
  }
  if (copies)
    next = (next + 1) % copies;
  std::string error;
  auto noLoad = [](int32_t, std::shared_ptr<const Matrix> &, std::string &e) {
    e = "no loads in a profile";
    return false;
  };
  // The previous outputs are freed before the clock starts: the task
  // allocates (and first touches) its own, as it does in a program.
  outputs.clear();
  auto start = std::chrono::steady_clock::now();
  bool ok = cmmrt::runTask(plan, task, inputs, outputs, noLoad, error);
  auto stop = std::chrono::steady_clock::now();
  if (ok && compresses && !sparse->rows()) {
    ok = false;
    error = "a compress bench's tile stayed dense";
  }
  if (!ok) {
    std::fprintf(stderr, "cmm-profile: internal error: %s\n", error.c_str());
    std::abort();
  }
  return std::chrono::duration<double>(stop - start).count();
}

std::vector<Observation> cmm::profile::benchSizes(CostClass cost, bool quick) {
  std::vector<Observation> out;
  auto square = [&](std::initializer_list<int64_t> sizes) {
    for (int64_t s : sizes)
      out.push_back({double(s), double(s), 1, 0});
  };
  switch (cost) {
  case CostClass::Gemm:
  case CostClass::GemmOneThread: {
    std::vector<int64_t> sizes =
        quick ? std::vector<int64_t>{8, 32, 96, 192, 256, 512, 1000, 2000}
              : std::vector<int64_t>{8,   24,  64,   128,  192,
                                     256, 512, 1000, 1500, 2000};
    // (192^3 is the smallest square the runtime runs threaded: it pins
    // gemm's per-call term, which the fit over 256^3 and up set at 0.2 ms.)
    for (int64_t s : sizes) {
      out.push_back({double(s), double(s), double(s), 0});
      // Thin shapes: an inner dimension of an eighth (the mn term), and a
      // result of an eighth of the columns or rows (mk, nk: DFT's 1433 x
      // 1433 by 1433 x 256 tiles ran 1.4x a fit over squares and thin
      // inner dimensions alone).
      if (s >= 64) {
        out.push_back({double(s), double(s), double(s / 8), 0});
        out.push_back({double(s), double(s / 8), double(s), 0});
        out.push_back({double(s / 8), double(s), double(s), 0});
      }
    }
    // Tall-skinny products, two dimensions small: a tall operand by a small
    // matrix (s x 64 by 64 x 32: k-means' distances X * C') and the inner
    // products of two tall operands (32 x s by s x 64: its update A' * X).
    // Squares and one-eighth shapes alone left them to extrapolation: k-means'
    // 12000 x 32 x 64 and 32 x 64 x 12000 tiles ran 1.3-1.6x the fit.
    for (double s : quick ? std::vector<double>{2000, 12000}
                          : std::vector<double>{2000, 6000, 20000}) {
      out.push_back({s, 32, 64, 0});
      out.push_back({32, 64, s, 0});
    }
    // Matrix-vector products (a vector operand runs dgemv), both ways: A * x
    // streams A as m x k (the mk term), x' * A as k x n (the nk term), and a
    // small one for their per-call cost; and outer products.
    for (double s : quick ? std::vector<double>{200, 1000, 3000}
                          : std::vector<double>{200, 1000, 3000}) {
      out.push_back({s, 1, s, 0});
      out.push_back({1, s, s, 0});
      // Outer products (inner dimension 1) are all writes: the mn term.
      // Without them the fit set it to 0, and a 5000 x 1 by 1 x 5000
      // product was predicted 25x faster than it ran (2x with them; the
      // rest is its 200 MB result's first touch, which the model charges
      // apart).
      out.push_back({s, s, 1, 0});
    }
    // Each of the two classes times the shapes its polynomial prices: the
    // runtime runs the others' on another number of BLAS threads.
    out.erase(std::remove_if(out.begin(), out.end(),
                             [&](const Observation &o) {
                               return scheduling::polynomialClass(
                                          CostClass::Gemm, o.m, o.n, o.k) !=
                                      cost;
                             }),
              out.end());
    break;
  }
  case CostClass::Solve: {
    std::vector<int64_t> sizes =
        quick ? std::vector<int64_t>{8, 32, 100, 300, 600, 1500}
              : std::vector<int64_t>{8, 32, 100, 250, 500, 1000, 1500};
    for (int64_t s : sizes)
      out.push_back({double(s), double(s), double(s), 0});
    // Solves of one right-hand side: an inverse's n^2 work (its mn term)
    // is not an LU solve's, and Leontief's 3000 solve ran at 0.8 of a fit
    // over inverses alone.
    for (int64_t s : sizes)
      if (s >= 100)
        out.push_back({double(s), double(s),
                       cmmrt::wholeTaskDepth(cmmrt::luSolveFlops(double(s), 1),
                                             double(s), double(s)),
                       0});
    break;
  }
  case CostClass::SingleGemm: {
    // Only products with every dimension at least kMinIntegerProductDim
    // are sgemm tasks: squares, and a dimension of a quarter from 512.
    std::vector<int64_t> sizes =
        quick ? std::vector<int64_t>{128, 256, 512, 1000}
              : std::vector<int64_t>{128, 256, 512, 1000, 1500, 2000};
    for (int64_t s : sizes) {
      out.push_back({double(s), double(s), double(s), 0});
      if (s >= 512) {
        out.push_back({double(s), double(s), double(s / 4), 0});
        out.push_back({double(s), double(s / 4), double(s), 0});
        out.push_back({double(s / 4), double(s), double(s), 0});
      }
    }
    break;
  }
  case CostClass::Qr:
  case CostClass::Svd:
  case CostClass::SvdVals:
  case CostClass::Eig:
  case CostClass::EigVals:
  case CostClass::Lstsq: {
    // Squares (least squares: 4 rows to a column) and, but for eig's, tall
    // matrices: a narrow panel runs at a fraction of a square's rate (QR of
    // 20000 x 100 at a third of 1000 x 1000's), the mn term against mnk.
    // k as the planner counts it.
    std::vector<std::pair<int64_t, int64_t>> shapes =
        quick
            ? std::vector<std::pair<int64_t, int64_t>>{{8, 8},     {32, 32},
                                                       {100, 100}, {300, 300},
                                                       {2000, 50}, {8000, 100},
                                                       {3000, 300}}
            : std::vector<std::pair<int64_t, int64_t>>{
                  {8, 8},       {32, 32},     {100, 100},   {250, 250},
                  {500, 500},   {1000, 1000}, {1500, 1500}, {2000, 50},
                  {10000, 100}, {20000, 200}, {10000, 300}, {5000, 1000}};
    bool squaresOnly = cost == CostClass::Eig || cost == CostClass::EigVals;
    // Squares past the last-level cache: eig of 1000 ran 2.6x a fit up to
    // 500, of 2000 1.5x a fit up to 1000 (spectral, 2026-11-30).
    if (squaresOnly) {
      if (quick)
        shapes.push_back({1000, 1000});
      shapes.push_back({2000, 2000});
    }
    for (auto [m, n] : shapes) {
      if (squaresOnly && m != n)
        continue;
      if (cost == CostClass::Lstsq && m == n) // square: LU, class solve
        m *= 4;
      out.push_back(
          {double(m), double(n),
           cmmrt::wholeTaskDepth(cmmrt::factorizationFlops(cost, m, n), m, n),
           0});
    }
    break;
  }
  case CostClass::Potrf:
  case CostClass::Trsm:
  case CostClass::Syrk: {
    // Tile sizes of a planned chol; k as the class counts it. A quick
    // profile's too reach 1000: fitted up to 600, POTRF of 2000 came out
    // 1.4x the full profile's (2026-12-02).
    std::vector<int64_t> sizes =
        quick ? std::vector<int64_t>{8, 32, 100, 300, 1000}
              : std::vector<int64_t>{8, 32, 100, 250, 500, 1000, 1500};
    for (int64_t s : sizes)
      out.push_back(
          {double(s), double(s),
           std::max(1.0,
                    std::round(double(s) / (cost == CostClass::Potrf ? 6 : 2))),
           0});
    // A solve's few right-hand sides (R' \ y of a Gaussian process: one
    // column against a 1000 x 1000 triangle) read the whole triangle for
    // little arithmetic: its m k term, which squares alone cannot tell
    // from m n.
    if (cost == CostClass::Trsm)
      for (int64_t s : quick ? std::vector<int64_t>{300, 1000}
                             : std::vector<int64_t>{300, 1000, 2000})
        for (int64_t rhs : {1, 8})
          out.push_back({double(s), double(rhs), std::round(double(s) / 2), 0});
    break;
  }
  case CostClass::Compress: {
    // Tiles of PageRank's, HITS's and SpMV's sizes at densities from 0.5 %
    // to 8 % (k nonzeros a row): the scan (mn) and the nonzeros (mk).
    // Their fresh pages make the times noisy (more repetitions each), so
    // a quick profile takes five.
    std::vector<std::tuple<int64_t, int64_t, double>> shapes;
    if (quick) {
      shapes = {{300, 300, 0.02},
                {1000, 1000, 0.005},
                {1000, 1000, 0.08},
                {1500, 1500, 0.005},
                {1500, 1500, 0.02}};
    } else {
      for (auto [m, n] : std::vector<std::pair<int64_t, int64_t>>{{300, 300},
                                                                  {1000, 1000},
                                                                  {600, 2000},
                                                                  {2000, 600},
                                                                  {2000, 2000},
                                                                  {3000, 3000}})
        for (double density : {0.005, 0.02, 0.08})
          shapes.push_back({m, n, density});
    }
    for (auto [m, n, density] : shapes)
      out.push_back({double(m), double(n), std::round(density * n), 0});
    break;
  }
  case CostClass::Fused:
    // Kernels of 2, 8 and 32 steps: the pass (mn) and each step (mnk).
    for (int64_t s : quick ? std::vector<int64_t>{16, 150, 1000}
                           : std::vector<int64_t>{16, 50, 150, 400, 1000, 2000})
      for (int64_t steps : {2, 8, 32})
        out.push_back({double(s), double(s), double(steps), 0});
    break;
  default:
    if (quick)
      square({4, 16, 50, 150, 400, 1000, 2000});
    else
      square({4, 16, 50, 150, 400, 1000, 2000, 3000, 4500});
    // Row and column vectors (broadcasts, reductions to a vector).
    out.push_back({quick ? 1000.0 : 4000.0, 1, 1, 0});
    out.push_back({1, quick ? 1000.0 : 4000.0, 1, 0});
    break;
  }
  return out;
}

Terms cmm::profile::fittedTerms(CostClass cost) {
  switch (cost) {
  case CostClass::Gemm:
  case CostClass::GemmOneThread:
  case CostClass::SingleGemm:
    return terms({One, MN, MK, NK, MNK});
  case CostClass::Qr:
  case CostClass::Svd:
  case CostClass::SvdVals:
  case CostClass::Lstsq:
    // m the longer side, n the shorter (wholeRule): a tall matrix's
    // narrow panels cost about n^2 = nk / 2 per row beyond its flops'
    // share (rms 12 % over squares and tall shapes, 20-47 % without nk).
    return terms({One, MN, NK, MNK});
  case CostClass::Eig:
  case CostClass::EigVals:
    // Squares: dsyevd's divide and conquer adds work per eigenvalue (rms
    // 3 % and 1 % with m, 11 % and 16 % without).
    return terms({One, M, MN, MNK});
  case CostClass::Solve:
    // Inverses (k = n) and LU solves (k = n/3 + r) share n^3 in mnk but not
    // their n^2 work: mk (= n k) lets an inverse's be its own (rms 21 %
    // over both without it).
    return terms({One, MN, MK, MNK});
  case CostClass::Trsm:
    // The triangle (m k, k = m / 2) read once whatever the right-hand
    // sides: thin solves are memory-bound.
    return terms({One, MN, MK, MNK});
  case CostClass::Potrf:
  case CostClass::Syrk:
    return terms({One, MN, MNK});
  case CostClass::Fused:
    // The pass (mn), each step's arithmetic (mnk) and its call on each
    // chunk (k: a 16 x 16 kernel of 32 steps ran 3x a fit without it).
    return terms({One, K, MN, MNK});
  case CostClass::Compress:
    // The dense tile's scan and the nonzeros it writes (m rows of k, on
    // fresh pages). A term in m (the row starts) came out 0 in three of
    // four full profiles.
    return terms({One, MN, MK});
  default:
    return terms({One, M, N, MN});
  }
}
