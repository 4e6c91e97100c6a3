//===- Fit.cpp - Least-squares fits of Table 1 polynomials ----------------===//

#include "cmm/Profile/Fit.h"

#include <algorithm>
#include <cmath>
#include <set>

using namespace cmm::profile;

Terms cmm::profile::terms(std::initializer_list<Monomial> used) {
  Terms t;
  for (Monomial m : used)
    t.set(m);
  return t;
}

static double monomial(unsigned term, const Observation &o) {
  switch (term) {
  case One:
    return 1;
  case M:
    return o.m;
  case N:
    return o.n;
  case K:
    return o.k;
  case MN:
    return o.m * o.n;
  case MK:
    return o.m * o.k;
  case NK:
    return o.n * o.k;
  default:
    return o.m * o.n * o.k;
  }
}

/// Least squares on the columns `cols` of A (column-major, `rows` rows), by
/// Householder QR; the solution in those columns' positions of a vector of
/// A's width. Columns are scaled to unit norm first (the monomials span
/// twenty orders of magnitude).
static std::vector<double> leastSquares(const std::vector<double> &a,
                                        unsigned rows, unsigned width,
                                        const std::vector<unsigned> &cols,
                                        const std::vector<double> &b) {
  unsigned p = cols.size();
  std::vector<double> q(size_t(rows) * p), rhs = b, scale(p, 1.0);
  for (unsigned j = 0; j < p; ++j) {
    double norm = 0;
    for (unsigned i = 0; i < rows; ++i)
      norm += a[size_t(cols[j]) * rows + i] * a[size_t(cols[j]) * rows + i];
    scale[j] = norm > 0 ? 1 / std::sqrt(norm) : 1.0;
    for (unsigned i = 0; i < rows; ++i)
      q[size_t(j) * rows + i] = a[size_t(cols[j]) * rows + i] * scale[j];
  }
  // Householder reflections, applied to the right-hand side as they go.
  unsigned steps = std::min(rows, p);
  for (unsigned j = 0; j < steps; ++j) {
    double *col = &q[size_t(j) * rows];
    double norm = 0;
    for (unsigned i = j; i < rows; ++i)
      norm += col[i] * col[i];
    norm = std::sqrt(norm);
    if (norm == 0)
      continue;
    double alpha = col[j] > 0 ? -norm : norm;
    std::vector<double> v(col + j, col + rows);
    v[0] -= alpha;
    double vv = 0;
    for (double x : v)
      vv += x * x;
    if (vv == 0)
      continue;
    auto reflect = [&](double *y) {
      double dot = 0;
      for (unsigned i = j; i < rows; ++i)
        dot += v[i - j] * y[i];
      double f = 2 * dot / vv;
      for (unsigned i = j; i < rows; ++i)
        y[i] -= f * v[i - j];
    };
    for (unsigned c = j; c < p; ++c)
      reflect(&q[size_t(c) * rows]);
    reflect(rhs.data());
  }
  // Back substitution; a (numerically) dependent column gets 0.
  std::vector<double> x(p, 0.0);
  for (int j = int(steps) - 1; j >= 0; --j) {
    double diag = q[size_t(j) * rows + j];
    if (std::fabs(diag) < 1e-12)
      continue;
    double s = rhs[j];
    for (unsigned c = j + 1; c < p; ++c)
      s -= q[size_t(c) * rows + j] * x[c];
    x[j] = s / diag;
  }
  std::vector<double> out(width, 0.0);
  for (unsigned j = 0; j < p; ++j)
    out[cols[j]] = x[j] * scale[j];
  return out;
}

std::vector<double>
cmm::profile::nonNegativeLeastSquares(const std::vector<double> &a,
                                      unsigned rows, unsigned cols,
                                      const std::vector<double> &b) {
  std::vector<double> x(cols, 0.0);
  std::vector<bool> passive(cols, false);
  auto gradient = [&] {
    std::vector<double> r = b;
    for (unsigned j = 0; j < cols; ++j)
      for (unsigned i = 0; i < rows; ++i)
        r[i] -= a[size_t(j) * rows + i] * x[j];
    std::vector<double> w(cols, 0.0);
    for (unsigned j = 0; j < cols; ++j)
      for (unsigned i = 0; i < rows; ++i)
        w[j] += a[size_t(j) * rows + i] * r[i];
    return w;
  };
  // Column norms make the optimality test scale-free.
  std::vector<double> norms(cols, 0.0);
  for (unsigned j = 0; j < cols; ++j) {
    for (unsigned i = 0; i < rows; ++i)
      norms[j] += a[size_t(j) * rows + i] * a[size_t(j) * rows + i];
    norms[j] = std::sqrt(norms[j]);
  }
  double bNorm = 0;
  for (double v : b)
    bNorm += v * v;
  double tolerance = 1e-10 * std::sqrt(bNorm);
  for (unsigned outer = 0; outer < 3 * cols + 3; ++outer) {
    std::vector<double> w = gradient();
    int enter = -1;
    double best = tolerance;
    for (unsigned j = 0; j < cols; ++j)
      if (!passive[j] && norms[j] > 0 && w[j] / norms[j] > best) {
        best = w[j] / norms[j];
        enter = j;
      }
    if (enter < 0)
      break;
    passive[enter] = true;
    for (unsigned inner = 0; inner <= cols; ++inner) {
      std::vector<unsigned> set;
      for (unsigned j = 0; j < cols; ++j)
        if (passive[j])
          set.push_back(j);
      std::vector<double> z = leastSquares(a, rows, cols, set, b);
      bool feasible = true;
      for (unsigned j : set)
        feasible &= z[j] > 0;
      if (feasible) {
        x = z;
        break;
      }
      // Step from x towards z as far as every coefficient stays >= 0, and
      // make the ones that reach 0 active again.
      double alpha = 1;
      unsigned blocking = set.front();
      for (unsigned j : set)
        if (z[j] <= 0 && x[j] / (x[j] - z[j]) < alpha) {
          alpha = x[j] / (x[j] - z[j]);
          blocking = j;
        }
      for (unsigned j : set) {
        x[j] += alpha * (z[j] - x[j]);
        if (j == blocking || x[j] <= 1e-14 * std::fabs(z[j] - x[j])) {
          x[j] = 0;
          passive[j] = false;
        }
      }
    }
  }
  return x;
}

PolynomialFit
cmm::profile::fitTimePolynomial(const std::vector<Observation> &points,
                                Terms use, bool roofline) {
  std::vector<Observation> kept;
  for (const Observation &o : points)
    if (o.seconds > 0 && std::isfinite(o.seconds))
      kept.push_back(o);
  PolynomialFit fit;
  fit.points = kept.size();
  if (kept.empty())
    return fit;
  // A monomial proportional to an earlier one over the points (e.g. k when
  // every k is 1, which is the constant's column) cannot be told apart from
  // it: keep the lowest.
  std::vector<unsigned> cols;
  for (unsigned t = 0; t < 8; ++t) {
    if (!use.test(t))
      continue;
    bool separate = true;
    for (unsigned c : cols) {
      // Proportional over every point: the same column up to scale.
      double ratio = monomial(t, kept[0]) / monomial(c, kept[0]);
      bool proportional = true;
      for (const Observation &o : kept)
        proportional &= std::fabs(monomial(t, o) / monomial(c, o) - ratio) <=
                        1e-12 * std::fabs(ratio);
      separate &= !proportional;
    }
    if (separate)
      cols.push_back(t);
  }
  unsigned rows = kept.size(), width = cols.size();
  // side[i]: 0 both terms count (a sum), 1 the mn term alone, 2 mnk alone.
  std::vector<int> side(rows, 0);
  auto solve = [&] {
    std::vector<double> a(size_t(rows) * width), b(rows, 1.0);
    for (unsigned j = 0; j < width; ++j)
      for (unsigned i = 0; i < rows; ++i) {
        bool dropped =
            (cols[j] == MN && side[i] == 2) || (cols[j] == MNK && side[i] == 1);
        a[size_t(j) * rows + i] =
            dropped ? 0 : monomial(cols[j], kept[i]) / kept[i].seconds;
      }
    std::vector<double> x = nonNegativeLeastSquares(a, rows, width, b);
    fit.poly = {};
    for (unsigned j = 0; j < width; ++j)
      fit.poly.a[cols[j]] = x[j];
  };
  auto errors = [&](const scheduling::TimePolynomial &p, double &rms,
                    double &worst) {
    double sum = 0;
    worst = 0;
    for (const Observation &o : kept) {
      double rel =
          (roofline ? p.evalRoofline(o.m, o.n, o.k) : p.eval(o.m, o.n, o.k)) /
              o.seconds -
          1;
      sum += rel * rel;
      worst = std::max(worst, std::fabs(rel));
    }
    rms = std::sqrt(sum / rows);
  };
  solve();
  errors(fit.poly, fit.rmsRelativeError, fit.maxRelativeError);
  // The sides can cycle (two assignments, each the other's refit), and a
  // side left empty takes its term out for good: the best iterate is kept,
  // and the rounds stop at an assignment seen before or one-sided.
  PolynomialFit best = fit;
  std::set<std::vector<int>> seen{side};
  for (int round = 0; roofline && round < 20; ++round) {
    bool hasPass = false, hasSteps = false;
    for (unsigned i = 0; i < rows; ++i) {
      const Observation &o = kept[i];
      side[i] = fit.poly.a[MN] * o.m * o.n >= fit.poly.a[MNK] * o.m * o.n * o.k
                    ? 1
                    : 2;
      hasPass |= side[i] == 1;
      hasSteps |= side[i] == 2;
    }
    if (!hasPass || !hasSteps || !seen.insert(side).second)
      break;
    solve();
    errors(fit.poly, fit.rmsRelativeError, fit.maxRelativeError);
    if (fit.rmsRelativeError < best.rmsRelativeError)
      best = fit;
  }
  return best;
}
