//===- GangGemm.h - A product as one COSMA gang task: its cost --*- C++ -*-===//
//
// The planner's view of a distributed_gemm (issue 6): one product C = A B
// run by COSMA (cmmrt/CosmaStrategy.h) on a gang of nodes, its operands on
// the gang's first node and its result gathered back there. Its predicted
// time, from the machine model:
//
//   scatter   the first node sends every other used rank its share of A and
//             B in the layout of COSMA's section 7.6, over its own link
//             (8 (mk + kn) (u - 1) / u bytes for u used ranks);
//   product   the slowest rank's local domain tileM x tileN x tileK with the
//             node's gemm polynomial, the node's workers sharing it;
//   exchange  the busiest rank's panel and reduction words
//             (cosmaGridTraffic) over the slowest link, plus one latency
//             per round; overlapped with the product (section 7.3), so the
//             two cost their maximum;
//   gather    C's blocks back to the first node (8 mn (u - 1) / u bytes);
//   copies    the first node packs A and B into the pieces it sends and
//             keeps, and copies C's blocks into the matrix and that into
//             the result tiles: its `copy` polynomial for m x k, k x n and
//             twice m x n.
//
// and, to choose per product (`--gemm=auto`), an estimate of the same
// product tiled: its gemm-accumulate chains (the paper's addmul) on every
// worker, bounded below by one chain of k / t tile products.
//
//===----------------------------------------------------------------------===//

#ifndef CMM_PLANNER_GANGGEMM_H
#define CMM_PLANNER_GANGGEMM_H

#include "cmm/Planner/MachineModel.h"
#include "cmmrt/CosmaStrategy.h"

#include <string>
#include <vector>

namespace cmm::planner {

struct GangGemmCost {
  cmmrt::CosmaStrategy strategy;
  double scatter = 0, product = 0, exchange = 0, gather = 0, copies = 0;
  double total() const {
    return copies + scatter + std::max(product, exchange) + gather;
  }
};

/// The memory per rank COSMA may use, in bytes: `CMM_MAX_MEMORY` when set
/// (a positive number of bytes), else the smallest node memory of the
/// machine.
double gangMemoryBytes(const MachineModel &machine);

/// The cost of m x k times k x n on `gang` (node indices, the first holds
/// operands and result) with `memoryBytes` per rank; false with COSMA's
/// message (`needs X GiB per rank, has Y GiB`) when it cannot fit.
bool gangGemmCost(const MachineModel &machine,
                  const std::vector<unsigned> &gang, double m, double n,
                  double k, double memoryBytes, GangGemmCost &cost,
                  std::string &error);

/// The same product cut into `tileSize` tiles, alone on the machine:
/// max(its work over every worker, one accumulation chain) on the fastest
/// node, without communication.
double tiledGemmEstimate(const MachineModel &machine, double m, double n,
                         double k, int64_t tileSize);

} // namespace cmm::planner

#endif // CMM_PLANNER_GANGGEMM_H
