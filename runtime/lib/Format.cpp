//===- Format.cpp - The output of print -------------------------*- C++ -*-===//

#include "cmmrt/Format.h"

#include <cmath>
#include <cstdio>
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

double cmmrt::sumOf(const double *x, int64_t n) {
  if (n <= 128) {
    // Four running sums: the additions no longer wait on each other, and
    // the error is no worse than one running sum's.
    double s[4] = {0, 0, 0, 0};
    int64_t i = 0;
    for (; i + 4 <= n; i += 4)
      for (int l = 0; l < 4; ++l)
        s[l] += x[i + l];
    for (; i < n; ++i)
      s[0] += x[i];
    return (s[0] + s[1]) + (s[2] + s[3]);
  }
  int64_t half = n / 2;
  return sumOf(x, half) + sumOf(x + half, n - half);
}

double cmmrt::sumOf(const Matrix &m) { return sumOf(m.data(), m.size()); }

double cmmrt::frobeniusNorm(const Matrix &m) {
  // Scaled accumulation (as LAPACK's dlassq) so that huge or tiny elements
  // neither overflow nor underflow.
  // NaN anywhere gives NaN, else Inf anywhere gives Inf (as NumPy).
  double scale = 0, ssq = 1;
  bool sawInf = false;
  for (double x : m.values()) {
    if (std::isnan(x))
      return x;
    double a = std::fabs(x);
    if (a == 0)
      continue;
    if (std::isinf(a)) {
      sawInf = true;
      continue;
    }
    if (scale < a) {
      ssq = 1 + ssq * (scale / a) * (scale / a);
      scale = a;
    } else {
      ssq += (a / scale) * (a / scale);
    }
  }
  if (sawInf)
    return INFINITY;
  return scale * std::sqrt(ssq);
}

std::string cmmrt::formatSummary(const std::string &label, const Matrix &m) {
  int64_t shown = m.cols() < 4 ? m.cols() : 4;
  std::vector<double> firstRow(m.data(), m.data() + shown);
  return formatSummary(label, m.rows(), m.cols(), sumOf(m), frobeniusNorm(m),
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

std::string cmmrt::formatScalar(const std::string &label, double v) {
  return label + " = " + formatNumber(v);
}
