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

/// Element lookup in the regions a rank received, in order; consecutive
/// reads stay in one region, so the last hit is tried first.
class RegionView {
public:
  RegionView(const std::vector<CosmaRegion> &regions, const double *data)
      : regions(regions) {
    int64_t offset = 0;
    for (const CosmaRegion &r : regions) {
      offsets.push_back(offset);
      offset += r.rows * r.cols;
    }
    base = data;
  }
  double operator()(int64_t i, int64_t j) const {
    for (size_t tried = 0; tried < regions.size(); ++tried) {
      const CosmaRegion &r = regions[last];
      if (i >= r.row0 && i < r.row0 + r.rows && j >= r.col0 &&
          j < r.col0 + r.cols)
        return base[offsets[last] + (i - r.row0) * r.cols + (j - r.col0)];
      last = (last + 1) % regions.size();
    }
    return 0.0; // not reached: cosmaMultiply reads only its own pieces
  }

private:
  const std::vector<CosmaRegion> &regions;
  std::vector<int64_t> offsets;
  const double *base = nullptr;
  mutable size_t last = 0;
};

int64_t regionWords(const std::vector<CosmaRegion> &regions) {
  int64_t words = 0;
  for (const CosmaRegion &r : regions)
    words += r.rows * r.cols;
  return words;
}

void pack(const Matrix &m, const std::vector<CosmaRegion> &regions,
          std::vector<double> &out) {
  for (const CosmaRegion &r : regions)
    for (int64_t i = 0; i < r.rows; ++i) {
      const double *row = m.data() + (r.row0 + i) * m.cols() + r.col0;
      out.insert(out.end(), row, row + r.cols);
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

  // Rank 0: the operands from their tiles (A's first, by area).
  Matrix a, b;
  if (rank == 0) {
    a = Matrix(m, k);
    b = Matrix(k, n);
    std::vector<TileRef> left, right;
    int64_t covered = 0;
    for (const TileRef &t : inputs) {
      (covered < a.size() ? left : right).push_back(t);
      covered += t.tile->size();
    }
    if (assemble(a, 0, 0, left) != a.size() ||
        assemble(b, 0, 0, right) != b.size())
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

  // Scatter each rank's pieces of A and B (section 7.6 layout).
  std::vector<CosmaRegion> myA, myB;
  cosmaInputRegions(s, rank, myA, myB);
  std::vector<int> counts(size), displs(size);
  std::vector<double> packed, mine;
  if (rank == 0) {
    for (int r = 0; r < size; ++r) {
      std::vector<CosmaRegion> ra, rb;
      cosmaInputRegions(s, r, ra, rb);
      int64_t words = regionWords(ra) + regionWords(rb);
      if (r == 0)
        words = 0; // rank 0 reads its pieces from A and B directly
      if (packed.size() + words > size_t(INT_MAX)) {
        error = "the distributed product's operands exceed 2^31 elements "
                "per scatter";
        break;
      }
      displs[r] = int(packed.size());
      counts[r] = int(words);
      if (r != 0) {
        pack(a, ra, packed);
        pack(b, rb, packed);
        stats.bytesSent += 8.0 * double(words);
      }
    }
  }
  bad = !error.empty();
  MPI_Bcast(&bad, 1, MPI_INT, 0, comm);
  if (bad) {
    if (error.empty())
      error = "the distributed product's operands are too large to scatter";
    return false;
  }
  int64_t myWords = rank == 0 ? 0 : regionWords(myA) + regionWords(myB);
  mine.resize(size_t(std::max<int64_t>(1, myWords)));
  MPI_Scatterv(packed.data(), counts.data(), displs.data(), MPI_DOUBLE,
               mine.data(), int(myWords), MPI_DOUBLE, 0, comm);
  stats.bytesReceived += 8.0 * double(myWords);
  packed = std::vector<double>();

  RegionView viewA(myA, mine.data());
  RegionView viewB(myB, mine.data() + regionWords(myA));
  ElementFn elementA, elementB;
  if (rank == 0) {
    elementA = [&a](int64_t i, int64_t j) { return a(i, j); };
    elementB = [&b](int64_t i, int64_t j) { return b(i, j); };
  } else {
    elementA = [&viewA](int64_t i, int64_t j) { return viewA(i, j); };
    elementB = [&viewB](int64_t i, int64_t j) { return viewB(i, j); };
  }
  CosmaResult result;
  cosmaMultiply(s, elementA, elementB, false, false, comm, result);
  stats.bytesSent += 8.0 * result.wordsSent;
  stats.bytesReceived += 8.0 * result.wordsReceived;
  a = Matrix();
  b = Matrix();

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
