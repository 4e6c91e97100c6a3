//===- IntegerProducts.cpp - Exact products of small integers -------------===//

#include "cmmrt/IntegerProducts.h"

#include "cmmrt/RowBands.h"
#include "cmmrt/TileMemory.h"

#include <algorithm>
#include <atomic>
#include <cblas.h>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <mutex>

using namespace cmmrt;

namespace {
/// A float copy of a matrix in tile memory.
class FloatBuffer {
public:
  explicit FloatBuffer(size_t count)
      : data_(static_cast<float *>(allocateTileMemory(count * sizeof(float)))),
        bytes_(count * sizeof(float)) {}
  ~FloatBuffer() { releaseTileMemory(data_, bytes_); }
  FloatBuffer(const FloatBuffer &) = delete;
  FloatBuffer &operator=(const FloatBuffer &) = delete;
  float *data() { return data_; }

private:
  float *data_;
  size_t bytes_;
};

/// Whether x is not an integer that float holds exactly, or is -0 (a sum of
/// -0 terms is -0, of anything else +0: kept out rather than reasoned
/// about); NaN and infinities are not. Without a branch: on random 0/1
/// matrices a short-circuit test mispredicted about every other element,
/// and converting a 1000 x 1000 operand took longer than its sgemm (a
/// product of two ran slower than dgemm).
inline bool notSmallInteger(double x) {
  const double a = std::fabs(x);
  // In [0, 2^24] whatever x is (NaN too), so the int conversion is defined.
  const double clamped =
      a < kFloatExactIntegerLimit ? a : kFloatExactIntegerLimit;
  const bool integral = double(int32_t(clamped)) == clamped;
  uint64_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  const bool negativeZero = bits == 0x8000000000000000ull;
  return !(a <= kFloatExactIntegerLimit) | !integral | negativeZero;
}

bool isSmallInteger(double x) { return !notSmallInteger(x); }

/// Converts `m` to `out` (if given) while checking that every element is a
/// small integer; returns the largest magnitude, or -1 at the first element
/// that is not one. Bands of rows run on the task's threads.
double convertIntegers(const Matrix &m, float *out) {
  std::atomic<bool> failed{false};
  std::mutex mutex;
  double largest = 0;
  const int64_t cols = m.cols();
  forEachRowBand(m.rows(), cols, [&](int64_t first, int64_t end) {
    double bandLargest = 0;
    const double *in = m.data() + first * cols;
    for (int64_t row = 0; row < end - first; ++row) {
      if (failed.load(std::memory_order_relaxed))
        return;
      const double *r = in + row * cols;
      bool bad = false;
      if (out) {
        float *o = out + (first + row) * cols;
        for (int64_t j = 0; j < cols; ++j) {
          bad |= notSmallInteger(r[j]);
          bandLargest = std::max(bandLargest, std::fabs(r[j]));
          o[j] = static_cast<float>(r[j]);
        }
      } else {
        for (int64_t j = 0; j < cols; ++j) {
          bad |= notSmallInteger(r[j]);
          bandLargest = std::max(bandLargest, std::fabs(r[j]));
        }
      }
      if (bad) { // a row at a time: the first element that is not stops it
        failed.store(true, std::memory_order_relaxed);
        return;
      }
    }
    std::lock_guard<std::mutex> lock(mutex);
    largest = std::max(largest, bandLargest);
  });
  return failed ? -1.0 : largest;
}

} // namespace

bool cmmrt::isExactInSingle(const Matrix &a, const Matrix &b, bool transposeA) {
  int64_t k = transposeA ? a.rows() : a.cols(),
          m = transposeA ? a.cols() : a.rows(),
          n = b.size() / std::max<int64_t>(1, k);
  if (!largeEnoughForSingle(m, n, k))
    return false;
  double maxA = convertIntegers(a, nullptr);
  return maxA >= 0 &&
         singlePrecisionIsExact(m, n, k, maxA, convertIntegers(b, nullptr));
}

bool cmmrt::multiplyAddExactInSingle(const Matrix &a, const Matrix &b,
                                     double beta, Matrix &c, bool transposeA,
                                     bool transposeB) {
  const int64_t m = c.rows(), n = c.cols(),
                k = transposeA ? a.rows() : a.cols();
  if (!largeEnoughForSingle(m, n, k) || (beta != 0.0 && beta != 1.0))
    return false;
  // Most products are of non-integers: turned away at their first element,
  // before a float copy is set aside (mapped, for large operands).
  if (!isSmallInteger(a.data()[0]) || !isSmallInteger(b.data()[0]))
    return false;
  FloatBuffer a32(size_t(a.size()));
  double maxA = convertIntegers(a, a32.data());
  if (maxA < 0)
    return false;
  const bool same = a.data() == b.data();
  FloatBuffer b32(same ? 0 : size_t(b.size()));
  double maxB = same ? maxA : convertIntegers(b, b32.data());
  if (!singlePrecisionIsExact(m, n, k, maxA, maxB))
    return false;
  FloatBuffer c32(size_t(c.size()));
  cblas_sgemm(CblasRowMajor, transposeA ? CblasTrans : CblasNoTrans,
              transposeB ? CblasTrans : CblasNoTrans, int(m), int(n), int(k),
              1.0f, a32.data(), int(a.cols()), same ? a32.data() : b32.data(),
              int(b.cols()), 0.0f, c32.data(), int(n));
  const float *p = c32.data();
  double *out = c.data();
  forEachRowBand(m, n, [&](int64_t first, int64_t end) {
    for (int64_t i = first * n; i < end * n; ++i)
      out[i] = beta == 0.0 ? double(p[i]) : out[i] + double(p[i]);
  });
  return true;
}
