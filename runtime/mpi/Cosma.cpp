//===- Cosma.cpp - COSMA's distributed matrix product on MPI ----*- C++ -*-===//

#include "cmmrt/Cosma.h"

#include <cblas.h>

#include <algorithm>
#include <chrono>
#include <vector>

using namespace cmmrt;

namespace {

/// [begin, end) of block `index` when `extent` is cut in blocks of `size`.
struct Range {
  int64_t begin = 0, end = 0;
  int64_t size() const { return end - begin; }
};

Range block(int64_t extent, int64_t size, int64_t index) {
  Range r;
  r.begin = std::min(extent, index * size);
  r.end = std::min(extent, (index + 1) * size);
  return r;
}

/// Piece `part` of `parts` near-equal pieces of [0, extent).
Range piece(int64_t extent, int parts, int part) {
  return {extent * part / parts, extent * (part + 1) / parts};
}

/// Where a rank sits in the grid; ranks past the grid are idle.
struct Coords {
  int i = 0, j = 0, l = 0;
  bool active = false;
};

Coords coordsOf(const CosmaStrategy &s, int rank) {
  Coords c;
  int place = s.placeOf(rank);
  if (place >= s.usedRanks())
    return c;
  c.active = true;
  c.i = place / (s.gn * s.gk);
  c.j = (place / s.gk) % s.gn;
  c.l = place % s.gk;
  return c;
}

/// The shape of one rank's work: its blocks and the rounds' k ranges.
struct Work {
  Range rows, cols, ks;      // of C (rows, cols) and of k
  std::vector<Range> rounds; // local k ranges (offsets into ks)
};

Work workOf(const CosmaStrategy &s, const Coords &c) {
  Work w;
  w.rows = block(s.m, s.tileM, c.i);
  w.cols = block(s.n, s.tileN, c.j);
  w.ks = block(s.k, s.tileK, c.l);
  for (int r = 0; r < s.rounds; ++r)
    w.rounds.push_back(block(w.ks.size(), s.roundK, r));
  return w;
}

} // namespace

void cmmrt::cosmaInputRegions(const CosmaStrategy &s, int rank,
                              std::vector<CosmaRegion> &a,
                              std::vector<CosmaRegion> &b) {
  a.clear();
  b.clear();
  Coords c = coordsOf(s, rank);
  if (!c.active)
    return;
  Work w = workOf(s, c);
  // As cosmaMultiply reads them: per round, the A piece (the block's rows,
  // piece j of the round's k) and the B piece (piece i of the round's k,
  // the block's columns).
  for (const Range &round : w.rounds) {
    Range ak = piece(round.size(), s.gn, c.j),
          bk = piece(round.size(), s.gm, c.i);
    int64_t k0 = w.ks.begin + round.begin;
    a.push_back({w.rows.begin, k0 + ak.begin, w.rows.size(), ak.size()});
    b.push_back({k0 + bk.begin, w.cols.begin, bk.size(), w.cols.size()});
  }
}

void cmmrt::cosmaPredictedWords(const CosmaStrategy &s,
                                std::vector<double> &sent,
                                std::vector<double> &received) {
  sent.assign(s.p, 0.0);
  received.assign(s.p, 0.0);
  for (int rank = 0; rank < s.p; ++rank) {
    Coords c = coordsOf(s, rank);
    if (!c.active)
      continue;
    Work w = workOf(s, c);
    for (const Range &round : w.rounds) {
      // A panel: mi x kr, split along k among the gn ranks (i, *, l).
      for (int part = 0; part < s.gn; ++part) {
        double words = double(w.rows.size()) *
                       double(piece(round.size(), s.gn, part).size());
        if (part == c.j)
          sent[rank] += words * (s.gn - 1);
        else
          received[rank] += words;
      }
      // B panel: kr x nj, split along k among the gm ranks (*, j, l).
      for (int part = 0; part < s.gm; ++part) {
        double words = double(w.cols.size()) *
                       double(piece(round.size(), s.gm, part).size());
        if (part == c.i)
          sent[rank] += words * (s.gm - 1);
        else
          received[rank] += words;
      }
    }
    // C: partial blocks summed and scattered along k, rows of the block
    // split among the gk ranks (i, j, *).
    if (s.gk > 1)
      for (int part = 0; part < s.gk; ++part) {
        double words = double(piece(w.rows.size(), s.gk, part).size()) *
                       double(w.cols.size());
        if (part == c.l)
          received[rank] += words * (s.gk - 1);
        else
          sent[rank] += words;
      }
  }
}

namespace {

/// The rounds of Algorithm 1 and the reduction along k on this rank's
/// pieces of A and B (one per round, in the layout of Cosma.h); the
/// sub-communicators are freed at the end.
void multiplyPieces(const CosmaStrategy &s, const Coords &c,
                    const std::vector<const double *> &myA,
                    const std::vector<const double *> &myB, bool transA,
                    bool transB, MPI_Comm comm, MPI_Comm rowComm,
                    MPI_Comm colComm, MPI_Comm depthComm, CosmaResult &result) {
  Work w = workOf(s, c);
  const int64_t mi = w.rows.size(), nj = w.cols.size();
  int64_t maxRound = 0;
  for (const Range &round : w.rounds)
    maxRound = std::max(maxRound, round.size());
  // A rank alone along j (gn = 1) already holds its whole A panel, and
  // alone along i its B panel: no gather, no panel buffer.
  const bool ownA = s.gn == 1, ownB = s.gm == 1;
  // Pooled buffers (cmmrt/TileMemory.h): fresh pages for them cost more
  // than a small product's arithmetic.
  ScratchBuffer panelA[2], panelB[2];
  for (int x = 0; x < 2; ++x) {
    if (!ownA)
      panelA[x] = ScratchBuffer(size_t(mi * maxRound));
    if (!ownB)
      panelB[x] = ScratchBuffer(size_t(maxRound * nj));
  }
  ScratchBuffer scratchB(transB ? size_t(maxRound * nj) : 0);
  ScratchBuffer partial(size_t(mi * nj));
  std::fill(partial.data(), partial.data() + partial.size(), 0.0);
  std::vector<int> countsA(s.gn), displsA(s.gn), countsB(s.gm), displsB(s.gm);

  MPI_Barrier(comm);
  auto start = std::chrono::steady_clock::now();

  MPI_Request requests[2][2];
  auto issue = [&](size_t r) {
    const Range round = w.rounds[r];
    int slot = int(r % 2);
    int offset = 0;
    for (int part = 0; part < s.gn; ++part) {
      countsA[part] = int(mi * piece(round.size(), s.gn, part).size());
      displsA[part] = offset;
      offset += countsA[part];
    }
    offset = 0;
    for (int part = 0; part < s.gm; ++part) {
      countsB[part] = int(nj * piece(round.size(), s.gm, part).size());
      displsB[part] = offset;
      offset += countsB[part];
    }
    requests[slot][0] = requests[slot][1] = MPI_REQUEST_NULL;
    if (!ownA)
      MPI_Iallgatherv(myA[r], countsA[c.j], MPI_DOUBLE, panelA[slot].data(),
                      countsA.data(), displsA.data(), MPI_DOUBLE, rowComm,
                      &requests[slot][0]);
    if (!ownB)
      MPI_Iallgatherv(myB[r], countsB[c.i], MPI_DOUBLE, panelB[slot].data(),
                      countsB.data(), displsB.data(), MPI_DOUBLE, colComm,
                      &requests[slot][1]);
    for (int part = 0; part < s.gn; ++part)
      (part == c.j ? result.wordsSent : result.wordsReceived) +=
          part == c.j ? double(countsA[part]) * (s.gn - 1)
                      : double(countsA[part]);
    for (int part = 0; part < s.gm; ++part)
      (part == c.i ? result.wordsSent : result.wordsReceived) +=
          part == c.i ? double(countsB[part]) * (s.gm - 1)
                      : double(countsB[part]);
  };

  if (!w.rounds.empty())
    issue(0);
  for (size_t r = 0; r < w.rounds.size(); ++r) {
    int slot = int(r % 2);
    MPI_Waitall(2, requests[slot], MPI_STATUSES_IGNORE);
    if (r + 1 < w.rounds.size())
      issue(r + 1); // overlaps this round's DGEMM (section 7.3)
    const int64_t kr = w.rounds[r].size();
    if (kr == 0 || mi == 0 || nj == 0)
      continue;
    // The B panel as kr x nj, row-major: the gathered pieces are row
    // blocks already unless B is transposed.
    const double *aPanel = ownA ? myA[r] : panelA[slot].data();
    const double *bPanel = ownB ? myB[r] : panelB[slot].data();
    if (transB) {
      int64_t rowOffset = 0;
      for (int part = 0; part < s.gm; ++part) {
        int64_t kb = piece(kr, s.gm, part).size();
        const double *src =
            (ownB ? myB[r] : panelB[slot].data()) + rowOffset * nj;
        for (int64_t y = 0; y < nj; ++y)
          for (int64_t x = 0; x < kb; ++x)
            scratchB.data()[size_t((rowOffset + x) * nj + y)] = src[y * kb + x];
        rowOffset += kb;
      }
      bPanel = scratchB.data();
    }
    // The A panel arrives as column blocks (one per rank along j): one
    // DGEMM per block against the matching rows of B.
    int64_t kOffset = 0;
    for (int part = 0; part < s.gn; ++part) {
      int64_t ka = piece(kr, s.gn, part).size();
      if (ka) {
        const double *aBlock = aPanel + mi * kOffset;
        cblas_dgemm(CblasRowMajor, transA ? CblasTrans : CblasNoTrans,
                    CblasNoTrans, int(mi), int(nj), int(ka), 1.0, aBlock,
                    transA ? int(mi) : int(ka), bPanel + kOffset * nj, int(nj),
                    1.0, partial.data(), int(nj));
      }
      kOffset += ka;
    }
  }

  // Partial C summed along k and scattered: rank (i, j, l) keeps rows
  // piece l of the block (a reduce-scatter moves (gk - 1) / gk of the block
  // per rank, where a reduce onto one rank would move all of it).
  Range mine = s.gk > 1 ? piece(mi, s.gk, c.l) : Range{0, mi};
  ScratchBuffer reduced;
  const double *own = partial.data();
  if (s.gk > 1) {
    std::vector<int> counts(s.gk);
    for (int part = 0; part < s.gk; ++part) {
      counts[part] = int(piece(mi, s.gk, part).size() * nj);
      (part == c.l ? result.wordsReceived : result.wordsSent) +=
          part == c.l ? double(counts[part]) * (s.gk - 1)
                      : double(counts[part]);
    }
    reduced = ScratchBuffer(size_t(std::max(1, counts[c.l])));
    MPI_Reduce_scatter(partial.data(), reduced.data(), counts.data(),
                       MPI_DOUBLE, MPI_SUM, depthComm);
    own = reduced.data();
  }
  result.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  if (mine.size() > 0 && nj > 0) {
    result.holdsBlock = true;
    result.row0 = w.rows.begin + mine.begin;
    result.col0 = w.cols.begin;
    result.block = Matrix(mine.size(), nj);
    std::copy(own, own + mine.size() * nj, result.block.data());
  }
  MPI_Comm_free(&rowComm);
  MPI_Comm_free(&colComm);
  MPI_Comm_free(&depthComm);
}

/// This rank's place in the grid and the grid's sub-communicators: A along
/// j (ranks (i, *, l)), B along i (ranks (*, j, l)), C along l (ranks
/// (i, j, *)). False on an idle rank, which has none and has already met
/// the active ranks at the barrier that starts the timed product.
bool enterGrid(const CosmaStrategy &s, MPI_Comm comm, Coords &c,
               MPI_Comm &rowComm, MPI_Comm &colComm, MPI_Comm &depthComm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  c = coordsOf(s, rank);
  int undefined = MPI_UNDEFINED;
  MPI_Comm_split(comm, c.active ? c.i * s.gk + c.l : undefined, c.j, &rowComm);
  MPI_Comm_split(comm, c.active ? c.j * s.gk + c.l : undefined, c.i, &colComm);
  MPI_Comm_split(comm, c.active ? c.i * s.gn + c.j : undefined, c.l,
                 &depthComm);
  if (!c.active)
    MPI_Barrier(comm);
  return c.active;
}

} // namespace

void cmmrt::cosmaMultiplyPieces(const CosmaStrategy &s,
                                const std::vector<const double *> &aPieces,
                                const std::vector<const double *> &bPieces,
                                MPI_Comm comm, CosmaResult &result) {
  result = CosmaResult();
  Coords c;
  MPI_Comm rowComm, colComm, depthComm;
  if (!enterGrid(s, comm, c, rowComm, colComm, depthComm))
    return;
  multiplyPieces(s, c, aPieces, bPieces, false, false, comm, rowComm, colComm,
                 depthComm, result);
}

void cmmrt::cosmaMultiply(const CosmaStrategy &s, const ElementFn &a,
                          const ElementFn &b, bool transA, bool transB,
                          MPI_Comm comm, CosmaResult &result) {
  result = CosmaResult();
  Coords c;
  MPI_Comm rowComm, colComm, depthComm;
  if (!enterGrid(s, comm, c, rowComm, colComm, depthComm))
    return;

  Work w = workOf(s, c);
  const int64_t mi = w.rows.size(), nj = w.cols.size();
  // This rank's pieces of A and B for each round (the initial layout).
  std::vector<std::vector<double>> myA(w.rounds.size()), myB(w.rounds.size());
  for (size_t r = 0; r < w.rounds.size(); ++r) {
    const Range round = w.rounds[r];
    Range ak = piece(round.size(), s.gn, c.j),
          bk = piece(round.size(), s.gm, c.i);
    int64_t k0 = w.ks.begin + round.begin;
    // A piece: op(A)(rows, k0 + ak), stored as op(A) (mi x ka) or as A
    // (ka x mi) when transposed.
    myA[r].resize(size_t(mi * ak.size()));
    for (int64_t x = 0; x < mi; ++x)
      for (int64_t y = 0; y < ak.size(); ++y) {
        double v = a(w.rows.begin + x, k0 + ak.begin + y);
        if (transA)
          myA[r][size_t(y * mi + x)] = v;
        else
          myA[r][size_t(x * ak.size() + y)] = v;
      }
    // B piece: op(B)(k0 + bk, cols), stored as op(B) (kb x nj) or as B
    // (nj x kb).
    myB[r].resize(size_t(bk.size() * nj));
    for (int64_t x = 0; x < bk.size(); ++x)
      for (int64_t y = 0; y < nj; ++y) {
        double v = b(k0 + bk.begin + x, w.cols.begin + y);
        if (transB)
          myB[r][size_t(y * bk.size() + x)] = v;
        else
          myB[r][size_t(x * nj + y)] = v;
      }
  }
  std::vector<const double *> piecesA, piecesB;
  for (size_t r = 0; r < myA.size(); ++r) {
    piecesA.push_back(myA[r].data());
    piecesB.push_back(myB[r].data());
  }
  multiplyPieces(s, c, piecesA, piecesB, transA, transB, comm, rowComm, colComm,
                 depthComm, result);
}
