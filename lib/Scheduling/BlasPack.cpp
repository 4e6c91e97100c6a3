//===- BlasPack.cpp - The BLAS packing buffer's pages ---------------------===//

#include "cmm/Scheduling/BlasPack.h"

#include "cmmrt/BlasThreads.h"

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

double cmm::scheduling::oneThreadPackBytes(double m, double n, double k) {
  if (m <= 1 || n <= 1 || k < 1)
    return 0;
  // OpenBLAS's driver (driver/level3/level3.c) on C' = B' A': its A is
  // B' (n x k), packed in blocks of at most 512 rows (halved from 512 to
  // 1024); its B is A' (k x m), packed whole across a k chunk when B'
  // takes more than one block, else a few columns at a time into one
  // place (l1stride 0: 24 columns at most here).
  double blockRows = n >= 1024 ? 512 : n > 512 ? n / 2 : n;
  double packedCols = n > 512 ? m : std::min(m, 24.0);
  return 8 * packDepth(k) * (blockRows + packedCols);
}

BlasPack cmm::scheduling::blasPack(CostClass op, double m, double n, double k) {
  auto product = [](double m, double n, double k) -> BlasPack {
    double shared = blasPackBytes(m, n, k);
    if (shared == 0) // dgemv packs nothing
      return {};
    return {BlasPack::Product, shared, 8 * packDepth(k) * std::min(n, 512.0),
            oneThreadPackBytes(m, n, k)};
  };
  switch (op) {
  case CostClass::Gemm:
    // The runtime runs a product threads do not speed up on one BLAS
    // thread (cmmrt::OneBlasThreadUnlessFaster), whose packing differs.
    if (!cmmrt::threadsSpeedUpProduct((long long)m, (long long)n,
                                      (long long)k)) {
      double bytes = blasPackBytes(m, n, k) > 0 ? oneThreadPackBytes(m, n, k)
                                                : 0; // dgemv packs nothing
      return {BlasPack::Product, bytes, 0, bytes};
    }
    return product(m, n, k);
  case CostClass::Syrk: // m x m, depth 2 k
    return product(m, m, 2 * k);
  case CostClass::Potrf: // m x m: its updates are products of depth m
    return product(m, m, m);
  case CostClass::Trsm: { // an m x m triangle against n columns
    double panel = 8 * packDepth(m) * (m + std::min(n, 512.0));
    if (n <= 1)
      return {BlasPack::TriangularSolve, panel, 0, panel};
    return {BlasPack::TriangularSolve, 0, panel, panel};
  }
  default:
    return {};
  }
}
