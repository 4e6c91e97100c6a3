//===- Format.h - The output of print ---------------------------*- C++ -*-===//
//
// `print(A)` writes one line (docs/language.md, "Output"):
//   label RxC sum=S norm=F [a b c d ...]
// numbers with 6 significant digits (%.6g), NaN as `NaN`, infinities as
// `Inf` and `-Inf`; the bracket holds up to the first 4 elements of the first
// row, followed by `...` when the row has more. A compile-time scalar prints
// as `label = v`.
//
//===----------------------------------------------------------------------===//

#ifndef CMMRT_FORMAT_H
#define CMMRT_FORMAT_H

#include "cmmrt/Matrix.h"

#include <string>
#include <vector>

namespace cmmrt {

/// A number with 6 significant digits, `NaN`, `Inf` or `-Inf`.
std::string formatNumber(double v);

/// Pairwise sum of all elements (as NumPy does), and the Frobenius norm.
double sumOf(const Matrix &m);
double sumOf(const double *x, int64_t n);
double frobeniusNorm(const Matrix &m);
/// Both in one pass over `m`, on the task's threads (cmmrt/RowBands.h): the
/// sum is sumOf's, bit for bit, and both are the same bits on any number
/// of threads.
struct SumAndNorm {
  double sum, norm;
};
SumAndNorm sumAndNorm(const Matrix &m);

/// The summary line of `print(A)`, without a newline.
std::string formatSummary(const std::string &label, const Matrix &m);
/// The same line from its parts (the first row's first elements, at most 4),
/// for a matrix held as tiles.
std::string formatSummary(const std::string &label, int64_t rows, int64_t cols,
                          double sum, double norm,
                          const std::vector<double> &firstRow);

/// Most elements `display(A)` writes (docs/language.md §14.6): the front
/// end's error and cmm.print's verifier.
constexpr int64_t kMaxDisplayElements = 1000;

/// What `display(A)` writes, without the last newline: the summary line,
/// then each row on a line of its own, its elements as the summary shows
/// them, separated by spaces.
std::string formatDisplay(const std::string &label, const Matrix &m);

/// The line of `print(s)` for a compile-time scalar, without a newline.
std::string formatScalar(const std::string &label, double v);

} // namespace cmmrt

#endif // CMMRT_FORMAT_H
