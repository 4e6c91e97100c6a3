//===- DistributedGemm.cpp - A plan's COSMA product task ------------------===//

#include "cmmrt/DistributedGemm.h"

#include "cmmrt/Cosma.h"

#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdlib>

using namespace cmmrt;
using namespace cmmrt::plan;

double cmmrt::distributedGemmMemory(double planned) {
  double bytes = planned;
  if (!(bytes > 0)) {
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGE_SIZE);
    bytes = pages > 0 && size > 0 ? double(pages) * double(size) : 8e9;
  }
  if (const char *env = std::getenv("CMM_MAX_MEMORY")) {
    char *end = nullptr;
    double limit = std::strtod(env, &end);
    if (end != env && *end == '\0' && limit > 0)
      bytes = std::min(bytes, limit);
  }
  return bytes;
}

namespace {

/// The product's m, n, k from its op: a matmul (inRows x inCols times
/// inCols x cols) or a step of a matrix power (n x n).
void productShape(const Op &op, int64_t &m, int64_t &n, int64_t &k) {
  if (op.code == OpCode::Pow) {
    m = n = k = op.rows;
    return;
  }
  m = op.inRows;
  k = op.inCols;
  n = op.cols;
}

int64_t regionWords(const std::vector<CosmaRegion> &regions) {
  int64_t words = 0;
  for (const CosmaRegion &r : regions)
    words += r.rows * r.cols;
  return words;
}

/// Appends `region` of a matrix given by its tiles, row-major, to `out`.
void pack(const std::vector<TileRef> &tiles, const CosmaRegion &region,
          std::vector<double> &out) {
  size_t base = out.size();
  out.resize(base + size_t(region.rows * region.cols));
  double *dst = out.data() + base;
  for (const TileRef &t : tiles) {
    int64_t r0 = std::max(region.row0, t.row0);
    int64_t r1 = std::min(region.row0 + region.rows, t.row0 + t.tile->rows());
    int64_t c0 = std::max(region.col0, t.col0);
    int64_t c1 = std::min(region.col0 + region.cols, t.col0 + t.tile->cols());
    if (r0 >= r1 || c0 >= c1)
      continue; // the tile is outside the region
    for (int64_t i = r0; i < r1; ++i) {
      const double *src =
          t.tile->data() + (i - t.row0) * t.tile->cols() + (c0 - t.col0);
      std::copy(src, src + (c1 - c0),
                dst + (i - region.row0) * region.cols + (c0 - region.col0));
    }
  }
}

} // namespace

bool cmmrt::runDistributedGemm(const Plan &plan, const Task &task,
                               const std::vector<TileRef> &inputs,
                               std::vector<Matrix> &outputs, MPI_Comm comm,
                               DistributedGemmStats &stats,
                               std::string &error) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  outputs.clear();
  stats = DistributedGemmStats();
  int64_t m = 0, n = 0, k = 0;
  productShape(plan.ops[task.op], m, n, k);

  double memory = distributedGemmMemory(plan.gemmMemory);
  MPI_Allreduce(MPI_IN_PLACE, &memory, 1, MPI_DOUBLE, MPI_MIN, comm);
  CosmaStrategy &s = stats.strategy;
  if (!computeCosmaStrategy(m, n, k, size, memory / 8.0, CosmaOptions(), s,
                            error))
    return false;

  // Rank 0: A's tiles come first (by area), then B's.
  std::vector<TileRef> tilesA, tilesB;
  if (rank == 0) {
    int64_t covered = 0, total = 0;
    for (const TileRef &t : inputs) {
      (covered < m * k ? tilesA : tilesB).push_back(t);
      covered += t.tile->size();
      total += t.tile->size();
    }
    if (total != m * k + k * n)
      error = "the tiles of the distributed product do not cover its "
              "operands";
  }
  int bad = !error.empty();
  MPI_Bcast(&bad, 1, MPI_INT, 0, comm);
  if (bad) {
    if (error.empty())
      error = "rank 0 could not assemble the distributed product's operands";
    return false;
  }

  // Each rank's pieces of A and B (section 7.6 layout), packed on rank 0
  // straight from the tiles and scattered.
  std::vector<CosmaRegion> myA, myB;
  cosmaInputRegions(s, rank, myA, myB);
  std::vector<int> counts(size), displs(size);
  std::vector<double> packed;
  if (rank == 0) {
    for (int r = 1; r < size; ++r) {
      std::vector<CosmaRegion> ra, rb;
      cosmaInputRegions(s, r, ra, rb);
      int64_t words = regionWords(ra) + regionWords(rb);
      if (packed.size() + words > size_t(INT_MAX)) {
        error = "the distributed product's operands exceed 2^31 elements "
                "per scatter";
        break;
      }
      displs[r] = int(packed.size());
      counts[r] = int(words);
      for (const CosmaRegion &region : ra)
        pack(tilesA, region, packed);
      for (const CosmaRegion &region : rb)
        pack(tilesB, region, packed);
      stats.bytesSent += 8.0 * double(words);
    }
  }
  bad = !error.empty();
  MPI_Bcast(&bad, 1, MPI_INT, 0, comm);
  if (bad) {
    if (error.empty())
      error = "the distributed product's operands are too large to scatter";
    return false;
  }
  // The pieces in one buffer, A's then B's in region order: rank 0 packs
  // its own, the others receive theirs.
  int64_t myWords = regionWords(myA) + regionWords(myB);
  std::vector<double> mine;
  if (rank == 0) {
    mine.reserve(size_t(myWords));
    for (const CosmaRegion &region : myA)
      pack(tilesA, region, mine);
    for (const CosmaRegion &region : myB)
      pack(tilesB, region, mine);
  } else {
    mine.resize(size_t(std::max<int64_t>(1, myWords)));
  }
  MPI_Scatterv(packed.data(), counts.data(), displs.data(), MPI_DOUBLE,
               rank == 0 ? MPI_IN_PLACE : mine.data(),
               rank == 0 ? 0 : int(myWords), MPI_DOUBLE, 0, comm);
  packed = std::vector<double>();
  if (rank != 0)
    stats.bytesReceived += 8.0 * double(myWords);
  std::vector<const double *> piecesA, piecesB;
  const double *next = mine.data();
  for (const CosmaRegion &region : myA) {
    piecesA.push_back(next);
    next += region.rows * region.cols;
  }
  for (const CosmaRegion &region : myB) {
    piecesB.push_back(next);
    next += region.rows * region.cols;
  }

  CosmaResult result;
  cosmaMultiplyPieces(s, piecesA, piecesB, comm, result);
  stats.bytesSent += 8.0 * result.wordsSent;
  stats.bytesReceived += 8.0 * result.wordsReceived;
  mine = std::vector<double>();

  // Gather the blocks of C on rank 0.
  long long block[4] = {result.row0, result.col0,
                        result.holdsBlock ? result.block.rows() : 0,
                        result.holdsBlock ? result.block.cols() : 0};
  std::vector<long long> blocks(rank == 0 ? 4 * size : 4);
  MPI_Gather(block, 4, MPI_LONG_LONG, blocks.data(), 4, MPI_LONG_LONG, 0, comm);
  int sendCount = int(block[2] * block[3]);
  std::vector<double> all;
  if (rank == 0) {
    int64_t total = 0;
    for (int r = 0; r < size; ++r) {
      displs[r] = int(total);
      counts[r] = r == 0 ? 0 : int(blocks[4 * r + 2] * blocks[4 * r + 3]);
      total += counts[r];
    }
    all.resize(size_t(std::max<int64_t>(1, total)));
    stats.bytesReceived += 8.0 * double(total);
  } else {
    stats.bytesSent += 8.0 * double(sendCount);
  }
  MPI_Gatherv(result.block.data(), rank == 0 ? 0 : sendCount, MPI_DOUBLE,
              all.data(), counts.data(), displs.data(), MPI_DOUBLE, 0, comm);
  if (rank != 0)
    return true;

  Matrix c(m, n);
  auto place = [&](const double *data, long long row0, long long col0,
                   long long rows, long long cols) {
    for (long long i = 0; i < rows; ++i)
      std::copy(data + i * cols, data + (i + 1) * cols,
                c.data() + (row0 + i) * n + col0);
  };
  if (result.holdsBlock)
    place(result.block.data(), block[0], block[1], block[2], block[3]);
  for (int r = 1; r < size; ++r)
    place(all.data() + displs[r], blocks[4 * r], blocks[4 * r + 1],
          blocks[4 * r + 2], blocks[4 * r + 3]);
  std::vector<TileRef> whole{{&c, 0, 0}};
  for (int32_t o = 0; o < task.numOutputs; ++o) {
    const Slot &slot = plan.slots[task.firstOutput + o];
    outputs.emplace_back(slot.rows, slot.cols);
    assemble(outputs.back(), slot.row0, slot.col0, whole);
  }
  return true;
}
