//===- Format.cpp - The output of print -------------------------*- C++ -*-===//

#include "cmmrt/Format.h"
#include "cmmrt/RowBands.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

using namespace cmmrt;

std::string cmmrt::formatNumber(double v) {
  if (std::isnan(v))
    return "NaN";
  if (std::isinf(v))
    return v > 0 ? "Inf" : "-Inf";
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.6g", v);
  return buf;
}

namespace {
/// One pass's partial results over a range: its pairwise sum and (when
/// asked for) its sum of squares.
struct Partial {
  double sum, squares;
};

Partial combine(const Partial &left, const Partial &right) {
  return {left.sum + right.sum, left.squares + right.squares};
}

/// A leaf of the recursion (n <= 128): four running sums, so the additions
/// no longer wait on each other and the error is no worse than one running
/// sum's (lane l adds elements l, l + 4, ...), held as two vectors of two
/// (GCC 12 made the scalar spelling 1.5x slower); the squares likewise.
typedef double Pair __attribute__((vector_size(16)));

template <bool Squares> Partial leaf(const double *x, int64_t n) {
  Pair s01 = {0, 0}, s23 = {0, 0}, q01 = {0, 0}, q23 = {0, 0};
  int64_t i = 0;
  for (; i + 4 <= n; i += 4) {
    Pair lo, hi;
    std::memcpy(&lo, x + i, sizeof lo);
    std::memcpy(&hi, x + i + 2, sizeof hi);
    s01 += lo;
    s23 += hi;
    if (Squares) {
      q01 += lo * lo;
      q23 += hi * hi;
    }
  }
  double s0 = s01[0], q0 = q01[0];
  for (; i < n; ++i) {
    s0 += x[i];
    if (Squares)
      q0 += x[i] * x[i];
  }
  return {(s0 + s01[1]) + (s23[0] + s23[1]), (q0 + q01[1]) + (q23[0] + q23[1])};
}

/// Pairwise summation (as NumPy): halves down to leaves of at most 128.
/// With or without the squares, the sum is the same bits.
template <bool Squares> Partial pairwise(const double *x, int64_t n) {
  if (n <= 128)
    return leaf<Squares>(x, n);
  // Left half first: as arguments of combine(), GCC ran the right half
  // first, walking memory backwards in 1 KiB leaves at 1/6 the speed.
  int64_t half = n / 2;
  Partial left = pairwise<Squares>(x, half);
  return combine(left, pairwise<Squares>(x + half, n - half));
}
} // namespace

double cmmrt::sumOf(const double *x, int64_t n) {
  return pairwise<false>(x, n).sum;
}

double cmmrt::sumOf(const Matrix &m) { return sumOf(m.data(), m.size()); }

namespace {
/// The recursion's subtrees `levels` halvings down run as bands of the
/// task's threads; they are combined in the recursion's order, so the
/// result is the same bits on any number of threads (and the sum is
/// sumOf's).
Partial pairwiseOnTaskThreads(const double *x, int64_t n) {
  constexpr int levels = 4;
  if (n < kMinBandedElements)
    return pairwise<true>(x, n);
  std::vector<std::pair<const double *, int64_t>> parts = {{x, n}};
  for (int level = 0; level < levels; ++level) {
    std::vector<std::pair<const double *, int64_t>> halves;
    for (auto [at, count] : parts) {
      int64_t half = count / 2;
      halves.push_back({at, half});
      halves.push_back({at + half, count - half});
    }
    parts = std::move(halves);
  }
  std::vector<Partial> results(parts.size());
  forEachRowBand(int64_t(parts.size()), n / int64_t(parts.size()),
                 [&](int64_t first, int64_t end) {
                   for (int64_t p = first; p < end; ++p)
                     results[p] =
                         pairwise<true>(parts[p].first, parts[p].second);
                 });
  while (results.size() > 1) {
    std::vector<Partial> up;
    for (size_t i = 0; i < results.size(); i += 2)
      up.push_back(combine(results[i], results[i + 1]));
    results = std::move(up);
  }
  return results.front();
}

/// The Frobenius norm by scaled accumulation (as LAPACK's dlassq), so that
/// huge or tiny elements neither overflow nor underflow; for elements that
/// are not NaN.
double scaledNorm(const double *x, int64_t n) {
  double scale = 0, ssq = 1;
  for (int64_t i = 0; i < n; ++i) {
    double a = std::fabs(x[i]);
    if (a == 0)
      continue;
    if (std::isinf(a))
      return INFINITY;
    if (scale < a) {
      ssq = 1 + ssq * (scale / a) * (scale / a);
      scale = a;
    } else {
      ssq += (a / scale) * (a / scale);
    }
  }
  return scale * std::sqrt(ssq);
}

/// The norm from one pass's partials: NaN anywhere gives NaN (its square
/// makes the squares NaN), else Inf anywhere gives Inf (as NumPy). A sum
/// of squares that is finite and at least 2^-900 is the norm's square: no
/// square overflowed, and those that underflowed (elements below 2^-511)
/// add at most 2^-1075 each, below 2^-175 of it per element. Otherwise
/// (overflow, an Inf, all squares tiny) the elements are rescaled.
double normOf(const Partial &p, const double *x, int64_t n) {
  if (std::isnan(p.squares))
    return p.squares;
  if (std::isfinite(p.squares) && p.squares >= 0x1p-900)
    return std::sqrt(p.squares);
  return scaledNorm(x, n);
}
} // namespace

SumAndNorm cmmrt::sumAndNorm(const Matrix &m) {
  Partial p = pairwiseOnTaskThreads(m.data(), m.size());
  return {p.sum, normOf(p, m.data(), m.size())};
}

double cmmrt::frobeniusNorm(const Matrix &m) { return sumAndNorm(m).norm; }

std::string cmmrt::formatSummary(const std::string &label, const Matrix &m) {
  int64_t shown = m.cols() < 4 ? m.cols() : 4;
  std::vector<double> firstRow(m.data(), m.data() + shown);
  SumAndNorm whole = sumAndNorm(m);
  return formatSummary(label, m.rows(), m.cols(), whole.sum, whole.norm,
                       firstRow);
}

std::string cmmrt::formatSummary(const std::string &label, int64_t rows,
                                 int64_t cols, double sum, double norm,
                                 const std::vector<double> &firstRow) {
  std::string s = label + " " + std::to_string(rows) + "x" +
                  std::to_string(cols) + " sum=" + formatNumber(sum) +
                  " norm=" + formatNumber(norm) + " [";
  for (size_t j = 0; j < firstRow.size(); ++j) {
    if (j)
      s += " ";
    s += formatNumber(firstRow[j]);
  }
  if (cols > int64_t(firstRow.size()))
    s += " ...";
  return s + "]";
}

std::string cmmrt::formatDisplay(const std::string &label, const Matrix &m) {
  std::string s = formatSummary(label, m);
  for (int64_t i = 0; i < m.rows(); ++i) {
    s += "\n";
    for (int64_t j = 0; j < m.cols(); ++j) {
      if (j)
        s += " ";
      s += formatNumber(m(i, j));
    }
  }
  return s;
}

std::string cmmrt::formatScalar(const std::string &label, double v) {
  return label + " = " + formatNumber(v);
}
