//===- VectorMathTest.cpp - SLEEF's functions against references ----------===//
//
// exp, log, sin, cos and tanh of cmmrt::vectorMap on every vector unit this
// CPU has: within 1 ULP of the long double result of glibc (an independent
// oracle about 2^-11 ULP more precise), the special values exactly as C99
// Annex F gives them, and the same bits for an element whatever its place
// in the array (the padded last vector takes the same code path).
//
//===----------------------------------------------------------------------===//

#include "cmmrt/VectorMath.h"
#include "cmmrt/Kernels.h"

#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

using namespace cmmrt;

namespace {

const MapFn kFunctions[] = {MapFn::Exp, MapFn::Log, MapFn::Sin, MapFn::Cos,
                            MapFn::Tanh};
const VectorIsa kUnits[] = {VectorIsa::Sse2, VectorIsa::Avx, VectorIsa::Avx512};

const char *name(MapFn fn) {
  switch (fn) {
  case MapFn::Exp:
    return "exp";
  case MapFn::Log:
    return "log";
  case MapFn::Sin:
    return "sin";
  case MapFn::Cos:
    return "cos";
  case MapFn::Tanh:
    return "tanh";
  default:
    return "?";
  }
}

long double reference(MapFn fn, double x) {
  switch (fn) {
  case MapFn::Exp:
    return expl(x);
  case MapFn::Log:
    return logl(x);
  case MapFn::Sin:
    return sinl(x);
  case MapFn::Cos:
    return cosl(x);
  case MapFn::Tanh:
    return tanhl(x);
  default:
    return NAN;
  }
}

/// |y - exact| in units of the last place of the double nearest `exact`
/// (the spacing of subnormals below DBL_MIN).
double ulpError(double y, long double exact) {
  double nearest = static_cast<double>(exact);
  double magnitude = std::fabs(nearest);
  double ulp = magnitude < DBL_MIN
                   ? std::numeric_limits<double>::denorm_min()
                   : std::nextafter(magnitude, INFINITY) - magnitude;
  return static_cast<double>(std::fabs(static_cast<long double>(y) - exact) /
                             ulp);
}

bool sameBits(double a, double b) { return std::memcmp(&a, &b, 8) == 0; }

/// Arguments across each function's range: tiny, subnormal, around the
/// interesting points, large (sin and cos of 1e300 need the full argument
/// reduction), and random ones.
std::vector<double> finiteArguments(MapFn fn) {
  std::vector<double> xs = {0.5,     1.0,    2.0,     3.0,    1e-8,  1e-300,
                            DBL_MIN, 5e-324, 1e-310,  0.1,    0.7,   1.5,
                            10.0,    19.0,   22.0,    100.0,  1e5,   1e10,
                            1e22,    1e300,  DBL_MAX, 700.0,  709.7, -708.0,
                            -745.0,  M_PI,   M_PI_2,  M_PI_4, 1e-20, 0.25};
  std::mt19937_64 random(42);
  std::uniform_real_distribution<double> unit(-1, 1);
  for (int i = 0; i < 2000; ++i) {
    double scale = std::pow(10.0, unit(random) * 6); // 1e-6 .. 1e6
    xs.push_back(unit(random) * scale);
  }
  std::vector<double> out;
  for (double x : xs)
    for (double v : {x, -x}) {
      if (fn == MapFn::Log && v <= 0)
        continue; // log of a negative number is NaN (special values)
      if (fn == MapFn::Exp && (v > 709.78 || v < -745.1))
        continue; // overflow and underflow (special values)
      out.push_back(v);
    }
  return out;
}

TEST(VectorMath, EveryUnitIsWithinOneUlpOfTheLongDoubleResult) {
  for (VectorIsa isa : kUnits) {
    if (!cpuSupports(isa))
      continue;
    for (MapFn fn : kFunctions) {
      std::vector<double> xs = finiteArguments(fn), ys(xs.size());
      vectorMap(fn, xs.data(), ys.data(), xs.size(), isa);
      double worst = 0;
      for (size_t i = 0; i < xs.size(); ++i) {
        double error = ulpError(ys[i], reference(fn, xs[i]));
        worst = std::max(worst, error);
        EXPECT_LE(error, 1.0) << vectorIsaName(isa) << " " << name(fn) << "("
                              << xs[i] << ") = " << ys[i];
      }
      // And within 2 ULP of glibc's double function (each within 1).
      for (size_t i = 0; i < xs.size(); ++i) {
        double glibc = static_cast<double>(reference(fn, xs[i]));
        EXPECT_LE(ulpError(ys[i], glibc), 2.0)
            << name(fn) << "(" << xs[i] << ")";
      }
    }
  }
}

TEST(VectorMath, SpecialValuesAreTheC99Ones) {
  const double inf = INFINITY, nan = NAN;
  struct Case {
    MapFn fn;
    double x, expected;
  } cases[] = {
      {MapFn::Exp, 0.0, 1.0},        {MapFn::Exp, -0.0, 1.0},
      {MapFn::Exp, inf, inf},        {MapFn::Exp, -inf, 0.0},
      {MapFn::Exp, 710.0, inf},      {MapFn::Exp, -750.0, 0.0},
      {MapFn::Exp, nan, nan},        {MapFn::Log, 1.0, 0.0},
      {MapFn::Log, 0.0, -inf},       {MapFn::Log, -0.0, -inf},
      {MapFn::Log, inf, inf},        {MapFn::Log, -1.0, nan},
      {MapFn::Log, -inf, nan},       {MapFn::Log, nan, nan},
      {MapFn::Sin, 0.0, 0.0},        {MapFn::Sin, -0.0, -0.0},
      {MapFn::Sin, inf, nan},        {MapFn::Sin, -inf, nan},
      {MapFn::Sin, nan, nan},        {MapFn::Cos, 0.0, 1.0},
      {MapFn::Cos, -0.0, 1.0},       {MapFn::Cos, inf, nan},
      {MapFn::Cos, nan, nan},        {MapFn::Tanh, 0.0, 0.0},
      {MapFn::Tanh, -0.0, -0.0},     {MapFn::Tanh, inf, 1.0},
      {MapFn::Tanh, -inf, -1.0},     {MapFn::Tanh, 40.0, 1.0},
      {MapFn::Tanh, -40.0, -1.0},    {MapFn::Tanh, nan, nan},
      {MapFn::Tanh, 5e-324, 5e-324}, {MapFn::Sin, -5e-324, -5e-324},
  };
  for (VectorIsa isa : kUnits) {
    if (!cpuSupports(isa))
      continue;
    for (const Case &c : cases) {
      double y;
      vectorMap(c.fn, &c.x, &y, 1, isa);
      if (std::isnan(c.expected))
        EXPECT_TRUE(std::isnan(y)) << name(c.fn) << "(" << c.x << ")";
      else
        EXPECT_TRUE(sameBits(y, c.expected))
            << vectorIsaName(isa) << " " << name(c.fn) << "(" << c.x
            << ") = " << y << ", expected " << c.expected;
    }
  }
}

TEST(VectorMath, AnElementHasTheSameBitsWhereverItSits) {
  std::mt19937_64 random(7);
  std::normal_distribution<double> normal(0, 3);
  std::vector<double> xs(1003);
  for (double &x : xs)
    x = normal(random);
  for (MapFn fn : kFunctions) {
    std::vector<double> ys(xs.size());
    std::vector<double> in = xs;
    if (fn == MapFn::Log)
      for (double &x : in)
        x = std::fabs(x);
    vectorMap(fn, in.data(), ys.data(), in.size());
    for (size_t i = 0; i < in.size(); ++i) {
      // Alone (the padded path), through the scalar entry point, and in
      // place inside a matrix.
      double alone;
      vectorMap(fn, &in[i], &alone, 1);
      EXPECT_TRUE(sameBits(alone, ys[i])) << name(fn) << "(" << in[i] << ")";
      EXPECT_TRUE(sameBits(applyMap(fn, in[i]), ys[i]));
    }
    Matrix m(1, static_cast<int64_t>(in.size()));
    std::copy(in.begin(), in.end(), m.data());
    mapInPlace(fn, m);
    EXPECT_EQ(0, std::memcmp(m.data(), ys.data(), 8 * ys.size())) << name(fn);
  }
}

TEST(VectorMath, CmmVectorIsaLowersTheChoiceButNeverRaisesIt) {
  EXPECT_EQ(chooseVectorIsa(VectorIsa::Avx512, nullptr), VectorIsa::Avx512);
  EXPECT_EQ(chooseVectorIsa(VectorIsa::Avx512, "avx"), VectorIsa::Avx);
  EXPECT_EQ(chooseVectorIsa(VectorIsa::Avx512, "sse2"), VectorIsa::Sse2);
  EXPECT_EQ(chooseVectorIsa(VectorIsa::Avx, "avx512"), VectorIsa::Avx);
  EXPECT_EQ(chooseVectorIsa(VectorIsa::Sse2, "avx"), VectorIsa::Sse2);
  EXPECT_EQ(chooseVectorIsa(VectorIsa::Avx, "neon"), VectorIsa::Avx);
}

TEST(VectorMath, TheChosenUnitIsOneTheCpuHas) {
  EXPECT_TRUE(cpuSupports(vectorIsa()));
  EXPECT_TRUE(cpuSupports(VectorIsa::Sse2));
  EXPECT_TRUE(isVectorMathFunction(MapFn::Tanh));
  EXPECT_FALSE(isVectorMathFunction(MapFn::Sqrt));
  EXPECT_FALSE(isVectorMathFunction(MapFn::Round));
}

} // namespace
