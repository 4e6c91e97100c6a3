//===- FactorizationCosts.cpp - The work of whole-matrix factorizations ---===//

#include "cmmrt/FactorizationCosts.h"

#include <algorithm>
#include <cmath>

double cmmrt::qrFlops(double m, double n) {
  if (m >= n)
    return 4 * m * n * n - 4.0 / 3 * n * n * n;
  return 2 * m * m * n + 2.0 / 3 * m * m * m;
}

double cmmrt::svdFlops(double m, double n, bool vectors) {
  double s = std::min(m, n), l = std::max(m, n);
  return vectors ? 4 * l * s * s + 8 * s * s * s
                 : 4 * l * s * s - 4.0 / 3 * s * s * s;
}

double cmmrt::symmetricEigenFlops(double n, bool vectors) {
  return vectors ? 9 * n * n * n : 4.0 / 3 * n * n * n;
}

double cmmrt::luSolveFlops(double n, double rhs) {
  return 2.0 / 3 * n * n * n + 2 * n * n * rhs;
}

double cmmrt::leastSquaresFlops(double m, double n, double rhs) {
  double s = std::min(m, n), l = std::max(m, n);
  return 2 * l * s * s + 2 * s * s * s + 4 * m * n * rhs;
}

double cmmrt::wholeTaskDepth(double flops, double m, double n) {
  return std::max(1.0, std::round(flops / (2 * m * n)));
}

double cmmrt::factorizationFlops(plan::CostClass cost, double m, double n) {
  using plan::CostClass;
  switch (cost) {
  case CostClass::Qr:
    return qrFlops(m, n);
  case CostClass::Svd:
    return svdFlops(m, n, /*vectors=*/true);
  case CostClass::SvdVals:
    return svdFlops(m, n, /*vectors=*/false);
  case CostClass::Eig:
    return symmetricEigenFlops(m, /*vectors=*/true);
  case CostClass::EigVals:
    return symmetricEigenFlops(m, /*vectors=*/false);
  case CostClass::Lstsq:
    return leastSquaresFlops(m, n, 1);
  default:
    return 0;
  }
}
