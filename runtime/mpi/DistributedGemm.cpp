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
  if (double limit = plan::memoryLimitFromEnvironment(); limit > 0)
    bytes = limit; // overrides, as in the planner
  return bytes;
}

namespace {

/// The product's m, n, k from its op: a matmul (rows x k times k x cols,
/// its first operand inRows x inCols as stored, k x rows when it is read
/// transposed: the gang gets that operand's transpose as tiles) or a step
/// of a matrix power (n x n).
void productShape(const Op &op, int64_t &m, int64_t &n, int64_t &k) {
  if (op.code == OpCode::Pow) {
    m = n = k = op.rows;
    return;
  }
  m = op.rows;
  k = (op.a & plan::kTransposeLhs) ? op.inRows : op.inCols;
  n = op.cols;
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

  // This rank's tiles of A, then of B (the plan's split).
  std::vector<TileRef> tilesA(
      inputs.begin(),
      inputs.begin() + std::min<size_t>(inputs.size(), size_t(task.inputsA)));
  std::vector<TileRef> tilesB(inputs.begin() + tilesA.size(), inputs.end());

  // Each rank's pieces of A and B (section 7.6 layout), from the tiles
  // where they are.
  auto blocksOf = [](const std::vector<TileRef> &tiles) {
    std::vector<CosmaBlock> blocks;
    for (const TileRef &t : tiles)
      blocks.push_back({t.tile->data(), t.row0, t.col0, t.tile->rows(),
                        t.tile->cols(), t.tile->cols()});
    return blocks;
  };
  std::vector<CosmaBlock> blocksA = blocksOf(tilesA),
                          blocksB = blocksOf(tilesB);
  cosmaPlaceRanks(s, blocksA, blocksB, comm);
  CosmaPieces pieces;
  if (!cosmaRedistribute(s, blocksA, blocksB, comm, pieces, error))
    return false;
  stats.bytesSent += 8.0 * pieces.wordsSent;
  stats.bytesReceived += 8.0 * pieces.wordsReceived;

  CosmaResult result;
  cosmaMultiplyPieces(s, pieces.a, pieces.b, comm, result);
  stats.bytesSent += 8.0 * result.wordsSent;
  stats.bytesReceived += 8.0 * result.wordsReceived;
  pieces = CosmaPieces();

  // Gather the blocks of C on rank 0.
  long long block[4] = {result.row0, result.col0,
                        result.holdsBlock ? result.block.rows() : 0,
                        result.holdsBlock ? result.block.cols() : 0};
  std::vector<long long> blocks(rank == 0 ? 4 * size : 4);
  MPI_Gather(block, 4, MPI_LONG_LONG, blocks.data(), 4, MPI_LONG_LONG, 0, comm);
  int sendCount = int(block[2] * block[3]);
  // Rank 0 receives every other rank's block (its own is copied).
  std::vector<int> counts(size), displs(size);
  int64_t total = 0;
  if (rank == 0)
    for (int r = 1; r < size; ++r) {
      displs[r] = int(std::min<int64_t>(total, INT_MAX));
      total += blocks[4 * r + 2] * blocks[4 * r + 3];
      counts[r] = int(std::min<int64_t>(total - displs[r], INT_MAX));
    }
  int tooLarge = total > INT_MAX;
  MPI_Bcast(&tooLarge, 1, MPI_INT, 0, comm);
  if (tooLarge) {
    error = "gathering the distributed product's result would pass 2^31 "
            "words in one exchange";
    return false;
  }
  ScratchBuffer all(size_t(std::max<int64_t>(1, total)));
  if (rank == 0)
    stats.bytesReceived += 8.0 * double(total);
  else
    stats.bytesSent += 8.0 * double(sendCount);
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
