//===- CosmaLayout.cpp - Operands into COSMA's layout ---------------------===//
//
// cosmaRedistribute (cmmrt/Cosma.h): every rank knows every rank's pieces
// (cosmaInputRegions), so a sender can say where in the receiver's buffer
// each part goes. A message to a rank is a run of records
//   [offset, rows, cols, stride] followed by rows x cols words,
// one per intersection of a held block with one of the receiver's pieces;
// the receiver copies each record's rows to buffer[offset + x * stride].
//
//===----------------------------------------------------------------------===//

#include "cmmrt/Cosma.h"

#include <algorithm>
#include <climits>

using namespace cmmrt;

namespace {

constexpr int kHeader = 4;

/// Where the pieces of a rank start in its buffer: A's regions, then B's.
struct Layout {
  std::vector<CosmaRegion> a, b;
  std::vector<int64_t> offsetA, offsetB;
  int64_t words = 0, wordsA = 0; // A's pieces come first
};

Layout layoutOf(const CosmaStrategy &s, int rank) {
  Layout l;
  cosmaInputRegions(s, rank, l.a, l.b);
  for (const CosmaRegion &r : l.a) {
    l.offsetA.push_back(l.words);
    l.words += r.rows * r.cols;
  }
  l.wordsA = l.words;
  for (const CosmaRegion &r : l.b) {
    l.offsetB.push_back(l.words);
    l.words += r.rows * r.cols;
  }
  return l;
}

/// Calls `part(region offset, region, block, r0, r1, c0, c1)` for every
/// non-empty intersection of `blocks` with `regions`.
template <typename Fn>
void intersect(const std::vector<CosmaBlock> &blocks,
               const std::vector<CosmaRegion> &regions,
               const std::vector<int64_t> &offsets, Fn part) {
  for (size_t g = 0; g < regions.size(); ++g) {
    const CosmaRegion &region = regions[g];
    for (const CosmaBlock &block : blocks) {
      int64_t r0 = std::max(region.row0, block.row0);
      int64_t r1 = std::min(region.row0 + region.rows, block.row0 + block.rows);
      int64_t c0 = std::max(region.col0, block.col0);
      int64_t c1 = std::min(region.col0 + region.cols, block.col0 + block.cols);
      if (r0 < r1 && c0 < c1)
        part(offsets[g], region, block, r0, r1, c0, c1);
    }
  }
}

} // namespace

void cmmrt::cosmaPlaceRanks(CosmaStrategy &s, const std::vector<CosmaBlock> &a,
                            const std::vector<CosmaBlock> &b, MPI_Comm comm) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  s.places.clear();
  std::vector<long long> mine;
  for (int operand = 0; operand < 2; ++operand)
    for (const CosmaBlock &x : operand ? b : a)
      mine.insert(mine.end(), {operand, x.row0, x.col0, x.rows, x.cols});
  int count = int(mine.size());
  std::vector<int> counts(size), displs(size);
  MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, comm);
  int total = 0;
  for (int r = 0; r < size; ++r) {
    displs[r] = total;
    total += counts[r];
  }
  std::vector<long long> all(size_t(std::max(1, total)));
  MPI_Allgatherv(mine.data(), count, MPI_LONG_LONG, all.data(), counts.data(),
                 displs.data(), MPI_LONG_LONG, comm);

  // Words of each working place's pieces that each rank already holds:
  // its blocks (rectangles only) cut against the place's regions, as
  // cosmaRedistribute cuts them.
  std::vector<std::vector<CosmaBlock>> heldA(size), heldB(size);
  for (int r = 0; r < size; ++r)
    for (int x = displs[r]; x < displs[r] + counts[r]; x += 5)
      (all[x] ? heldB : heldA)[r].push_back(
          {nullptr, all[x + 1], all[x + 2], all[x + 3], all[x + 4], 0});
  struct Candidate {
    int64_t words;
    int rank, place;
  };
  std::vector<Candidate> candidates;
  for (int place = 0; place < s.usedRanks(); ++place) {
    const Layout l = layoutOf(s, place); // places are still rank numbers
    for (int r = 0; r < size; ++r) {
      int64_t words = 0;
      auto add = [&](int64_t, const CosmaRegion &, const CosmaBlock &,
                     int64_t r0, int64_t r1, int64_t c0,
                     int64_t c1) { words += (r1 - r0) * (c1 - c0); };
      intersect(heldA[r], l.a, l.offsetA, add);
      intersect(heldB[r], l.b, l.offsetB, add);
      if (words > 0)
        candidates.push_back({words, r, place});
    }
  }
  std::sort(candidates.begin(), candidates.end(),
            [](const Candidate &x, const Candidate &y) {
              if (x.words != y.words)
                return x.words > y.words;
              if ((x.rank == x.place) != (y.rank == y.place))
                return x.rank == x.place;
              return std::make_pair(x.rank, x.place) <
                     std::make_pair(y.rank, y.place);
            });
  std::vector<int> places(size, -1);
  std::vector<bool> taken(size, false);
  for (const Candidate &c : candidates)
    if (places[c.rank] < 0 && !taken[c.place]) {
      places[c.rank] = c.place;
      taken[c.place] = true;
    }
  // The rest in order, each keeping its own number when that is free.
  for (int r = 0; r < size; ++r)
    if (places[r] < 0 && !taken[r]) {
      places[r] = r;
      taken[r] = true;
    }
  for (int r = 0, next = 0; r < size; ++r) {
    if (places[r] >= 0)
      continue;
    while (taken[next])
      ++next;
    places[r] = next;
    taken[next] = true;
  }
  s.places = std::move(places);
}

bool cmmrt::cosmaRedistribute(const CosmaStrategy &s,
                              const std::vector<CosmaBlock> &a,
                              const std::vector<CosmaBlock> &b, MPI_Comm comm,
                              CosmaPieces &pieces, std::string &error) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  pieces = CosmaPieces();
  const Layout mine = layoutOf(s, rank);
  // Buffers are not zeroed: every word is written once (an extra pass over
  // them cost about a third of a small product's time).
  pieces.buffer = ScratchBuffer(size_t(std::max<int64_t>(1, mine.words)));

  // Pass 1: what goes to each rank (our own parts are copied directly).
  std::vector<Layout> layouts(size);
  std::vector<long long> sendWords(size, 0);
  // Elements of our A pieces and of our B pieces that arrive (or are ours):
  // each must come to exactly its pieces' size.
  int64_t coveredA = 0, coveredB = 0;
  for (int r = 0; r < size; ++r) {
    layouts[r] = r == rank ? mine : layoutOf(s, r);
    const Layout &l = layouts[r];
    auto count = [&](int64_t offset, const CosmaRegion &, const CosmaBlock &,
                     int64_t r0, int64_t r1, int64_t c0, int64_t c1) {
      if (r == rank)
        (offset < mine.wordsA ? coveredA : coveredB) += (r1 - r0) * (c1 - c0);
      else
        sendWords[r] += kHeader + (r1 - r0) * (c1 - c0);
    };
    intersect(a, l.a, l.offsetA, count);
    intersect(b, l.b, l.offsetB, count);
  }
  std::vector<long long> recvWords(size, 0);
  MPI_Alltoall(sendWords.data(), 1, MPI_LONG_LONG, recvWords.data(), 1,
               MPI_LONG_LONG, comm);
  long long totalSend = 0, totalRecv = 0;
  for (int r = 0; r < size; ++r) {
    totalSend += sendWords[r];
    totalRecv += recvWords[r];
  }
  int bad = totalSend > INT_MAX || totalRecv > INT_MAX;
  MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, comm);
  if (bad) {
    error = "moving the operands into COSMA's layout would pass 2^31 words "
            "in one exchange";
    return false;
  }

  // Pass 2: pack the records, copy our own parts.
  std::vector<int> sendCounts(size), sendDispls(size), recvCounts(size),
      recvDispls(size);
  for (int r = 0, at = 0, from = 0; r < size; ++r) {
    sendCounts[r] = int(sendWords[r]);
    sendDispls[r] = at;
    at += sendCounts[r];
    recvCounts[r] = int(recvWords[r]);
    recvDispls[r] = from;
    from += recvCounts[r];
  }
  ScratchBuffer out(size_t(std::max(1LL, totalSend)));
  for (int r = 0; r < size; ++r) {
    const Layout &l = layouts[r];
    double *next = out.data() + sendDispls[r];
    auto pack = [&](int64_t offset, const CosmaRegion &region,
                    const CosmaBlock &block, int64_t r0, int64_t r1, int64_t c0,
                    int64_t c1) {
      int64_t at =
          offset + (r0 - region.row0) * region.cols + (c0 - region.col0);
      const double *src =
          block.data + (r0 - block.row0) * block.stride + (c0 - block.col0);
      if (r == rank) {
        for (int64_t x = 0; x < r1 - r0; ++x)
          std::copy(src + x * block.stride, src + x * block.stride + (c1 - c0),
                    pieces.buffer.data() + at + x * region.cols);
        return;
      }
      next[0] = double(at);
      next[1] = double(r1 - r0);
      next[2] = double(c1 - c0);
      next[3] = double(region.cols);
      next += kHeader;
      for (int64_t x = 0; x < r1 - r0; ++x) {
        next = std::copy(src + x * block.stride,
                         src + x * block.stride + (c1 - c0), next);
      }
      pieces.wordsSent += double((r1 - r0) * (c1 - c0));
    };
    intersect(a, l.a, l.offsetA, pack);
    intersect(b, l.b, l.offsetB, pack);
  }

  ScratchBuffer in(size_t(std::max(1LL, totalRecv)));
  MPI_Alltoallv(out.data(), sendCounts.data(), sendDispls.data(), MPI_DOUBLE,
                in.data(), recvCounts.data(), recvDispls.data(), MPI_DOUBLE,
                comm);
  out = ScratchBuffer();

  // Unpack the records.
  const double *next = in.data(), *end = in.data() + totalRecv;
  while (next + kHeader <= end) {
    int64_t at = int64_t(next[0]), rows = int64_t(next[1]),
            cols = int64_t(next[2]), stride = int64_t(next[3]);
    next += kHeader;
    for (int64_t x = 0; x < rows; ++x, next += cols)
      std::copy(next, next + cols, pieces.buffer.data() + at + x * stride);
    (at < mine.wordsA ? coveredA : coveredB) += rows * cols;
    pieces.wordsReceived += double(rows * cols);
  }
  bad = coveredA != mine.wordsA || coveredB != mine.words - mine.wordsA;
  MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, comm);
  if (bad) {
    error = "the operands' blocks do not cover COSMA's layout exactly "
            "(an element is missing or held twice)";
    return false;
  }
  const double *piece = pieces.buffer.data();
  for (const CosmaRegion &r : mine.a) {
    pieces.a.push_back(piece);
    piece += r.rows * r.cols;
  }
  for (const CosmaRegion &r : mine.b) {
    pieces.b.push_back(piece);
    piece += r.rows * r.cols;
  }
  return true;
}
