//===- ProfileTest.cpp - cmm-profile's statistics and fits ----------------===//
//
// The stopping rule against known distributions, Student's t against
// printed tables, and the fits recovering known polynomials from noisy
// "measurements".
//
//===----------------------------------------------------------------------===//

#include "cmm/Profile/Configurations.h"
#include "cmm/Profile/FirstTouch.h"
#include "cmm/Profile/Fit.h"
#include "cmm/Profile/Statistics.h"
#include "cmm/Profile/TaskBench.h"
#include "cmmrt/FactorizationCosts.h"
#include "cmmrt/SparseRows.h"
#include "cmmrt/TileMemory.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <set>
#include <utility>
#include <vector>

extern "C" int openblas_get_num_threads(void);
extern "C" void openblas_set_num_threads(int);

using namespace cmm::profile;

TEST(ProfileStatistics, StudentTMatchesTables) {
  // Two-sided critical values, e.g. Abramowitz and Stegun, Table 26.10.
  struct Row {
    double confidence;
    unsigned dof;
    double t;
  } rows[] = {{0.95, 1, 12.706}, {0.95, 2, 4.303},  {0.95, 3, 3.182},
              {0.95, 5, 2.571},  {0.95, 10, 2.228}, {0.95, 30, 2.042},
              {0.99, 4, 4.604},  {0.99, 10, 3.169}, {0.90, 20, 1.725}};
  for (const Row &r : rows)
    EXPECT_NEAR(studentT(r.confidence, r.dof), r.t, 5e-4 * r.t)
        << r.confidence << " " << r.dof;
}

TEST(ProfileStatistics, RunningStatsAgreesWithTwoPass) {
  std::vector<double> xs = {3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0};
  RunningStats s;
  for (double x : xs)
    s.add(x);
  double mean = 31.0 / 8, var = 0;
  for (double x : xs)
    var += (x - mean) * (x - mean);
  var /= 7;
  EXPECT_DOUBLE_EQ(s.mean(), mean);
  EXPECT_NEAR(s.variance(), var, 1e-12);
  EXPECT_EQ(s.min(), 1.0);
  EXPECT_EQ(s.count(), 8u);
}

TEST(ProfileStatistics, MergedStatsAgreeWithOneRun) {
  std::vector<double> xs = {3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0, 5.0};
  RunningStats all, first, second, none;
  for (size_t i = 0; i < xs.size(); ++i) {
    all.add(xs[i]);
    (i < 3 ? first : second).add(xs[i]);
  }
  first.merge(none);
  none.merge(first);
  EXPECT_EQ(none.count(), 3u);
  first.merge(second);
  EXPECT_EQ(first.count(), all.count());
  EXPECT_NEAR(first.mean(), all.mean(), 1e-12);
  EXPECT_NEAR(first.variance(), all.variance(), 1e-12);
  EXPECT_EQ(first.min(), 1.0);
}

TEST(ProfileStatistics, SteadyKernelStopsAtTheMinimum) {
  SamplingRule rule;
  rule.minReps = 4;
  unsigned calls = 0;
  Sampled out = sampleUntilConfident(
      [&] {
        ++calls;
        return 1e-3;
      },
      rule);
  EXPECT_EQ(out.reason, StopReason::Confident);
  EXPECT_EQ(out.stats.count(), 4u);
  EXPECT_EQ(calls, 5u); // and one warm-up
  EXPECT_EQ(out.stats.cov(), 0.0);
}

TEST(ProfileStatistics, NoisyKernelRunsLonger) {
  std::mt19937_64 rng(7);
  std::lognormal_distribution<double> noise(0.0, 0.3);
  SamplingRule rule;
  rule.tolerance = 0.02;
  rule.maxReps = 100000;
  rule.maxSeconds = 1e9;
  Sampled out = sampleUntilConfident([&] { return 1e-3 * noise(rng); }, rule);
  EXPECT_EQ(out.reason, StopReason::Confident);
  // CoV about 0.31: the half-width 1.96 * 0.31 / sqrt(n) reaches 2 % near
  // n = 920.
  EXPECT_GT(out.stats.count(), 500u);
  EXPECT_LT(out.stats.count(), 2000u);
  EXPECT_LE(relativeHalfWidth(out.stats, 0.95), 0.02);

  // The same kernel with a looser tolerance stops much sooner.
  rule.tolerance = 0.2;
  Sampled loose = sampleUntilConfident([&] { return 1e-3 * noise(rng); }, rule);
  EXPECT_LT(loose.stats.count(), 40u);
}

TEST(ProfileStatistics, CapsStopSampling) {
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> noise(0.5, 1.5);
  SamplingRule rule;
  rule.tolerance = 1e-6;
  rule.maxReps = 10;
  rule.maxSeconds = 1e9;
  Sampled reps = sampleUntilConfident([&] { return noise(rng); }, rule);
  EXPECT_EQ(reps.reason, StopReason::MaxReps);
  EXPECT_EQ(reps.stats.count(), 10u);

  rule.maxReps = 1000;
  rule.maxSeconds = 5; // each "run" takes about a second
  Sampled time = sampleUntilConfident([&] { return noise(rng); }, rule);
  EXPECT_EQ(time.reason, StopReason::MaxSeconds);
  EXPECT_LE(time.stats.count(), 8u);
  EXPECT_GE(time.stats.count(), rule.minReps);
}

TEST(ProfileStatistics, ABudgetSharesTheWallTimeLeft) {
  // 10 s left over 40 signatures, all of the wall time measured: 0.25 s
  // each, under a cap of 0.5; a cap of 0.1 stays.
  EXPECT_DOUBLE_EQ(budgetedMaxSeconds(0.5, 10, 40, 1.0), 0.25);
  EXPECT_DOUBLE_EQ(budgetedMaxSeconds(0.1, 10, 40, 1.0), 0.1);
  // Half the wall time went to setup the cap does not count: half the share.
  EXPECT_DOUBLE_EQ(budgetedMaxSeconds(0.5, 10, 40, 0.5), 0.125);
  // The measured share counts at least 5 % (a first signature, no history).
  EXPECT_DOUBLE_EQ(budgetedMaxSeconds(0.5, 10, 40, 0.0), 0.0125);
  // A spent budget: 0, every signature timed by its warm-up call alone.
  EXPECT_DOUBLE_EQ(budgetedMaxSeconds(0.5, -3, 40, 1.0), 0.0);
  EXPECT_DOUBLE_EQ(budgetedMaxSeconds(0.5, 10, 0, 1.0), 0.5);

  SamplingRule rule;
  rule.maxSeconds = budgetedMaxSeconds(0.5, -3, 40, 1.0);
  unsigned calls = 0;
  Sampled once = sampleUntilConfident(
      [&] {
        ++calls;
        return 1e-3;
      },
      rule);
  EXPECT_EQ(calls, 1u);
  EXPECT_EQ(once.stats.count(), 1u);
  EXPECT_EQ(once.reason, StopReason::MaxSeconds);
}

TEST(ProfileFit, NonNegativeLeastSquaresByHand) {
  // A = [1 0; 0 1; 1 1], b = [2 -1 1]: unconstrained x = (2, -1); with
  // x >= 0, x2 = 0 and x1 minimises (x1-2)^2 + (x1-1)^2, so x1 = 1.5.
  std::vector<double> a = {1, 0, 1, 0, 1, 1};
  std::vector<double> x = nonNegativeLeastSquares(a, 3, 2, {2, -1, 1});
  ASSERT_EQ(x.size(), 2u);
  EXPECT_NEAR(x[0], 1.5, 1e-12);
  EXPECT_EQ(x[1], 0.0);

  // Where the unconstrained solution is non-negative, it is the answer.
  std::vector<double> y = nonNegativeLeastSquares(a, 3, 2, {1, 2, 3});
  EXPECT_NEAR(y[0], 1.0, 1e-12);
  EXPECT_NEAR(y[1], 2.0, 1e-12);
}

/// Times of `truth` at the sizes given, each with multiplicative noise of
/// relative standard deviation `sigma`.
static std::vector<Observation>
noisy(const cmm::scheduling::TimePolynomial &truth,
      const std::vector<std::array<double, 3>> &sizes, double sigma,
      unsigned seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> noise(0.0, sigma);
  std::vector<Observation> out;
  for (auto [m, n, k] : sizes)
    out.push_back({m, n, k, truth.eval(m, n, k) * (1 + noise(rng))});
  return out;
}

TEST(ProfileFit, RecoversAnElementwisePolynomial) {
  cmm::scheduling::TimePolynomial truth;
  truth.a[One] = 2e-6; // per-call overhead
  truth.a[MN] = 1e-9;  // per element
  std::vector<std::array<double, 3>> sizes;
  for (double s : {4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096})
    sizes.push_back({s, s, 1});
  PolynomialFit fit = fitTimePolynomial(noisy(truth, sizes, 0.02, 1),
                                        terms({One, M, N, K, MN}));
  EXPECT_EQ(fit.points, sizes.size());
  EXPECT_NEAR(fit.poly.a[One], 2e-6, 0.1 * 2e-6);
  EXPECT_NEAR(fit.poly.a[MN], 1e-9, 0.05 * 1e-9);
  EXPECT_EQ(fit.poly.a[K], 0.0); // k is 1 throughout: not fitted
  for (double c : fit.poly.a)
    EXPECT_GE(c, 0.0);
  EXPECT_LT(fit.rmsRelativeError, 0.05);
  // The smallest call is predicted by its overhead, not by an intercept
  // fitted to the largest.
  EXPECT_NEAR(fit.poly.eval(4, 4), truth.eval(4, 4), 0.1 * truth.eval(4, 4));
}

TEST(ProfileFit, RecoversAProductPolynomial) {
  cmm::scheduling::TimePolynomial truth;
  truth.a[One] = 5e-6;
  truth.a[MN] = 2e-10; // writing C
  truth.a[MNK] = 2e-11;
  std::vector<std::array<double, 3>> sizes;
  for (double m : {8, 32, 128, 512, 1024, 2000})
    for (double k : {8, 64, 512, 2000})
      sizes.push_back({m, m, k});
  PolynomialFit fit =
      fitTimePolynomial(noisy(truth, sizes, 0.03, 2), terms({One, MN, MNK}));
  EXPECT_NEAR(fit.poly.a[One], 5e-6, 0.15 * 5e-6);
  EXPECT_NEAR(fit.poly.a[MN], 2e-10, 0.2 * 2e-10);
  EXPECT_NEAR(fit.poly.a[MNK], 2e-11, 0.05 * 2e-11);
  EXPECT_LT(fit.maxRelativeError, 0.15);
}

TEST(ProfileFit, RecoversARooflinePolynomial) {
  // Class fused: a pass over the operands or k steps of arithmetic on each
  // element, whichever is longer (TimePolynomial::evalRoofline), plus a
  // call per step.
  cmm::scheduling::TimePolynomial truth;
  truth.a[One] = 1e-6;
  truth.a[K] = 2e-9;
  truth.a[MN] = 7e-10;  // the pass
  truth.a[MNK] = 8e-11; // a step: longer than the pass from 9 steps
  std::vector<Observation> points;
  std::mt19937_64 rng(5);
  std::normal_distribution<double> noise(0, 0.02);
  for (double s : {16, 50, 150, 400, 1000, 2000})
    for (double k : {2, 8, 32})
      points.push_back(
          {s, s, k, truth.evalRoofline(s, s, k) * (1 + noise(rng))});
  PolynomialFit fit =
      fitTimePolynomial(points, terms({One, K, MN, MNK}), /*roofline=*/true);
  EXPECT_NEAR(fit.poly.a[MN], 7e-10, 0.05 * 7e-10);
  EXPECT_NEAR(fit.poly.a[MNK], 8e-11, 0.05 * 8e-11);
  EXPECT_LT(fit.maxRelativeError, 0.08);
  // A sum of the two terms cannot follow it: 2 and 8 steps cost the same.
  PolynomialFit sum = fitTimePolynomial(points, terms({One, K, MN, MNK}));
  EXPECT_GT(sum.maxRelativeError, 0.2);
  // An 80-step kernel on 1000 x 1000: its arithmetic, not its pass.
  EXPECT_NEAR(fit.poly.evalRoofline(1000, 1000, 80),
              truth.evalRoofline(1000, 1000, 80),
              0.06 * truth.evalRoofline(1000, 1000, 80));
}

TEST(ProfileFit, ARooflineFitNeverEndsWorseThanItsFirstIterate) {
  // Kernels whose times no roofline fits (noise of 40 %): the rounds may
  // cycle or empty a side; the fit returned is the best one seen, and its
  // reported errors are the roofline's.
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> noise(0.6, 1.4);
  for (int set = 0; set < 50; ++set) {
    std::vector<Observation> points;
    for (double s : {16, 150, 1000})
      for (double k : {2, 8, 32})
        points.push_back({s, s, k, (1e-6 + 5e-10 * s * s) * noise(rng)});
    Terms use = terms({One, K, MN, MNK});
    PolynomialFit sum = fitTimePolynomial(points, use);
    PolynomialFit fit = fitTimePolynomial(points, use, /*roofline=*/true);
    double sumAsRoofline = 0, ours = 0;
    for (const Observation &o : points) {
      double a = sum.poly.evalRoofline(o.m, o.n, o.k) / o.seconds - 1;
      double b = fit.poly.evalRoofline(o.m, o.n, o.k) / o.seconds - 1;
      sumAsRoofline += a * a;
      ours += b * b;
    }
    EXPECT_LE(fit.rmsRelativeError,
              std::sqrt(sumAsRoofline / points.size()) + 1e-12);
    EXPECT_NEAR(fit.rmsRelativeError, std::sqrt(ours / points.size()), 1e-12);
  }
}

TEST(ProfileFit, RooflineIsTheSumWhenOneTermIsZero) {
  cmm::scheduling::TimePolynomial p;
  p.a[One] = 1e-6;
  p.a[M] = 1e-9;
  p.a[MN] = 5e-10;
  EXPECT_DOUBLE_EQ(p.evalRoofline(300, 200, 4), p.eval(300, 200, 4));
  p.a[MNK] = 1e-10; // 4 steps: 4e-10 a element, under the pass's 5e-10
  EXPECT_DOUBLE_EQ(p.evalRoofline(300, 200, 4),
                   1e-6 + 1e-9 * 300 + 5e-10 * 300 * 200);
  EXPECT_DOUBLE_EQ(p.evalRoofline(300, 200, 10),
                   1e-6 + 1e-9 * 300 + 1e-10 * 300 * 200 * 10);
  using cmm::scheduling::isRooflineClass;
  EXPECT_TRUE(isRooflineClass(cmmrt::plan::CostClass::Fused));
  EXPECT_FALSE(isRooflineClass(cmmrt::plan::CostClass::Gemm));
}

TEST(ProfileFit, KeepsCoefficientsNonNegative) {
  // Times that fall with size at the small end would need a negative slope:
  // the fit sets it to zero instead.
  std::vector<Observation> points = {
      {10, 10, 1, 5e-6}, {20, 20, 1, 4e-6}, {1000, 1000, 1, 1e-3}};
  PolynomialFit fit = fitTimePolynomial(points, terms({One, M, N, MN}));
  for (double c : fit.poly.a)
    EXPECT_GE(c, 0.0);
  EXPECT_GT(fit.poly.a[MN], 0.0);
  EXPECT_GT(fit.poly.a[One], 0.0);
}

TEST(ProfileFit, SkipsUnusableObservations) {
  std::vector<Observation> points = {
      {10, 10, 1, 0}, {10, 10, 1, NAN}, {100, 100, 1, 1e-5}};
  PolynomialFit fit = fitTimePolynomial(points, terms({MN}));
  EXPECT_EQ(fit.points, 1u);
  EXPECT_NEAR(fit.poly.a[MN], 1e-9, 1e-15);
}

TEST(ProfileBench, ProductsAreTimedWithVectorsOnEitherSideAndOuter) {
  // A * x streams A through the mk term, x' * A through nk: both are
  // measured (x' * A was not, and BFS's f * A was predicted 7x fast), at a
  // small and a large size, as are the square and thin-inner products, up
  // to 2000^3 in both modes (stopping at 1000 in --quick left the mnk term
  // to noisy 512-1000 points: 2000-5000 tiles ran at 0.69-0.75 of their
  // predictions). The shapes are split between gemm and gemm1 by the
  // number of BLAS threads the runtime gives them: each class times only
  // its own, and together they time all of them.
  using cmmrt::plan::CostClass;
  for (bool quick : {true, false}) {
    bool column = false, row = false, large = false;
    unsigned columns = 0, rows = 0, thinInner = 0, thinCols = 0, thinRows = 0,
             outer = 0, tallBySmall = 0, tallInner = 0;
    std::vector<Observation> shapes;
    for (CostClass cost : {CostClass::Gemm, CostClass::GemmOneThread})
      for (const Observation &o : benchSizes(cost, quick)) {
        EXPECT_EQ(
            cmm::scheduling::polynomialClass(CostClass::Gemm, o.m, o.n, o.k),
            cost)
            << o.m << " x " << o.n << " x " << o.k;
        shapes.push_back(o);
      }
    EXPECT_GE(benchSizes(CostClass::GemmOneThread, quick).size(), 6u);
    for (const Observation &o : shapes) {
      if (o.n == 1 && o.m == o.k && o.m > 1)
        column = true, ++columns;
      if (o.m == 1 && o.n == o.k && o.n > 1)
        row = true, ++rows;
      // An eighth in one dimension (DFT's 1433 x 1433 by 1433 x 256 tiles
      // ran 1.4x a fit without the thin results).
      thinInner += o.m == o.n && o.k == std::floor(o.m / 8) && o.k > 1;
      thinCols += o.m == o.k && o.n == std::floor(o.m / 8) && o.n > 1;
      thinRows += o.n == o.k && o.m == std::floor(o.n / 8) && o.m > 1;
      // Outer products: their mn term was fitted as 0 without them.
      outer += o.k == 1 && o.m == o.n && o.m > 1;
      large |= o.m == 2000 && o.n == 2000 && o.k == 2000;
      // Two dimensions small (k-means' 12000 x 32 x 64 and 32 x 64 x 12000
      // ran 1.3-1.6x a fit without them), at two lengths at least.
      tallBySmall += o.m >= 2000 && o.n == 32 && o.k == 64;
      tallInner += o.m == 32 && o.n == 64 && o.k >= 2000;
    }
    EXPECT_GE(tallBySmall, 2u) << "quick=" << quick;
    EXPECT_EQ(tallInner, tallBySmall) << "quick=" << quick;
    EXPECT_TRUE(large) << "quick=" << quick;
    EXPECT_GE(outer, 2u) << "quick=" << quick;
    EXPECT_TRUE(column && row) << "quick=" << quick;
    EXPECT_GE(thinInner, 3u);
    EXPECT_EQ(thinCols, thinInner);
    EXPECT_EQ(thinRows, thinInner);
    EXPECT_GE(columns, 2u);
    EXPECT_GE(rows, 2u);
  }
}

TEST(ProfileBench, FactorizationsAreTimedAtTheShapesTheirClassesCost) {
  // Each class's (m, n, k) as the planner gives it (FactorizationCosts.h):
  // m the longer side, k = flops / (2 m n); least squares never square (a
  // square A \ B is LU, class solve), eig squares only, and tall matrices
  // for the others (a narrow panel's rate is not a square's).
  using cmmrt::plan::CostClass;
  for (bool quick : {true, false}) {
    for (CostClass cost :
         {CostClass::Qr, CostClass::Svd, CostClass::SvdVals, CostClass::Eig,
          CostClass::EigVals, CostClass::Lstsq}) {
      unsigned tall = 0, square = 0;
      for (const Observation &o : benchSizes(cost, quick)) {
        EXPECT_GE(o.m, o.n);
        tall += o.m >= 8 * o.n;
        square += o.m == o.n;
        EXPECT_EQ(o.k,
                  cmmrt::wholeTaskDepth(
                      cmmrt::factorizationFlops(cost, o.m, o.n), o.m, o.n));
      }
      bool eig = cost == CostClass::Eig || cost == CostClass::EigVals;
      EXPECT_EQ(tall == 0, eig) << costClassName(cost);
      // eig's squares go past a 32 MiB cache: a fit to 1000 predicted the
      // spectral example's eig of 2000 at two-thirds of its time.
      if (eig) {
        std::vector<Observation> sizes = benchSizes(cost, quick);
        EXPECT_TRUE(std::any_of(sizes.begin(), sizes.end(), [](auto &o) {
          return o.m == 2000 && o.n == 2000;
        })) << costClassName(cost);
      }
      EXPECT_EQ(square == 0, cost == CostClass::Lstsq) << costClassName(cost);
    }
  }
  // The hand-worked k of test/TaskGraph/tile-factorizations.mlir, class by
  // class (40 x 10, eig's 12 x 12).
  auto depth = [](CostClass cost, double m, double n) {
    return cmmrt::wholeTaskDepth(cmmrt::factorizationFlops(cost, m, n), m, n);
  };
  EXPECT_EQ(depth(CostClass::Qr, 40, 10), 18);
  EXPECT_EQ(depth(CostClass::Svd, 40, 10), 30);
  EXPECT_EQ(depth(CostClass::SvdVals, 40, 10), 18);
  EXPECT_EQ(depth(CostClass::Lstsq, 40, 10), 15);
  EXPECT_EQ(depth(CostClass::Eig, 12, 12), 54);
  EXPECT_EQ(depth(CostClass::EigVals, 12, 12), 8);
  EXPECT_EQ(cmmrt::factorizationFlops(CostClass::Gemm, 12, 12), 0);
  EXPECT_DOUBLE_EQ(cmmrt::luSolveFlops(12, 1), 1440);
}

TEST(ProfileBench, SolvesAreTimedAsInversesAndAsOneRightHandSide) {
  // An inverse's n^2 work is not an LU solve's: both are timed, each at the
  // k the tiler gives it (k = n for inv, n/3 + r for A \ b), and the fit
  // has a term to tell them apart (Leontief's 3000 solve ran at 0.8 of a
  // fit over inverses alone).
  using cmmrt::plan::CostClass;
  for (bool quick : {true, false}) {
    unsigned inverses = 0, solves = 0;
    for (const Observation &o : benchSizes(CostClass::Solve, quick)) {
      EXPECT_EQ(o.m, o.n);
      if (o.k == o.m) {
        ++inverses;
        continue;
      }
      ++solves;
      EXPECT_EQ(o.k,
                cmmrt::wholeTaskDepth(cmmrt::luSolveFlops(o.m, 1), o.m, o.m));
    }
    EXPECT_GE(inverses, 5u);
    EXPECT_GE(solves, 4u);
  }
  EXPECT_TRUE(fittedTerms(CostClass::Solve)[MK]);
  EXPECT_TRUE(fittedTerms(CostClass::Solve)[MNK]);
  TaskBench inverse(CostClass::Solve, 60, 60, 60);
  TaskBench solve(CostClass::Solve, 60, 60, 21);
  EXPECT_EQ(inverse.signature().k, 60);
  EXPECT_EQ(solve.signature().k, 21);
  EXPECT_GT(inverse.run(), 0.0);
  EXPECT_GT(solve.run(), 0.0);
}

TEST(ProfileBench, TriangularSolvesAreTimedWithFewRightHandSides) {
  // R' \ y of a Gaussian process: one column against a 1000 triangle ran
  // 0.4 ms warm, predicted 11 us by a fit over squares alone (its m n and
  // m n k are tiny; the triangle it reads is m k). Thin shapes are timed
  // and the fit has that term; k stays half the triangle.
  using cmmrt::plan::CostClass;
  for (bool quick : {true, false}) {
    unsigned squares = 0, thin = 0;
    for (const Observation &o : benchSizes(CostClass::Trsm, quick)) {
      EXPECT_EQ(o.k, std::max(1.0, std::round(o.m / 2)));
      (o.n == o.m ? squares : thin) += 1;
      if (o.n != o.m)
        EXPECT_LE(o.n, 8.0);
    }
    EXPECT_GE(squares, 5u);
    EXPECT_GE(thin, 4u);
  }
  // A quick profile's chol classes reach 1000 (fitted up to 600, POTRF
  // of 2000 came out 1.4x the full profile's).
  for (CostClass cost : {CostClass::Potrf, CostClass::Trsm, CostClass::Syrk}) {
    double largest = 0;
    for (const Observation &o : benchSizes(cost, /*quick=*/true))
      largest = std::max(largest, o.m);
    EXPECT_GE(largest, 1000.0);
  }
  EXPECT_TRUE(fittedTerms(CostClass::Trsm)[MK]);
  EXPECT_TRUE(fittedTerms(CostClass::Trsm)[MNK]);
  EXPECT_FALSE(fittedTerms(CostClass::Potrf)[MK]);
  TaskBench solve(CostClass::Trsm, 300, 1, 150);
  EXPECT_EQ(solve.signature().n, 1);
  EXPECT_GT(solve.run(), 0.0);
}

TEST(ProfileBench, CompressTimesEachRepetitionsOwnCompression) {
  // Class compress: the first product on a tile the runtime compresses.
  // Every size is one the runtime compresses (more than 2^16 elements, at
  // most kSparseDensityLimit nonzero), each repetition compresses its tile
  // anew (a SparseOperand of its own), on compressed rows.
  using cmmrt::plan::CostClass;
  for (bool quick : {true, false})
    for (const Observation &o : benchSizes(CostClass::Compress, quick)) {
      EXPECT_GE(o.m * o.n, double(cmmrt::kMinSparseElements));
      EXPECT_GE(o.k, 1.0);
      EXPECT_LE(o.k / o.n, cmmrt::kSparseDensityLimit);
    }
  EXPECT_TRUE(fittedTerms(CostClass::Compress)[MN]);
  EXPECT_TRUE(fittedTerms(CostClass::Compress)[MK]);
  EXPECT_FALSE(fittedTerms(CostClass::Compress)[MNK]);
  TaskBench bench(CostClass::Compress, 300, 400, 8);
  EXPECT_EQ(bench.signature().m, 300);
  EXPECT_EQ(bench.signature().n, 400);
  EXPECT_EQ(bench.signature().k, 8);
  cmmrt::SparseStats before = cmmrt::sparseStats();
  EXPECT_GT(bench.run(), 0.0);
  EXPECT_GT(bench.run(), 0.0);
  cmmrt::SparseStats after = cmmrt::sparseStats();
  EXPECT_EQ(after.tiles - before.tiles, 2);
  EXPECT_EQ(after.products - before.products, 2);
  // About 8 nonzeros a row of 400 (2 %): 2400 a tile, within 5 sigma.
  double perTile = double(after.nonzeros - before.nonzeros) / 2;
  EXPECT_NEAR(perTile, 2400, 5 * std::sqrt(2400.0));
}

TEST(ProfileBench, FusedKernelsAreTimedInTheGeneratedForm) {
  // Class fused: kernels of several step counts (the mnk term against the
  // pass's mn), each run through a compiled kernel as a generated
  // program's, and computing what the kernel's text says.
  using cmmrt::plan::CostClass;
  for (bool quick : {true, false}) {
    std::set<double> steps;
    for (const Observation &o : benchSizes(CostClass::Fused, quick)) {
      steps.insert(o.k);
      EXPECT_NE(fusedChainKernel(int64_t(o.k)), nullptr) << o.k;
    }
    EXPECT_GE(steps.size(), 3u);
  }
  EXPECT_TRUE(fittedTerms(CostClass::Fused)[MNK]);
  EXPECT_TRUE(fittedTerms(CostClass::Fused)[K]);
  EXPECT_EQ(fusedChainKernel(5), nullptr);
  // x0 = 2, x1 = 3 through mul, add, mul, add, ... : 8 steps by hand.
  double v = 2;
  for (int s = 0; s < 8; ++s)
    v = s % 2 ? v + 3 : v * 3;
  std::vector<double> x0(300, 2.0), x1(300, 3.0), out(300, 0.0);
  cmmrt::fused::Operand in[2] = {{x0.data(), 10, 30}, {x1.data(), 10, 30}};
  fusedChainKernel(8)(10, 30, in, out.data());
  for (double y : out)
    EXPECT_EQ(y, v);
  TaskBench bench(CostClass::Fused, 40, 50, 8);
  EXPECT_EQ(bench.signature().k, 8);
  EXPECT_GT(bench.run(), 0.0);
}

// Table 3's splits, as the runtime can run them (one worker of t threads or
// w single-threaded workers), powers of two and all the cores.
TEST(ProfileConfigurations, RunnableSplitsByHand) {
  auto pairs = [](unsigned cores) {
    std::vector<std::pair<unsigned, unsigned>> out;
    for (Split s : runnableSplits(cores))
      out.push_back({s.workers, s.threads});
    return out;
  };
  using V = std::vector<std::pair<unsigned, unsigned>>;
  EXPECT_EQ(pairs(1), (V{{1, 1}}));
  EXPECT_EQ(pairs(2), (V{{1, 1}, {1, 2}, {2, 1}}));
  EXPECT_EQ(pairs(6),
            (V{{1, 1}, {1, 2}, {1, 4}, {1, 6}, {2, 1}, {4, 1}, {6, 1}}));
  EXPECT_EQ(pairs(8),
            (V{{1, 1}, {1, 2}, {1, 4}, {1, 8}, {2, 1}, {4, 1}, {8, 1}}));
}

TEST(ProfileConfigurations, ASplitIsTimedAndTheThreadsRestored) {
  const int before = openblas_get_num_threads();
  SamplingRule rule;
  rule.minReps = rule.maxReps = 3;
  Sampled s = timeSplit({2, 1}, 64, rule, 2);
  EXPECT_EQ(s.stats.count(), 3u);
  EXPECT_GT(s.stats.mean(), 0.0);
  EXPECT_EQ(openblas_get_num_threads(), 2);
  timeSplit({1, 1}, 64, rule, 1);
  EXPECT_EQ(openblas_get_num_threads(), 1);
  openblas_set_num_threads(before);
}

static FirstTouchSample touchSample(double extraPerByte, double secondPerByte) {
  FirstTouchSample s;
  s.bytes = 1 << 20;
  s.secondSeconds = secondPerByte * s.bytes;
  s.firstSeconds = s.secondSeconds + extraPerByte * s.bytes;
  return s;
}

TEST(ProfileFirstTouch, FreshToTheHostAtTenSecondWrites) {
  // Per byte as measured here (ns): memory freed a moment ago 0.06-0.13
  // extra over a 0.03-0.05 second write; memory the host took back 1.4-2.3.
  EXPECT_FALSE(touchSample(0.13e-9, 0.038e-9).freshToHost());
  EXPECT_FALSE(touchSample(0.214e-9, 0.026e-9).freshToHost()); // straddles
  EXPECT_TRUE(touchSample(0.30e-9, 0.030e-9).freshToHost());
  EXPECT_TRUE(touchSample(2.2e-9, 0.027e-9).freshToHost());
}

TEST(ProfileFirstTouch, PricedByTheBlocksFreshToAReclaimingHost) {
  // A 2-rank profile right after a 1-rank one (ns/B, blocks in order).
  std::vector<FirstTouchSample> blocks;
  for (double extra : {0.07, 0.06, 0.10, 0.06, 0.21, 2.31, 2.29, 2.05})
    blocks.push_back(touchSample(extra * 1e-9, 0.026e-9));
  EXPECT_NEAR(firstTouchPerByte(blocks, /*hostReclaims=*/true, 1), 2.29e-9,
              1e-15);
  // Elsewhere every block counts: median of the eight.
  EXPECT_NEAR(firstTouchPerByte(blocks, /*hostReclaims=*/false, 1),
              (0.21e-9 + 0.10e-9) / 2, 1e-15);
  // Thread-seconds: populated on three task threads, three times the wall
  // time per byte.
  EXPECT_NEAR(firstTouchPerByte(blocks, /*hostReclaims=*/true, 3), 6.87e-9,
              1e-15);
  // No block fresh to the host (the probe's bound): all of them.
  blocks.resize(5);
  EXPECT_NEAR(firstTouchPerByte(blocks, /*hostReclaims=*/true, 1), 0.07e-9,
              1e-15);
  EXPECT_EQ(firstTouchPerByte({}, true, 2), 0);
  // Never below 0 (a second write slower than the first).
  EXPECT_EQ(firstTouchPerByte({touchSample(-1e-11, 0.03e-9)}, false, 2), 0);
}

TEST(ProfileFirstTouch, ABlockPartlyOfFreedMemoryIsNotFresh) {
  // A profile's seven 64 MiB blocks on 2026-12-01 (ms, first write then
  // second): four of memory freed a moment ago, two fresh, one partly
  // each, all three over ten second writes.
  std::vector<FirstTouchSample> blocks;
  for (auto [first, second] : {std::pair{7.9, 1.9},
                               {4.8, 2.1},
                               {5.0, 1.9},
                               {4.2, 1.7},
                               {46.9, 1.9},
                               {60.3, 1.9},
                               {21.1, 1.7}}) {
    FirstTouchSample s;
    s.bytes = 64 << 20;
    s.firstSeconds = first * 1e-3;
    s.secondSeconds = second * 1e-3;
    blocks.push_back(s);
  }
  EXPECT_TRUE(blocks.back().freshToHost());
  EXPECT_EQ(freshToHostSamples(blocks),
            (std::vector<bool>{false, false, false, false, true, true, false}));
  // Priced by the two fresh blocks (the median of 45.0 and 58.4 ms extra),
  // not by the partial one (then the median was 45.0).
  EXPECT_NEAR(firstTouchPerByte(blocks, /*hostReclaims=*/true, 2),
              2 * (45.0 + 58.4) / 2 * 1e-3 / (64 << 20), 1e-15);
  EXPECT_TRUE(freshToHostSamples({}).empty());
}

TEST(ProfileFirstTouch, WritesTheMinimumWithoutProbing) {
  cmmrt::trimTileMemory();
  std::vector<FirstTouchSample> blocks =
      measureFirstTouch(size_t(4) << 20, 3, 50, /*probeReclaimed=*/false);
  ASSERT_EQ(blocks.size(), 3u);
  for (const FirstTouchSample &b : blocks) {
    EXPECT_EQ(b.bytes, double(4 << 20));
    EXPECT_GT(b.firstSeconds, 0);
    EXPECT_GT(b.secondSeconds, 0);
  }
  // The blocks came from the pool, which is empty again.
  EXPECT_EQ(cmmrt::tileMemoryStats().keptBytes, 0u);
  EXPECT_EQ(cmmrt::tileMemoryStats().liveBytes, 0u);
  // Probing stops at the bound or after three blocks fresh to the host.
  blocks = measureFirstTouch(size_t(4) << 20, 2, 6, /*probeReclaimed=*/true);
  ASSERT_GE(blocks.size(), 2u);
  ASSERT_LE(blocks.size(), 6u);
  if (blocks.size() < 6)
    for (size_t i = blocks.size() - kReclaimedBlocks; i < blocks.size(); ++i)
      EXPECT_TRUE(blocks[i].freshToHost()) << i;
}
