//===- DistributedGemm.h - A plan's COSMA product task ----------*- C++ -*-===//
//
// Runs one `distributed_gemm` task of a plan (cmmrt/Plan.h) on every rank of
// a communicator whose rank r is node r: the ranks hold the operands' tiles
// wherever the plan put them, node 0 gets the result as tiles; COSMA
// (cmmrt/Cosma.h) computes it on all.
//
//   1. every rank computes the same strategy (the memory per rank is the
//      plan's or CMM_MAX_MEMORY, the smallest over the ranks);
//   2. the tiles move into the layout of section 7.6 (cosmaRedistribute:
//      one all-to-all of the parts each rank holds of each rank's pieces);
//   3. cosmaMultiply on all ranks;
//   4. the blocks of C are gathered on rank 0 and cut into the task's
//      output tiles.
//
//===----------------------------------------------------------------------===//

#ifndef CMMRT_DISTRIBUTEDGEMM_H
#define CMMRT_DISTRIBUTEDGEMM_H

#include "cmmrt/CosmaStrategy.h"
#include "cmmrt/Plan.h"
#include "cmmrt/TaskKernels.h"

#include <mpi.h>

#include <string>
#include <vector>

namespace cmmrt {

struct DistributedGemmStats {
  double bytesSent = 0, bytesReceived = 0; // this rank, every phase
  CosmaStrategy strategy;
};

/// The memory per rank a distributed product may use: CMM_MAX_MEMORY (bytes,
/// plan::memoryLimitFromEnvironment) when set, else `planned` bytes (0:
/// this node's physical memory).
double distributedGemmMemory(double planned);

/// Runs `task` (a DistributedGemm of `plan`, this rank's entry) collectively
/// on `comm`. `inputs` are this rank's tiles of A (`task.inputsA`) then of
/// B; on rank 0 `outputs` gets one matrix per output slot. False with a
/// message (the product does not fit in memory, the tiles do not cover the
/// operands), on every rank.
bool runDistributedGemm(const plan::Plan &plan, const plan::Task &task,
                        const std::vector<TileRef> &inputs,
                        std::vector<Matrix> &outputs, MPI_Comm comm,
                        DistributedGemmStats &stats, std::string &error);

} // namespace cmmrt

#endif // CMMRT_DISTRIBUTEDGEMM_H
