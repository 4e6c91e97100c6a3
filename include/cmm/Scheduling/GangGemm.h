//===- GangGemm.h - A product as one COSMA gang task: its cost --*- C++ -*-===//
//
// The planner's view of a distributed_gemm (docs/cosma.md): one product C = A B
// run by COSMA (cmmrt/CosmaStrategy.h) on a gang of nodes, its operands'
// tiles wherever the plan put them, its result gathered on the gang's
// first node. Its predicted time, from the machine model, for u used ranks:
//
//   redistribute  the tiles move into the layout of COSMA's section 7.6
//                 (cosmaRedistribute, one all-to-all); assuming the tiles
//                 are spread evenly, each rank sends (u - 1) / u of its
//                 share: 8 (mk + kn) (u - 1) / u^2 bytes over the slowest
//                 link;
//   product       the slowest rank's local domain tileM x tileN x tileK with
//                 the node's gemm polynomial (one worker runs it; the gang
//                 still holds the others);
//   exchange      the busiest rank's panel and reduction words
//                 (cosmaGridTraffic) over the slowest link, plus one latency
//                 per round; overlapped with the product (section 7.3), so
//                 the two cost their maximum;
//   gather        C's blocks back to the first node (8 mn (u - 1) / u
//                 bytes);
//   copies        each rank copies its share of A and B twice (into the
//                 messages, out of them), the first node C twice (into the
//                 matrix, into the result tiles): the first node's `copy`
//                 polynomial for 2 mk / u, 2 kn / u and 2 mn elements.
//
// and, to choose per product (`--gemm=auto`), an estimate of the same
// product tiled: its gemm-accumulate chains (the paper's addmul) on every
// worker, bounded below by one chain of k / t tile products.
//
//===----------------------------------------------------------------------===//

#ifndef CMM_SCHEDULING_GANGGEMM_H
#define CMM_SCHEDULING_GANGGEMM_H

#include "cmm/Scheduling/MachineModel.h"
#include "cmmrt/CosmaStrategy.h"

#include <string>
#include <vector>

namespace cmm::scheduling {

struct GangGemmCost {
  cmmrt::CosmaStrategy strategy;
  double redistribute = 0, product = 0, exchange = 0, gather = 0, copies = 0;
  double total() const {
    return copies + redistribute + std::max(product, exchange) + gather;
  }
};

/// The memory per rank COSMA may use, in bytes: `CMM_MAX_MEMORY` when set
/// (cmmrt::plan::memoryLimitFromEnvironment), else the model's
/// `memoryLimit`, else the smallest node memory of the machine.
double gangMemoryBytes(const MachineModel &machine);

/// The cost of m x k times k x n on `gang` (node indices, the first holds
/// operands and result) with `memoryBytes` per rank; false with COSMA's
/// message (`needs X GiB per rank, has Y GiB`) when it cannot fit.
bool gangGemmCost(const MachineModel &machine,
                  const std::vector<unsigned> &gang, double m, double n,
                  double k, double memoryBytes, GangGemmCost &cost,
                  std::string &error);

/// The gang a product runs on fastest (issue 15, heterogeneous nodes): the
/// nodes ranked by how fast one of their workers runs the whole product
/// (the node's gemm polynomial; ties by index), and of the gangs made of
/// the u fastest the one gangGemmCost predicts shortest, for u at the end
/// of each class of equally fast nodes (when there are at most 32), the
/// powers of two and N.
/// COSMA's grid gives each used rank an equal share, so a slow node in the
/// gang holds back the others: a slow master is left out unless the
/// product is faster with it. The gang's first node (where C is gathered)
/// is the master when it is in the gang, else the fastest node; the others
/// follow in index order. False with the whole machine's error when no
/// gang fits in `memoryBytes` per rank.
bool bestGang(const MachineModel &machine, double m, double n, double k,
              double memoryBytes, std::vector<unsigned> &gang,
              GangGemmCost &cost, std::string &error);

/// The same product cut into `tileSize` tiles, alone on the machine:
/// max(its work over every worker, one accumulation chain) on the fastest
/// node, without communication.
double tiledGemmEstimate(const MachineModel &machine, double m, double n,
                         double k, int64_t tileSize);

} // namespace cmm::scheduling

#endif // CMM_SCHEDULING_GANGGEMM_H
