//===- RelativeError.h - The unit tests' comparison of results --*- C++ -*-===//
//
// ||x - y||_F / ||y||_F (||x||_F when y is zero), the project's measure of
// how far a result x is from its reference y.
//
//===----------------------------------------------------------------------===//

#ifndef CMM_TEST_UNITTESTS_RELATIVEERROR_H
#define CMM_TEST_UNITTESTS_RELATIVEERROR_H

#include "cmmrt/Matrix.h"

#include <cmath>

inline double relativeError(const cmmrt::Matrix &x, const cmmrt::Matrix &y) {
  double num = 0, den = 0;
  for (int64_t i = 0; i < x.size(); ++i) {
    num += (x.data()[i] - y.data()[i]) * (x.data()[i] - y.data()[i]);
    den += y.data()[i] * y.data()[i];
  }
  return std::sqrt(num) / (den ? std::sqrt(den) : 1.0);
}

#endif // CMM_TEST_UNITTESTS_RELATIVEERROR_H
