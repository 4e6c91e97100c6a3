//===- BlasPack.cpp - The BLAS packing buffer's pages ---------------------===//

#include "cmm/Scheduling/BlasPack.h"

#include <algorithm>
#include <cmath>

using namespace cmm::scheduling;

/// A k chunk of OpenBLAS's packing: at most 256 deep, the chunks equal.
static double packDepth(double k) { return k / std::ceil(k / 256); }

double cmm::scheduling::blasPackBytes(double m, double n, double k) {
  if (m <= 1 || n <= 1 || k < 1)
    return 0;
  return 8 * m * packDepth(k);
}

BlasPack cmm::scheduling::blasPack(CostClass op, double m, double n, double k) {
  auto product = [](double m, double n, double k) -> BlasPack {
    double shared = blasPackBytes(m, n, k);
    if (shared == 0) // dgemv packs nothing
      return {};
    return {BlasPack::Product, shared, 8 * packDepth(k) * std::min(n, 512.0)};
  };
  switch (op) {
  case CostClass::Gemm:
    return product(m, n, k);
  case CostClass::Syrk: // m x m, depth 2 k
    return product(m, m, 2 * k);
  case CostClass::Potrf: // m x m: its updates are products of depth m
    return product(m, m, m);
  case CostClass::Trsm: { // an m x m triangle against n columns
    double panel = 8 * packDepth(m) * (m + std::min(n, 512.0));
    if (n <= 1)
      return {BlasPack::TriangularSolve, panel, 0};
    return {BlasPack::TriangularSolve, 0, panel};
  }
  default:
    return {};
  }
}
