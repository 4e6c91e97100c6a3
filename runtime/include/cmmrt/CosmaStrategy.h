//===- CosmaStrategy.h - COSMA's decomposition of one product ---*- C++ -*-===//
//
// The communication-optimal decomposition of C = A B (m x k times k x n)
// on p ranks with S words of memory each (Kwasniewski et al., "Red-blue
// pebbling revisited", SC'19): the local domain a x a x b of equation (4),
// the processor grid [m/a, n/a, k/b] fitted to p by stretching the local
// domain and leaving at most a tolerated fraction of ranks idle (section
// 7.1, Figure 5), the rounds t = ceil(2ab / (S - a^2)) of Algorithm 1, and
// the words each rank moves. Pure arithmetic: no MPI, unit-tested.
//
// The local domain's face in the ij plane holds the partial C; with
// a = sqrt(S) (equation (4) when memory binds) no memory would be left for
// the A and B panels, so, as the sequential schedule of section 5 does, we
// keep a^2 <= S / 2: the other half holds one round of panels.
//
//===----------------------------------------------------------------------===//

#ifndef CMMRT_COSMASTRATEGY_H
#define CMMRT_COSMASTRATEGY_H

#include <cstdint>
#include <string>
#include <vector>

namespace cmmrt {

struct CosmaOptions {
  /// The largest fraction of ranks the grid may leave idle (the paper uses
  /// 3 % on Piz Daint).
  double maxIdleFraction = 0.03;
};

struct CosmaStrategy {
  int64_t m = 0, n = 0, k = 0;
  int p = 0;
  double memoryWords = 0; // S
  /// The ideal local domain a x a x b (equation (4), a^2 <= S / 2).
  double a = 0, b = 0;
  /// The fitted grid [gm x gn x gk] (gm * gn * gk ranks work).
  int gm = 1, gn = 1, gk = 1;
  /// The stretched local domain: ceil(m / gm) x ceil(n / gn) x ceil(k / gk).
  int64_t tileM = 0, tileN = 0, tileK = 0;
  /// Rounds of panel exchange and the k extent of each round's panels.
  int rounds = 1;
  int64_t roundK = 0;
  int usedRanks() const { return gm * gn * gk; }
  /// Where each rank of the communicator sits: places[rank] is its place
  /// in the grid (places in rank order of gm x gn x gk; places from
  /// usedRanks() on are idle). Empty: every rank at its own number.
  /// cosmaPlaceRanks (cmmrt/Cosma.h) puts ranks where their operands are.
  std::vector<int> places;
  int placeOf(int rank) const { return places.empty() ? rank : places[rank]; }
  /// The paper's I/O of the local domain, |A panel| + |B panel| + |C face|
  /// = tileM tileK + tileK tileN + tileM tileN words (the denominator of
  /// equation (3)).
  double ioWords() const;
  /// Words a rank needs in memory: its partial C plus one round of panels.
  double memoryNeeded() const;
};

/// The I/O of the local domain of grid [gm, gn, gk] for m x n x k.
double cosmaGridIO(int64_t m, int64_t n, int64_t k, int gm, int gn, int gk);
/// The words the busiest rank of grid [gm, gn, gk] sends in the layout of
/// cmmrt/Cosma.h (its input shares to the ranks that need them, its
/// partial C): what the fitting minimises.
double cosmaGridTraffic(int64_t m, int64_t n, int64_t k, int gm, int gn,
                        int gk);

/// Chooses the decomposition; false with a message when the product cannot
/// fit (`needs X GiB per rank, has Y GiB`) or the arguments are invalid.
bool computeCosmaStrategy(int64_t m, int64_t n, int64_t k, int p,
                          double memoryWords, const CosmaOptions &options,
                          CosmaStrategy &strategy, std::string &error);

/// The best grid with exactly `ranks` ranks (no idle ranks allowed), for
/// comparisons such as Figure 5's.
bool bestGridWithRanks(int64_t m, int64_t n, int64_t k, int ranks, int &gm,
                       int &gn, int &gk);

} // namespace cmmrt

#endif // CMMRT_COSMASTRATEGY_H
