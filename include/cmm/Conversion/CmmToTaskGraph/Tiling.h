//===- Tiling.h - cmm IR to a tiled task graph ------------------*- C++ -*-===//
//
// Cuts every matrix of `@main` into tiles with the paper's `tile` function
// (Listing 1: ceil(rows / t) x ceil(cols / t) tiles, ragged at the edges) and
// turns each op into tile tasks: products into chains of gemm-accumulate
// tasks (the paper's addmul) per output tile, elementwise ops tile by tile
// (broadcast operands reuse their one tile row or column), reductions into
// partial reductions and a combine chain, inv/solve into one task over the
// whole matrix, print/save into a gather to the master.
//
//===----------------------------------------------------------------------===//

#ifndef CMM_CONVERSION_CMMTOTASKGRAPH_TILING_H
#define CMM_CONVERSION_CMMTOTASKGRAPH_TILING_H

#include "cmm/Scheduling/TaskGraph.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/StringRef.h"

#include <functional>
#include <string>

namespace cmm::tiling {

using scheduling::TaskGraph;

/// The tiles of `size` x `size` (ragged at the edges) along a dimension.
int64_t tileCount(int64_t extent, int64_t size);
int64_t tileExtent(int64_t extent, int64_t size, int64_t index);

/// Largest task graph the planner builds: planning time grows faster than
/// linearly (Markov, 8 nodes: 26k tasks 0.8 s, 200k tasks 25 s), so larger
/// graphs are refused with a message rather than left to run for hours.
constexpr long long kMaxTasks = 200'000;

/// About how many tasks tiles of `size` make of `func` (no dynamic tiling,
/// no gangs): what buildTaskGraph compares with kMaxTasks.
double countTasks(mlir::func::FuncOp func, int64_t size);

/// A function with arguments is a segment of a program with run-time
/// control flow (Planning/Segments.h): each argument's tiles are imported
/// from the master, where its results are exported (cmmrt/Program.h). This
/// unit attribute on an argument says the innermost run-time loop around
/// the segment does not change it: its tiles may be imported on any node
/// (the tiler leaves them unplaced), where they stay from the first trip on,
/// so the plan of a loop body is its steady state: a loop-invariant matrix
/// is not sent again each trip.
constexpr llvm::StringLiteral kInvariantAttr = "cmm.invariant";

/// On a segment's result: where a later segment reads its tiles, as
/// (row0, col0, rows, cols, node) for each tile (a DenseI64ArrayAttr; set
/// by cmm-plan from the plan of the segment that imports it as
/// loop-invariant). When this segment's tiles of the value are the same,
/// each is kept on its node instead of gathered to the master, so the
/// value is made where it is used and never crosses whole (cmmrt/Program.h,
/// pieces).
constexpr llvm::StringLiteral kKeepOnAttr = "cmm.keep_on";

/// Builds the task graph of `func` for square tiles of `tileSize`; false
/// with a message for an op the planner cannot tile, or for a tile size that
/// would make more than kMaxTasks tasks.
///
/// Dynamic tiling (paper section 3.2), when `startupSize` is below
/// `tileSize`: generated and loaded matrices are cut into sub-tiles of
/// `startupSize` so every worker gets work sooner; elementwise ops on them
/// stay in sub-tiles, and `merge` tasks combine the sub-tiles back into
/// whole tiles before the first op that needs whole tiles.
///
/// With `gang`, a product for which `gang->use` says so becomes one
/// distributed_gemm task (COSMA, docs/cosma.md) over the nodes `use` names
/// instead of gemm-accumulate chains: inputs the tiles of A then of B,
/// outputs the tiles of C, m, n, k the product's.
///
/// An error about one op (a product that cannot run as COSMA, an op the
/// planner cannot tile) sets `*errorOp` to it when `errorOp` is given.
struct GangGemmChoice {
  /// For m x k times k x n: true for a gang task, with `gang` its nodes (the
  /// first gathers C); false, or false with `error` set to stop the tiling.
  std::function<bool(int64_t m, int64_t n, int64_t k,
                     std::vector<unsigned> &gang, std::string &error)>
      use;
};
bool buildTaskGraph(mlir::func::FuncOp func, int64_t tileSize, TaskGraph &graph,
                    std::string &error, int64_t startupSize = 0,
                    const GangGemmChoice *gang = nullptr,
                    mlir::Operation **errorOp = nullptr);

/// The sub-tile size dynamic tiling uses for `workers` workers: the tile
/// size halved (at most twice) until the largest generated or loaded matrix
/// has a (sub-)tile per worker; `size` itself when it already has.
int64_t startupTileSize(mlir::func::FuncOp func, int64_t size,
                        unsigned workers);

/// The default sweep: 10 %, 20 %, ..., 70 % of the largest matrix dimension
/// (the paper found 10-50 % best) and 100 % (one tile per matrix), without
/// duplicates, at least 1.
std::vector<int64_t> defaultTileSizes(mlir::func::FuncOp func);

} // namespace cmm::tiling

#endif // CMM_CONVERSION_CMMTOTASKGRAPH_TILING_H
