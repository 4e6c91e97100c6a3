//===- CosmaStrategy.cpp - COSMA's decomposition of one product -*- C++ -*-===//

#include "cmmrt/CosmaStrategy.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

using namespace cmmrt;

static int64_t ceilDiv(int64_t x, int64_t y) { return (x + y - 1) / y; }

double cmmrt::cosmaGridIO(int64_t m, int64_t n, int64_t k, int gm, int gn,
                          int gk) {
  double tm = double(ceilDiv(m, gm)), tn = double(ceilDiv(n, gn)),
         tk = double(ceilDiv(k, gk));
  return tm * tk + tk * tn + tm * tn;
}

double cmmrt::cosmaGridTraffic(int64_t m, int64_t n, int64_t k, int gm, int gn,
                               int gk) {
  double tm = double(ceilDiv(m, gm)), tn = double(ceilDiv(n, gn)),
         tk = double(ceilDiv(k, gk));
  // A rank's share of its A block goes to the gn - 1 other ranks of its
  // row, of its B block to the gm - 1 others of its column, and the parts
  // of its partial C block that the other gk - 1 ranks keep.
  return tm * tk * (gn - 1) / gn + tk * tn * (gm - 1) / gm +
         tm * tn * (gk - 1) / gk;
}

double CosmaStrategy::ioWords() const {
  return cosmaGridIO(m, n, k, gm, gn, gk);
}

double CosmaStrategy::memoryNeeded() const {
  // Partial C, and one round of A (tileM x roundK) and B (roundK x tileN)
  // panels.
  return double(tileM) * double(tileN) +
         double(roundK) * (double(tileM) + double(tileN));
}

namespace {

/// Visits every grid [gm, gn, gk] with gm gn gk == q and each side no larger
/// than its dimension (a rank with an empty domain does no work).
template <typename F>
void forEachGrid(int64_t m, int64_t n, int64_t k, int q, F visit) {
  for (int gm = 1; gm <= q; ++gm) {
    if (q % gm || gm > m)
      continue;
    int rest = q / gm;
    for (int gn = 1; gn <= rest; ++gn) {
      if (rest % gn || gn > n)
        continue;
      int gk = rest / gn;
      if (gk > k)
        continue;
      visit(gm, gn, gk);
    }
  }
}

} // namespace

bool cmmrt::bestGridWithRanks(int64_t m, int64_t n, int64_t k, int ranks,
                              int &gm, int &gn, int &gk) {
  double best = std::numeric_limits<double>::infinity();
  forEachGrid(m, n, k, ranks, [&](int a, int b, int c) {
    double io = cosmaGridIO(m, n, k, a, b, c);
    if (io < best) {
      best = io;
      gm = a;
      gn = b;
      gk = c;
    }
  });
  return std::isfinite(best);
}

bool cmmrt::computeCosmaStrategy(int64_t m, int64_t n, int64_t k, int p,
                                 double memoryWords,
                                 const CosmaOptions &options, CosmaStrategy &s,
                                 std::string &error) {
  if (m < 1 || n < 1 || k < 1 || p < 1 || !(memoryWords > 0)) {
    error = "COSMA needs positive dimensions, ranks and memory";
    return false;
  }
  if (!(options.maxIdleFraction >= 0 && options.maxIdleFraction < 1)) {
    error = "the tolerated fraction of idle ranks must be in [0, 1)";
    return false;
  }
  s = CosmaStrategy();
  s.m = m;
  s.n = n;
  s.k = k;
  s.p = p;
  s.memoryWords = memoryWords;

  // Equation (4), with the C face limited to half the memory.
  double volume = double(m) * double(n) * double(k) / p;
  s.a = std::min(std::sqrt(memoryWords / 2), std::cbrt(volume));
  s.b = volume / (s.a * s.a);

  // Section 7.1: among grids using between (1 - delta) p and p ranks, the
  // one whose stretched local domain moves the fewest words; ties go to
  // the smaller I/O of equation (3), then to fewer layers along k (no
  // reduction step), then to the grid with more ranks.
  int fewest =
      std::max(1, int(std::ceil((1 - options.maxIdleFraction) * p - 1e-9)));
  double best = std::numeric_limits<double>::infinity(), bestIO = best;
  for (int q = p; q >= fewest; --q)
    forEachGrid(m, n, k, q, [&](int gm, int gn, int gk) {
      // The C face must leave half the memory for panels (a^2 <= S / 2).
      if (double(ceilDiv(m, gm)) * double(ceilDiv(n, gn)) > memoryWords / 2)
        return;
      // The words the busiest rank sends in our layout, then the paper's
      // I/O of the domain (which ties on symmetric shapes).
      double traffic = cosmaGridTraffic(m, n, k, gm, gn, gk);
      double io = cosmaGridIO(m, n, k, gm, gn, gk);
      bool sameTraffic = traffic <= best * (1 + 1e-12);
      bool sameIO = io <= bestIO * (1 + 1e-12) && io >= bestIO * (1 - 1e-12);
      if (traffic < best * (1 - 1e-12) ||
          (sameTraffic && io < bestIO * (1 - 1e-12)) ||
          (sameTraffic && sameIO && gk < s.gk)) {
        best = traffic;
        bestIO = io;
        s.gm = gm;
        s.gn = gn;
        s.gk = gk;
      }
    });
  if (!std::isfinite(best)) {
    // No grid keeps the C face in half the memory: the smallest face, and
    // the check below says what is missing.
    double face = std::numeric_limits<double>::infinity();
    for (int q = p; q >= fewest; --q)
      forEachGrid(m, n, k, q, [&](int gm, int gn, int gk) {
        double f = double(ceilDiv(m, gm)) * double(ceilDiv(n, gn));
        if (f < face) {
          face = f;
          s.gm = gm;
          s.gn = gn;
          s.gk = gk;
        }
      });
  }
  s.tileM = ceilDiv(m, s.gm);
  s.tileN = ceilDiv(n, s.gn);
  s.tileK = ceilDiv(k, s.gk);

  // Algorithm 1, line 7: t = ceil(2ab / (S - a^2)) rounds for the stretched
  // domain, each moving panels of roundK columns of A and rows of B.
  double face = double(s.tileM) * double(s.tileN);
  double free = memoryWords - face;
  double perK = double(s.tileM) + double(s.tileN); // words per k of panels
  if (free < perK) {
    char buffer[256];
    double need = (face + perK) * 8, have = memoryWords * 8;
    std::snprintf(buffer, sizeof buffer,
                  "a %lldx%lldx%lld product on %d rank(s) needs at least "
                  "%.3g GiB per rank (its %lldx%lld block of C and one "
                  "column of panels), and a rank has %.3g GiB",
                  (long long)m, (long long)n, (long long)k, s.usedRanks(),
                  need / (1 << 30), (long long)s.tileM, (long long)s.tileN,
                  have / (1 << 30));
    error = buffer;
    return false;
  }
  s.rounds = int(std::max<double>(1, std::ceil(perK * double(s.tileK) / free)));
  s.roundK = ceilDiv(s.tileK, s.rounds);
  return true;
}
