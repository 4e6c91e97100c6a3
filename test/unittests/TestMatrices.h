//===- TestMatrices.h - Small matrices and oracles for unit tests -*- C++
//-*-===//
//
// What the runtime's unit tests build their cases from: matrices written
// out by hand, normal random ones, and the plain-loop product and
// transpose they are checked against (not the BLAS under test).
//
//===----------------------------------------------------------------------===//

#ifndef CMM_TEST_UNITTESTS_TESTMATRICES_H
#define CMM_TEST_UNITTESTS_TESTMATRICES_H

#include "cmmrt/Matrix.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <initializer_list>
#include <random>

namespace cmmrt::test {

/// An r x c matrix of `v`, row by row.
inline Matrix make(int64_t r, int64_t c, std::initializer_list<double> v) {
  Matrix m(r, c);
  std::copy(v.begin(), v.end(), m.data());
  return m;
}

/// Element-wise |a - b| <= tol, same shape.
inline void expectNear(const Matrix &a, const Matrix &b, double tol = 1e-12) {
  ASSERT_EQ(a.rows(), b.rows());
  ASSERT_EQ(a.cols(), b.cols());
  for (int64_t i = 0; i < a.size(); ++i)
    EXPECT_NEAR(a.data()[i], b.data()[i], tol) << "element " << i;
}

/// Standard normal entries from `seed`.
inline Matrix randomMatrix(int64_t r, int64_t c, unsigned seed) {
  std::mt19937 random(seed);
  std::normal_distribution<double> normal;
  Matrix m(r, c);
  for (int64_t i = 0; i < m.size(); ++i)
    m.data()[i] = normal(random);
  return m;
}

/// a * b by a triple loop.
inline Matrix product(const Matrix &a, const Matrix &b) {
  Matrix c(a.rows(), b.cols());
  for (int64_t i = 0; i < a.rows(); ++i)
    for (int64_t j = 0; j < b.cols(); ++j) {
      double s = 0;
      for (int64_t k = 0; k < a.cols(); ++k)
        s += a(i, k) * b(k, j);
      c(i, j) = s;
    }
  return c;
}

/// a' by a double loop.
inline Matrix transposed(const Matrix &a) {
  Matrix t(a.cols(), a.rows());
  for (int64_t i = 0; i < a.rows(); ++i)
    for (int64_t j = 0; j < a.cols(); ++j)
      t(j, i) = a(i, j);
  return t;
}

} // namespace cmmrt::test

#endif // CMM_TEST_UNITTESTS_TESTMATRICES_H
