//===- MatrixChain.h - Product chains: flatten, order, emit -----*- C++ -*-===//
//
// A product chain is the sequence of factors of a tree of single-use
// products, powers, transposes and scalings, e.g. `u * (s * P^2)' * Q` is
// s * [u, P', P', Q]. Values with other users are leaves, never absorbed, so
// a rewrite of the chain recomputes nothing (the SystemDS bugs PR #683 and
// PR #1058 came from reordering around shared intermediates).
//
// The order is chosen by the classic O(L^3) dynamic program on flop count
// (Cormen et al., 15.2; SystemDS RewriteMatrixMultChainOptimization), with
// one more choice: a run of one repeated square factor X^m may be computed by
// squaring (floor(log2 m) + popcount(m) - 1 products). That single cost model
// decides between `u * P^k` as k vector products and squaring P.
//
//===----------------------------------------------------------------------===//

#ifndef CMM_TRANSFORMS_MATRIXCHAIN_H
#define CMM_TRANSFORMS_MATRIXCHAIN_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

namespace cmm {

struct ChainFactor {
  mlir::Value value;
  bool transposed = false;
  int64_t rows = 0, cols = 0; // of the factor as used (after transposing)

  bool sameAs(const ChainFactor &o) const {
    return value == o.value && transposed == o.transposed;
  }
};

struct ProductChain {
  mlir::Operation *root = nullptr;
  llvm::SmallVector<ChainFactor> factors;
  double scale = 1.0;
  /// The ops the chain replaces: the root first, each user before its
  /// producers (the order in which they can be erased).
  llvm::SmallVector<mlir::Operation *> ops;
  /// Whether a power op was expanded into the factors.
  bool hasPower = false;
  /// Chains under powers too long to expand: not part of this chain, and
  /// roots of their own to process after it.
  llvm::SmallVector<mlir::Operation *> nestedRoots;

  /// Flops of the ops the chain replaces, under the FlopCount model.
  double originalFlops() const;
};

/// Roots of product chains in `func` (products, powers, and scalings or
/// transposes of chains, not absorbed into a user's chain), in program order.
/// Chains found under long powers while flattening are in
/// ProductChain::nestedRoots.
llvm::SmallVector<mlir::Operation *> findChainRoots(mlir::func::FuncOp func);

/// Calls `process` with each product chain of `func`: the roots of
/// findChainRoots in program order, then the chains found under long powers.
/// `process` may rewrite the chain it is given.
void forEachChain(mlir::func::FuncOp func,
                  llvm::function_ref<void(ProductChain &)> process);

/// The chain rooted at `root`. Powers with exponents above `maxExpand`, and
/// expansions beyond `maxFactors` factors, stay leaves.
ProductChain flattenChain(mlir::Operation *root, int64_t maxExpand = 64,
                          size_t maxFactors = 256);

/// An evaluation order of a chain: a binary tree over factor intervals.
class ChainPlan {
public:
  /// The cheapest order by dynamic programming. With `allowSquaring`, a run
  /// of one repeated square factor may be computed by squaring. Chains of
  /// more than kMaxExactFactors factors (a loop of 20000 products unrolled)
  /// are planned over their runs instead, each run of a repeated square
  /// factor squared whole: O(runs^3) time and O(runs^2) memory, where the
  /// exact table of a 20000-factor chain took 4.8 GB and never finished.
  /// With more than kMaxExactFactors runs too, the plan is not valid() and
  /// the chain keeps the program's order.
  static ChainPlan optimal(llvm::ArrayRef<ChainFactor> factors,
                           bool allowSquaring = true);
  /// The whole chain, which must be one repeated square factor, by squaring.
  static ChainPlan squaring(llvm::ArrayRef<ChainFactor> factors);

  static constexpr size_t kMaxExactFactors = 400;

  bool valid() const { return !costs.empty(); }
  double flops() const { return cost(0, size - 1); }

  /// Emits the products before the builder's insertion point and returns the
  /// value of the whole chain (without the chain's scale).
  /// With `scale` != 1, the value of node `scaleAt` (an interval of the
  /// tree, see scaleNode) is multiplied by it.
  mlir::Value emit(mlir::OpBuilder &builder, mlir::Location loc,
                   llvm::ArrayRef<ChainFactor> factors, double scale = 1.0,
                   std::pair<size_t, size_t> scaleAt = {0, 0},
                   int64_t *squarings = nullptr,
                   int64_t *squareProducts = nullptr) const;

  /// The node of the tree (a factor, a product, or the result; not inside a
  /// squared run, whose factor is raised to a power) with the fewest
  /// elements: where a scaling is cheapest. Sets `elements`.
  std::pair<size_t, size_t> scaleNode(llvm::ArrayRef<ChainFactor> factors,
                                      double &elements) const;

  friend class ChainEmitter;

private:
  static constexpr int kSquare = -1;
  /// A plan over `n` factors cut into segments starting at `starts` (the
  /// tree's leaves: single factors, or runs squared whole); the tables hold
  /// the intervals from a segment's start to a segment's end.
  ChainPlan(size_t n, std::vector<size_t> starts);
  size_t at(size_t i, size_t j) const {
    return segmentOf[i] * segments + segmentOf[j];
  }
  double &cost(size_t i, size_t j) { return costs[at(i, j)]; }
  double cost(size_t i, size_t j) const { return costs[at(i, j)]; }
  int &split(size_t i, size_t j) { return splits[at(i, j)]; }
  int split(size_t i, size_t j) const { return splits[at(i, j)]; }

  size_t size, segments;
  std::vector<size_t> segmentOf; // by factor
  std::vector<double> costs;
  std::vector<int>
      splits; // split point k (a segment's last factor), or kSquare
};

/// Rewrites `chain` with `plan` (applying the chain's scale where it is
/// cheapest) and erases the ops it replaces. Returns the chain's new value.
mlir::Value rewriteChain(const ProductChain &chain, const ChainPlan &plan,
                         int64_t *squarings = nullptr,
                         int64_t *squareProducts = nullptr);

/// x^m (m >= 1) by binary exponentiation: floor(log2 m) squarings and
/// popcount(m) - 1 products, reusing and extending `squares` (x, x^2, x^4,
/// ...), in O(log m) time and memory.
mlir::Value emitPowerBySquaring(mlir::OpBuilder &b, mlir::Location loc,
                                mlir::Value x, int64_t m,
                                llvm::SmallVectorImpl<mlir::Value> &squares,
                                int64_t *squarings = nullptr,
                                int64_t *products = nullptr);

/// Flops of applying the chain's scale at its cheapest place in `plan`
/// (0 for a scale of 1).
double scaleFlops(const ProductChain &chain, const ChainPlan &plan);

} // namespace cmm

#endif // CMM_TRANSFORMS_MATRIXCHAIN_H
